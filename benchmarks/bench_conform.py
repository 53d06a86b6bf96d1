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
    rules = make_game(game, {})
    started = time.perf_counter()
    rng = random.Random(seed)
    state = rules.new_game(PLAYER_NAMES[:players])
    events = 0
    while not rules.is_over(state):
        state = step(rules, state, choose(rules, state, rng))
        events += 1
    return time.perf_counter() - started, events


def time_conform(game: str, players: int, seed: int) -> tuple[float, int, int]:
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
    report = run.run()
    elapsed = time.perf_counter() - started
    if not report.passed():
        raise SystemExit(f"conform found disagreements with serve: {report.findings[0].message}")
    return elapsed, run.process.requests, report.counts.events


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
    plays, trips, conforms = [], [], []
    requests = events = 0
    for _ in range(args.repeat):
        plays.append(time_play(args.game, args.players, args.seed)[0])
        elapsed, requests, events = time_conform(args.game, args.players, args.seed)
        conforms.append(elapsed)
        trips.append(time_round_trips(args.game, requests))
    play, trip, conform = min(plays), min(trips), min(conforms)
    floor = play + trip
    print(f"{args.game}, {args.players} players, seed {args.seed}: {events} events")
    print(f"  play (in-process)            {play:7.3f} s")
    print(f"  round-trips ({requests:5d} requests) {trip:7.3f} s")
    print(f"  conform --part playout       {conform:7.3f} s")
    print(f"  ratio conform / (play + round-trips) = {conform / floor:.2f}  (target < 2)")


if __name__ == "__main__":
    main()
