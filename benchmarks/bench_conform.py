"""Conformance speed: one differential play-out against ``serve``, against its floor.

    python benchmarks/bench_conform.py                       # Pillars, 4 players
    python benchmarks/bench_conform.py --game milestones --players 3 --repeat 5

Times, in wall-clock seconds (two processes take part, so CPU time of one says little),
best of ``--repeat``:
  (a) play:       our own in-process play-out of the same seeded game (choose + step);
  (b) round-trips: as many requests as the conform run sent, each a bare ``to_act`` to a
                  running ``serve``: the cost of the process boundary alone;
  (c) conform:    ``conform --part playout --games 1`` against ``serve`` (every event sent,
                  to_act, every leaf state path and the legal set compared after each).
The target is (c) < 2 x ((a) + (b)). Nothing is asserted: speed is measured here, never
in tests.
"""

from __future__ import annotations

import argparse
import random
import resource
import shlex
import sys
import time

from oracle.conform import Conformance, Settings
from oracle.play import PLAYER_NAMES, choose
from oracle.protocol import EngineProcess
from reference.core.game import step
from reference.registry import make_game

SERVE = f"{shlex.quote(sys.executable)} -m oracle serve --game"


def time_play(game: str, players: int, seed: int) -> tuple[float, int]:
    """Seconds of our own in-process play-out (choose + checked step), events."""
    rules = make_game(game, {})
    started = time.perf_counter()
    rng = random.Random(seed)
    state = rules.new_game(PLAYER_NAMES[:players])
    events = 0
    while not rules.is_over(state):
        state = step(rules, state, choose(rules, state, rng))
        events += 1
    return time.perf_counter() - started, events


def time_conform(game: str, players: int, seed: int) -> tuple[float, float, float, int, int]:
    """Wall seconds of the whole run and of the play-out alone (after the engine said
    hello), CPU seconds of both processes during the play-out, requests, events."""
    settings = Settings(
        engine=f"{SERVE} {game}",
        game=game,
        players=(players,),
        seed=seed,
        games=1,
        parts=("playout",),
    )
    run = Conformance(settings)
    started = time.perf_counter()
    if not run.connect():
        raise SystemExit(f"serve did not start: {run.report.findings[0].message}")
    playout = time.perf_counter()
    cpu = _cpu()
    run.run_parts()
    run.process.close()  # reaped: its CPU time now counts among our children's
    done = time.perf_counter()
    cpu = _cpu() - cpu
    report = run.report
    if not report.passed():
        raise SystemExit(f"conform found disagreements with serve: {report.findings[0].message}")
    return done - started, done - playout, cpu, run.process.requests, report.counts.events


def _cpu() -> float:
    """User + system seconds of this process and its reaped children."""
    me, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def time_round_trips(game: str, count: int) -> float:
    process = EngineProcess(f"{SERVE} {game}", 10.0)
    process.start()
    process.request({"op": "new_game", "game": game, "players": ["a", "b"], "options": {}})
    started = time.perf_counter()
    for _ in range(count):
        process.request({"op": "to_act"})
    elapsed = time.perf_counter() - started
    process.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="pillars")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    plays, trips, wholes, playouts, cpus = [], [], [], [], []
    requests = events = 0
    for _ in range(args.repeat):
        plays.append(time_play(args.game, args.players, args.seed)[0])
        whole, playout, cpu, requests, events = time_conform(args.game, args.players, args.seed)
        wholes.append(whole)
        playouts.append(playout)
        cpus.append(cpu)
        trips.append(time_round_trips(args.game, requests))
    play, trip = min(plays), min(trips)
    floor = play + trip
    print(f"{args.game}, {args.players} players, seed {args.seed}: {events} events")
    print(f"  (best of {args.repeat})")
    print(f"  play (in-process)                  {play:7.3f} s")
    print(f"  round-trips ({requests:5d} bare requests) {trip:7.3f} s")
    print(f"  conform, whole (serve start-up too) {min(wholes):7.3f} s")
    print(
        f"  conform, the play-out               {min(playouts):7.3f} s wall, {min(cpus):.3f} s CPU"
    )
    print(f"  ratio play-out / (play + round-trips) = {min(playouts) / floor:.2f}  (target < 2)")


if __name__ == "__main__":
    main()
