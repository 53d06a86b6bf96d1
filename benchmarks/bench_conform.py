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
import os
import random
import resource
import shlex
import sys
import time
from pathlib import Path

from oracle.conform import Conformance, Settings
from oracle.play import PLAYER_NAMES, choose
from oracle.refengine import LocalEngine
from reference.core.game import step
from reference.registry import make_game

SERVE = f"{shlex.quote(sys.executable)} -m oracle serve --game"


def time_play(game: str, players: int, seed: int) -> tuple[float, float]:
    """Wall and CPU seconds of our own in-process play-out (choose + checked step)."""
    rules = make_game(game, {})
    started, cpu = time.perf_counter(), _cpu()
    rng = random.Random(seed)
    state = rules.new_game(PLAYER_NAMES[:players])
    events = 0
    while not rules.is_over(state):
        state = step(rules, state, choose(rules, state, rng))
        events += 1
    return time.perf_counter() - started, _cpu() - cpu


def time_conform(game: str, players: int, seed: int) -> tuple[float, float, float, int, int]:
    """Wall seconds of the whole run and of the play-out alone (after the engine said
    hello and both sides loaded the game), CPU seconds of both processes during the
    play-out (start-ups excluded), requests, events."""
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
    # Once per process, not per play-out: both sides load the game's rules (as (a) does before
    # its clock starts) and make their converters; done here with one position's questions,
    # so the clock times the play-out alone.
    ref = LocalEngine(games=run.games)
    ref.new_game(game, PLAYER_NAMES[:players], {})
    ref.leaves_json(), ref.legal_json()
    run.remote.new_game(game, PLAYER_NAMES[:players], {})
    run.remote.state(list(ref.leaves()))
    run.remote.legal()
    playout, asked = time.perf_counter(), run.process.requests
    cpu = _cpu() + _engine_cpu(run)
    run.run_parts()
    done = time.perf_counter()
    cpu = _cpu() + _engine_cpu(run) - cpu
    run.process.close()
    report = run.report
    if not report.passed():
        raise SystemExit(f"conform found disagreements with serve: {report.findings[0].message}")
    requests = run.process.requests - asked
    return done - started, done - playout, cpu, requests, report.counts.events


def _cpu() -> float:
    """User + system seconds of this process."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def _engine_cpu(run: Conformance) -> float:
    """User + system seconds of the running engine process so far (Linux /proc), so its
    start-up is not counted in the play-out."""
    proc = run.process._proc  # a benchmark may look inside
    if proc is None:
        return 0.0
    fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def time_round_trips(game: str, count: int) -> tuple[float, float]:
    """Wall and CPU seconds (both processes) of ``count`` bare requests to ``serve``."""
    run = Conformance(Settings(engine=f"{SERVE} {game}", game=game, players=(2,)))
    process = run.process
    process.start()
    process.request({"op": "new_game", "game": game, "players": ["a", "b"], "options": {}})
    started, cpu = time.perf_counter(), _cpu() + _engine_cpu(run)
    for _ in range(count):
        process.request({"op": "to_act"})
    elapsed, cpu = time.perf_counter() - started, _cpu() + _engine_cpu(run) - cpu
    process.close()
    return elapsed, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="pillars")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    plays, trips, wholes, playouts = [], [], [], []
    requests = events = 0
    for _ in range(args.repeat):
        plays.append(time_play(args.game, args.players, args.seed))
        whole, playout, cpu, requests, events = time_conform(args.game, args.players, args.seed)
        wholes.append(whole)
        playouts.append((playout, cpu))
        trips.append(time_round_trips(args.game, requests))
    play_cpu, trip_cpu, playout_cpu = (
        min(t[1] for t in times) for times in (plays, trips, playouts)
    )
    play_wall, trip_wall, playout_wall = (
        min(t[0] for t in times) for times in (plays, trips, playouts)
    )
    print(f"{args.game}, {args.players} players, seed {args.seed}: {events} events")
    print(f"  best of {args.repeat}                          wall s   CPU s (both processes)")
    print(f"  play (in-process)                  {play_wall:7.3f} {play_cpu:7.3f}")
    print(f"  round-trips ({requests:5d} bare requests) {trip_wall:7.3f} {trip_cpu:7.3f}")
    print(f"  conform, the play-out              {playout_wall:7.3f} {playout_cpu:7.3f}")
    print(f"  conform, whole (start-ups too)     {min(wholes):7.3f}")
    wall_ratio = playout_wall / (play_wall + trip_wall)
    cpu_ratio = playout_cpu / (play_cpu + trip_cpu)
    print(f"  play-out / (play + round-trips): wall {wall_ratio:.2f}, CPU {cpu_ratio:.2f}")
    print("  (target < 2; on a loaded machine the CPU ratio is the steadier one)")


if __name__ == "__main__":
    main()
