"""How long the readings search of one failing 4-player Pillars log takes.

    python benchmarks/bench_readings.py                 # 4 readings x 5 seeds
    python benchmarks/bench_readings.py --seeds 10 --players 3

Each log is a seeded 4-player game played under a reading other than our default (one
option, or SAULEN's three at once), with that reading then taken out of its header, as
another implementation's log comes; it is validated with our default and, when it fails,
searched (oracle/readings.py) with no time bound. Printed per log: its events, the verdict,
readings replayed, the best reading found, and the search's CPU and wall seconds; then the
slowest search and the median. Issue 23 asks for at most 10 s a log; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from oracle.games import GameCache
from oracle.readings import readings_search
from oracle.replay import validate_records
from rules_oracle import play_log

READINGS: tuple[dict[str, Any], ...] = (
    {"archbishop_timing": "cathedral"},
    {"market_builders": "last"},
    {"ordered_spaces": "any_free"},
    {"archbishop_timing": "cathedral", "market_builders": "last", "ordered_spaces": "any_free"},
)


def records(reading: dict[str, Any], players: int, seed: int) -> list[tuple[int, Any]]:
    """A game played under ``reading``, its header carrying no options."""
    lines = play_log("pillars", players, seed=seed, options=reading)
    header = {**json.loads(lines[0]), "options": {}}
    return [(1, header)] + [(n, json.loads(line)) for n, line in enumerate(lines[1:], start=2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 5))
    args = parser.parse_args()
    cpu: list[float] = []
    wall: list[float] = []
    for reading in READINGS:
        for seed in range(args.seeds):
            log = records(reading, args.players, seed)
            source = lambda log=log: iter(log)  # noqa: E731
            games = GameCache()
            verdict = validate_records("log", source, games, None)
            if not verdict.fails():
                continue
            started, clock = time.process_time(), time.perf_counter()
            search = readings_search(verdict, source, games, seconds=float("inf"))
            cpu.append(time.process_time() - started)
            wall.append(time.perf_counter() - clock)
            best = search.found[0].text() if search.found else "-"
            print(
                f"{json.dumps(reading)} seed {seed}: {len(log) - 2} events, {verdict.kind} at "
                f"{verdict.events}; {search.tried} readings; {best}; "
                f"{cpu[-1]:.2f} s CPU, {wall[-1]:.2f} s wall"
            )
    if cpu:
        print(
            f"{len(cpu)} searches: CPU median {statistics.median(cpu):.2f} s, max "
            f"{max(cpu):.2f} s; wall median {statistics.median(wall):.2f} s, max {max(wall):.2f} s"
        )


if __name__ == "__main__":
    main()
