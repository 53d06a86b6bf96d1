"""Where a validated event's time goes, stage by stage, beside a python-chess ply.

    pip install -e '.[bench]'
    python benchmarks/bench_parts.py                       # every game, the bench corpus
    python benchmarks/bench_parts.py --game palmyra --rounds 7

``bench_validate.py`` times whole validations; this splits one validation of the same corpus
(its logs, written once) into the stages a log line goes through, each timed on its own over
every event of the corpus, in interleaved rounds (the best round counts), in CPU
microseconds per event:

- ``json``: ``json.loads`` of the line (the yardstick of issue 9's "cost over json.loads");
- ``read``: the log reader's strict decoding (``read_lines``: UTF-8, no repeated key, depth);
- ``record``: the line as an event record (``parse_record``);
- ``structure``: the record as the game's event object (the event structurer);
- ``rules``: the event's handler alone (the rules' own work, the state copies among it);
- ``turn``: what ``apply_not_over`` adds to the handler (unknown types, player names, the
  turn rule, a game's pre-event check);
- ``invariants``: the game's invariant check after each event, as the product and the tests
  run it (with the shortcuts the game keeps);
- ``claims``: comparing the line's state claims with the state.

``floor`` adds every stage but ``turn`` and ``invariants``: what one event would cost if
those two were free and nothing else changed. Its ratio to a python-chess ply (``chess``,
``chess.pgn.read_game`` with every move legality-checked and pushed) is the highest
"validate vs chess" ratio the rest of the pipeline allows. The stages are timed apart, so
their sum is close to, not exactly, a whole validation's cost. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_validate import make_chess_corpus, make_corpus, replay_chess

from oracle.formats.converter import event_structurer
from oracle.formats.log import EventRecord, parse_header, parse_record, read_lines
from oracle.games import GameCache
from oracle.replay import _Claims  # the replay's own claim comparer, as validate uses it
from reference.core.game import step
from reference.registry import game_names

STAGES = ("json", "read", "record", "structure", "rules", "turn", "invariants", "claims")


class Log:
    """One log, replayed once: its lines, records, events and the state after each."""

    def __init__(self, path: Path, games: GameCache) -> None:
        self.path = path
        self.lines = path.read_bytes().splitlines(keepends=True)
        lines = read_lines(path)
        number, first = next(lines)
        header = parse_header(number, first)
        self.game: Any = games.get(header.game, header.options)
        self.start: Any = self.game.new_game(header.players)
        self.structure = event_structurer(self.game.name, self.game.event_types)
        self.records: list[EventRecord] = []
        self.events: list[Any] = []
        self.after: list[Any] = []
        state = self.start
        for number, raw in lines:
            record = parse_record(number, raw)
            if not isinstance(record, EventRecord):
                continue
            event = self.structure(record.raw)
            state = step(self.game, state, event)
            self.records.append(record)
            self.events.append(event)
            self.after.append(state)


def _json(logs: list[Log]) -> None:
    for log in logs:
        for line in log.lines:
            json.loads(line)


def _read(logs: list[Log]) -> None:
    for log in logs:
        for _ in read_lines(log.path):
            pass


def _record(logs: list[Log]) -> None:
    for log in logs:
        for record in log.records:
            parse_record(record.line, record.raw)


def _structure(logs: list[Log]) -> None:
    for log in logs:
        structure = log.structure
        for record in log.records:
            structure(record.raw)


def _rules(logs: list[Log]) -> None:
    for log in logs:
        handlers, tables, state = log.game.handlers, log.game.tables, log.start
        for event in log.events:
            state = handlers[type(event)](tables, state, event)


def _rules_and_turn(logs: list[Log]) -> None:
    for log in logs:
        apply, state = log.game.apply_not_over, log.start
        for event in log.events:
            state = apply(state, event)


def _rules_and_invariants(logs: list[Log]) -> None:
    for log in logs:
        game, state = log.game, log.start
        handlers, tables, check = game.handlers, game.tables, game.invariant_failures
        for event in log.events:
            state = handlers[type(event)](tables, state, event)
            check(state)


def _claims(logs: list[Log]) -> None:
    for log in logs:
        claims = _Claims()
        for record, state in zip(log.records, log.after, strict=True):
            claims.differences(state, record.claims)


RUNS: dict[str, Callable[[list[Log]], None]] = {
    "json": _json,
    "read": _read,
    "record": _record,
    "structure": _structure,
    "rules": _rules,
    "rules+turn": _rules_and_turn,
    "rules+invariants": _rules_and_invariants,
    "claims": _claims,
}


def _cpu(run: Callable[[list[Log]], None], logs: list[Log]) -> float:
    start = time.process_time()
    run(logs)
    return time.process_time() - start


def stages(best: dict[str, float], events: int) -> dict[str, float]:
    """Microseconds per event of each stage, from the best CPU seconds of each run."""
    per = {kind: seconds / events * 1e6 for kind, seconds in best.items()}
    return {
        "json": per["json"],
        "read": per["read"],
        "record": per["record"],
        "structure": per["structure"],
        "rules": per["rules"],
        "turn": per["rules+turn"] - per["rules"],
        "invariants": per["rules+invariants"] - per["rules"],
        "claims": per["claims"],
    }


def main() -> None:
    """Parse the command line, time the stages and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=game_names(), action="append")
    parser.add_argument("--logs", type=int, default=20, help="logs per game")
    parser.add_argument("--chess-games", type=int, default=20, help="random chess games")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; best counts")
    args = parser.parse_args()
    names = list(args.game or game_names())
    games = GameCache()
    logs = {name: [Log(p, games) for p in make_corpus(name, args.logs, None)] for name in names}
    pgn = make_chess_corpus(args.chess_games)
    plies = replay_chess(pgn)[1]
    chess_best = float("inf")
    best = {(name, kind): float("inf") for name in names for kind in RUNS}
    for _ in range(args.rounds):
        chess_best = min(chess_best, replay_chess(pgn)[0])
        for name in names:
            for kind, run in RUNS.items():
                best[name, kind] = min(best[name, kind], _cpu(run, logs[name]))
    ply = chess_best / plies * 1e6
    print(f"python-chess: {ply:.2f} us per ply ({plies} plies); figures in CPU us per event")
    print(f"{'game':<11}" + "".join(f"{s:>11}" for s in STAGES) + f"{'sum':>8}{'floor':>8}")
    for name in names:
        events = sum(len(log.events) for log in logs[name])
        part = stages({kind: best[name, kind] for kind in RUNS}, events)
        total = sum(v for k, v in part.items() if k != "json")
        floor = total - part["turn"] - part["invariants"]
        print(
            f"{name:<11}"
            + "".join(f"{part[s]:>11.2f}" for s in STAGES)
            + f"{total:>8.2f}{floor:>8.2f}"
        )
        print(
            f"{'':<11}sum {ply / total:.2f}x chess, {total / part['json']:.1f}x json; "
            f"floor (turn and invariants free) {ply / floor:.2f}x chess, "
            f"{floor / part['json']:.1f}x json"
        )


if __name__ == "__main__":
    main()
