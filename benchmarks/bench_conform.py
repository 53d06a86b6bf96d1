"""Conformance speed: one differential play-out against ``serve``, against its floor.

    python benchmarks/bench_conform.py                       # Pillars, 4 players
    python benchmarks/bench_conform.py --game milestones --players 3 --repeat 5
    python benchmarks/bench_conform.py --engine "python examples/adapters/python/adapter.py \
        --game pillars --compact"                            # answers in other bytes

Times, in wall-clock and CPU seconds of both processes, best of ``--repeat``:
  (a) play:       our own in-process play-out of the same seeded game (choose + step);
  (a') play+log:  the same with its log lines made, as ``rules-oracle play`` does (event
                  records with their claims, JSON-encoded; the file is not written);
  (b) round-trips: as many requests as the conform run sent, each a bare ``to_act`` to a
                  running ``serve``: the cost of the process boundary alone;
  (c) conform:    ``conform --part playout --games 1`` against ``serve`` (or ``--engine``):
                  every event sent, to_act, every leaf state path and the legal set compared
                  after each; once per process, both sides first load the game and make their
                  converters (as (a) loads the game before its clock starts).
The target is (c) < 2 x ((a) + (b)); the ratio to (a') + (b) is printed too. Nothing is
asserted: speed is measured here, never in tests.
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

from oracle.conform import Conformance
from oracle.findings import Settings
from oracle.play import PLAYER_NAMES, choose, play_lines
from oracle.refengine import LocalEngine
from reference.core.game import step
from reference.registry import make_game

SERVE = f"{shlex.quote(sys.executable)} -m rules_oracle_cli serve --game"


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


def time_play_log(game: str, players: int, seed: int) -> tuple[float, float]:
    """Wall and CPU seconds of ``rules-oracle play``'s work for one game, its log lines made
    but not written."""
    rules = make_game(game, {})
    started, cpu = time.perf_counter(), _cpu()
    for _ in play_lines(rules, PLAYER_NAMES[:players], seed, {}):
        pass
    return time.perf_counter() - started, _cpu() - cpu


def time_conform(
    game: str, players: int, seed: int, engine: str
) -> tuple[float, float, float, int, int]:
    """Wall seconds of the whole run and of the play-out alone (after the engine said
    hello and both sides loaded the game), CPU seconds of both processes during the
    play-out (start-ups excluded), requests, events."""
    settings = Settings(
        engine=engine,
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
    ref.leaves(), ref.legal()
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
    parser.add_argument("--engine", help="the engine command (default: our serve)")
    args = parser.parse_args()
    engine = args.engine or f"{SERVE} {args.game}"
    plays, logs, trips, wholes, playouts = [], [], [], [], []
    requests = events = 0
    for _ in range(args.repeat):
        plays.append(time_play(args.game, args.players, args.seed))
        logs.append(time_play_log(args.game, args.players, args.seed))
        timed = time_conform(args.game, args.players, args.seed, engine)
        whole, playout, cpu, requests, events = timed
        wholes.append(whole)
        playouts.append((playout, cpu))
        trips.append(time_round_trips(args.game, requests))
    play, log, trip, conform = (
        (min(t[0] for t in times), min(t[1] for t in times))
        for times in (plays, logs, trips, playouts)
    )
    print(f"{args.game}, {args.players} players, seed {args.seed}: {events} events")
    print(f"  engine: {engine}")
    print(f"  best of {args.repeat}                          wall s   CPU s (both processes)")
    print(f"  (a)  play (choose + step)          {play[0]:7.3f} {play[1]:7.3f}")
    print(f"  (a') play with its log lines       {log[0]:7.3f} {log[1]:7.3f}")
    print(f"  (b)  round-trips ({requests:5d} bare)    {trip[0]:7.3f} {trip[1]:7.3f}")
    print(f"  (c)  conform, the play-out         {conform[0]:7.3f} {conform[1]:7.3f}")
    print(f"       conform, whole (start-ups too) {min(wholes):7.3f}")
    for name, floor in (("(a) + (b) ", play), ("(a') + (b)", log)):
        wall, cpu = (conform[i] / (floor[i] + trip[i]) for i in (0, 1))
        print(f"  (c) / {name}: wall {wall:.2f}, CPU {cpu:.2f}")
    print("  (target (c) / ((a) + (b)) < 2; on a loaded machine the CPU ratio is the steadier)")


if __name__ == "__main__":
    main()
