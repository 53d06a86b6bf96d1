"""Validation speed: events per second, and the ratio to merely parsing the logs as JSON.

    python benchmarks/bench_validate.py --games 20            # every game
    python benchmarks/bench_validate.py --game pillars --games 50 --players 4

Generates a corpus with ``play`` (benchmarks/corpus/, not committed), then times in CPU
seconds, best of ``--repeat`` (a shared machine's wall clock is too noisy), in the same
run: (a) json.loads of every line and (b) a full ``validate`` of every log (structure,
apply, invariants after every event, every state claim compared), and (c) the same with
the claims stripped (the engine's own cost). Nothing is asserted:
speed is measured here, never in tests.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from oracle.games import GameCache
from oracle.play import PLAYER_NAMES, play_lines
from oracle.replay import validate_log
from reference.registry import game_names, make_game

CORPUS = Path(__file__).resolve().parent / "corpus"


def make_corpus(name: str, games: int, players: int | None) -> list[Path]:
    """Write ``games`` seeded logs of ``name`` (cycling player counts unless fixed)."""
    rules = make_game(name, {})
    folder = CORPUS / name
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    span = range(rules.min_players, rules.max_players + 1)
    for seed in range(games):
        n = players or span[seed % len(span)]
        path = folder / f"{name}-{n}p-{seed}.jsonl"
        if not path.exists():
            lines = play_lines(rules, PLAYER_NAMES[:n], seed, {})
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def without_claims(paths: list[Path]) -> list[Path]:
    """Copies of the logs with every ``state`` claim removed (engine cost alone)."""
    out = []
    for path in paths:
        bare = path.with_suffix(".bare")
        if not bare.exists():
            lines = []
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                record.pop("state", None)
                lines.append(json.dumps(record))
            bare.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(bare)
    return out


def parse_only(paths: list[Path]) -> tuple[float, int]:
    """CPU seconds to json.loads every line, and the number of event lines."""
    start = time.process_time()
    events = 0
    for path in paths:
        with path.open("rb") as handle:
            for line in handle:
                json.loads(line)
                events += 1
        events -= 2  # header and result
    return time.process_time() - start, events


def validate_all(paths: list[Path]) -> float:
    """CPU seconds to validate every log (one game cache, as the CLI uses)."""
    games = GameCache()
    start = time.process_time()
    for path in paths:
        verdict = validate_log(path, games)
        if verdict.kind != "valid":
            raise SystemExit(f"{path}: {verdict.kind}: {verdict.message}")
    return time.process_time() - start


def main() -> None:
    """Measure and print one line per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=game_names(), action="append")
    parser.add_argument("--games", type=int, default=20, help="logs per game")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3, help="take the best of N timings")
    args = parser.parse_args()
    print(
        f"{'game':<11} {'logs':>5} {'events':>8} {'validate ev/s':>14} {'no claims':>10} "
        f"{'parse ev/s':>11} {'ratio':>6} {'ms/game':>8}"
    )
    for name in args.game or game_names():
        paths = make_corpus(name, args.games, args.players)
        bare = without_claims(paths)
        timings = []
        for _ in range(args.repeat):  # interleaved, so a slow spell hits all three alike
            parse_s, events = parse_only(paths)
            timings.append((parse_s, validate_all(paths), validate_all(bare)))
        parse_s = min(t[0] for t in timings)
        validate_s = min(t[1] for t in timings)
        bare_s = min(t[2] for t in timings)
        print(
            f"{name:<11} {len(paths):>5} {events:>8} {events / validate_s:>14,.0f} "
            f"{events / bare_s:>10,.0f} {events / parse_s:>11,.0f} {validate_s / parse_s:>6.1f} "
            f"{1000 * validate_s / len(paths):>8.1f}"
        )


if __name__ == "__main__":
    main()
