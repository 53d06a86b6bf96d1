"""The cost of ``fairness`` against ``validate`` over the same logs (issue 24: at most 2x).

    python benchmarks/bench_fairness.py                  # 1,000 logs: 250 of each game
    python benchmarks/bench_fairness.py --logs 100 --rounds 1   # e.g. under callgrind

Writes seeded ``play`` logs once (benchmarks/corpus/fairness/, not committed), then in
rounds that interleave the two measurements (a slow spell of a shared machine hits both
alike) times in CPU seconds, in this process (jobs 1):

- ``validate``: every log through ``rules_oracle.validate_files``, verdicts only;
- ``fairness``: the same logs through ``rules_oracle.fairness_files`` (each chance draw
  tallied against the reference's distribution at its node), then every group tested
  (``ChanceTally.test``: scipy).

Each figure is the best of the rounds; ``spread`` is the slowest round over the best. The
ratio is fairness over validate. Nothing is asserted: speed is measured here, never in tests.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import rules_oracle

CORPUS = Path(__file__).resolve().parent / "corpus" / "fairness"


def make_corpus(logs: int) -> Path:
    """``logs`` seeded logs, the games in turn, player counts cycled."""
    CORPUS.mkdir(parents=True, exist_ok=True)
    games = rules_oracle.GAMES
    for k in range(logs):
        game = games[k % len(games)]
        path = CORPUS / f"{k:05d}-{game}.jsonl"
        if path.exists():
            continue
        rules = rules_oracle.load(game)
        players = rules.min_players + (k // len(games)) % (
            rules.max_players - rules.min_players + 1
        )
        lines = rules_oracle.play_log(game, players, seed=k)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return CORPUS


def validate(paths: list[Path]) -> None:
    for _ in rules_oracle.validate_files(paths):
        pass


def fairness(paths: list[Path]) -> None:
    tally = rules_oracle.ChanceTally()
    for _ in rules_oracle.fairness_files(paths, tally=tally):
        pass
    tally.test()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    make_corpus(args.logs)
    paths = sorted(CORPUS.glob("*.jsonl"))[: args.logs]
    times: dict[str, list[float]] = {"validate": [], "fairness": []}
    for _ in range(args.rounds):
        for name, run in (("validate", validate), ("fairness", fairness)):
            started = time.process_time()
            run(paths)
            times[name].append(time.process_time() - started)
    best = {name: min(found) for name, found in times.items()}
    for name, found in times.items():
        print(f"{name:9s} {best[name]:8.2f} s CPU  spread {max(found) / best[name]:.2f}")
    print(f"fairness / validate: {best['fairness'] / best['validate']:.3f} ({len(paths)} logs)")


if __name__ == "__main__":
    main()
