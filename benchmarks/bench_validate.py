"""Validation speed against two yardsticks: json.loads of the same lines, and python-chess.

    pip install -e '.[bench]'                              # python-chess, for the yardstick
    python benchmarks/bench_validate.py                    # every game, 20 logs each
    python benchmarks/bench_validate.py --game pillars --logs 50 --rounds 7

Writes a corpus once (benchmarks/corpus/, not committed): seeded ``play`` logs of each game
(dense state claims, as ``play`` writes them), the same logs with every claim stripped, and
random legal chess games python-chess generated itself, as PGN. Each game's rule set is made
once, before any timing, as a worker of the CLI keeps it (``rule set``: its CPU milliseconds,
reported apart). Then, in rounds that interleave every measurement (so a slow spell of a
shared machine hits them all alike), it times in CPU seconds:

- ``validate``: a full validation of every log (structure, apply, invariants after every
  event, every state claim compared) with the rule set already made;
- ``bare``: the same logs without claims (the engines' own cost);
- ``json``: ``json.loads`` of every line of the logs with claims;
- ``chess``: python-chess reading the PGN games (``chess.pgn.read_game``: every SAN move
  parsed with its legality check and pushed on the board).

Each figure is the best of the rounds; ``spread`` is the slowest round over the best, a
measure of how noisy the machine was. The ratios compare events per second with python-chess
plies per second (higher is better, for the record) and the cost of validating with the cost
of json.loads (lower is better; the figure to watch: 7x or less with dense claims). Nothing
is asserted: speed is measured here, never in tests (docs/scale.md gives the figures).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from oracle.formats.log import parse_header, read_lines
from oracle.games import GameCache
from oracle.play import PLAYER_NAMES, play_lines
from oracle.replay import validate_log
from reference.registry import game_names, make_game

if TYPE_CHECKING:  # python-chess (the bench extra) is imported where it is used, so the
    import chess.pgn  # other benchmarks can share this module's corpus without it

CORPUS = Path(__file__).resolve().parent / "corpus"
MAX_PLIES = 400
"""A random chess game is cut here if it has not ended (the PGN then has result ``*``)."""


def make_corpus(name: str, logs: int, players: int | None) -> list[Path]:
    """Write ``logs`` seeded logs of ``name`` (cycling player counts unless fixed)."""
    rules = make_game(name, {})
    folder = CORPUS / name
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    span = range(rules.min_players, rules.max_players + 1)
    for seed in range(logs):
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


def random_chess_game(seed: int) -> chess.pgn.Game:
    """A random legal game: each move drawn uniformly from the legal moves."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    board = chess.Board()
    while not board.is_game_over() and board.ply() < MAX_PLIES:
        board.push(rng.choice(list(board.legal_moves)))
    return chess.pgn.Game.from_board(board)


def make_chess_corpus(games: int) -> Path:
    """Write ``games`` random chess games as one PGN file (once)."""
    path = CORPUS / "chess" / f"random-{games}.pgn"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        text = "\n\n".join(str(random_chess_game(seed)) for seed in range(games))
        path.write_text(text + "\n", encoding="utf-8")
    return path


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


def rule_sets(paths: list[Path]) -> tuple[GameCache, float]:
    """A game cache holding the rule set of every log's header (as a CLI worker keeps
    them), and the CPU seconds making them took."""
    games = GameCache()
    start = time.process_time()
    for path in paths:
        header = parse_header(*next(read_lines(path)))
        games.get(header.game, header.options)
    return games, time.process_time() - start


def validate_all(paths: list[Path], games: GameCache) -> float:
    """CPU seconds to validate every log with the rule sets in ``games`` (made before)."""
    start = time.process_time()
    for path in paths:
        verdict = validate_log(path, games)
        if verdict.kind != "valid":
            raise SystemExit(f"{path}: {verdict.kind}: {verdict.message}")
    return time.process_time() - start


def replay_chess(path: Path) -> tuple[float, int]:
    """CPU seconds for python-chess to read every game (legality-checked SAN, each move
    pushed), and the number of plies."""
    import chess.pgn

    start = time.process_time()
    plies = 0
    with path.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            if game.errors:
                raise SystemExit(f"{path}: python-chess rejected a game: {game.errors[0]}")
            plies += game.end().ply()
    return time.process_time() - start, plies


class Timing:
    """Every round's CPU seconds for one measurement over a fixed amount of work."""

    def __init__(self, work: int) -> None:
        self.work = work
        self.seconds: list[float] = []

    def rate(self) -> float:
        """Work per CPU second in the best round."""
        return self.work / min(self.seconds)

    def spread(self) -> float:
        """The slowest round over the best (1.0 = no noise)."""
        return max(self.seconds) / min(self.seconds)


def measure(names: list[str], args: argparse.Namespace) -> None:
    """Run the interleaved rounds and print the table."""
    corpora = {name: make_corpus(name, args.logs, args.players) for name in names}
    bare = {name: without_claims(paths) for name, paths in corpora.items()}
    pgn = make_chess_corpus(args.chess_games)
    work = {name: parse_only(paths)[1] for name, paths in corpora.items()}
    made = {name: rule_sets(paths) for name, paths in corpora.items()}
    chess_timing = Timing(replay_chess(pgn)[1])
    timings = {
        (name, kind): Timing(work[name]) for name in names for kind in ("validate", "bare", "json")
    }
    runs: dict[str, Callable[[str], float]] = {
        "validate": lambda name: validate_all(corpora[name], made[name][0]),
        "bare": lambda name: validate_all(bare[name], made[name][0]),
        "json": lambda name: parse_only(corpora[name])[0],
    }
    for _ in range(args.rounds):
        chess_timing.seconds.append(replay_chess(pgn)[0])
        for name in names:
            for kind, run in runs.items():
                timings[name, kind].seconds.append(run(name))
    chess_rate = chess_timing.rate()
    print(
        f"python-chess: {chess_timing.work} plies in {args.chess_games} games, "
        f"{chess_rate:,.0f} plies/s (spread {chess_timing.spread():.2f})"
    )
    print(
        f"{'game':<11} {'events':>7} {'rule set':>8} {'validate/s':>10} {'bare/s':>8} "
        f"{'json/s':>8} {'vs chess':>8} {'bare vs':>8} {'cost/json':>9} {'spread':>14}"
    )
    for name in names:
        valid, plain, parse = (timings[name, kind] for kind in ("validate", "bare", "json"))
        spreads = "/".join(f"{t.spread():.2f}" for t in (valid, plain, parse))
        print(
            f"{name:<11} {work[name]:>7} {made[name][1] * 1000:>6.0f}ms "
            f"{valid.rate():>10,.0f} {plain.rate():>8,.0f} "
            f"{parse.rate():>8,.0f} {valid.rate() / chess_rate:>7.2f}x "
            f"{plain.rate() / chess_rate:>7.2f}x {parse.rate() / valid.rate():>8.1f}x "
            f"{spreads:>14}"
        )
    print(
        "rule set: CPU to make the game's rule set, once, before the timed rounds; "
        "vs chess / bare vs: events/s with claims / without, over python-chess plies/s; "
        "cost/json: validate CPU over json.loads CPU (for the record: 7x or less)"
    )


def main() -> None:
    """Parse the command line and measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=game_names(), action="append")
    parser.add_argument("--logs", type=int, default=20, help="logs per game")
    parser.add_argument("--players", type=int, default=None, help="fix the player count")
    parser.add_argument("--chess-games", type=int, default=20, help="random chess games")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds; best counts")
    args = parser.parse_args()
    measure(list(args.game or game_names()), args)


if __name__ == "__main__":
    main()
