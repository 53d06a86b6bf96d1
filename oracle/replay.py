"""Replaying a move log through the reference engine, to the first break or divergence.

verdict = validate_log(Path("game.jsonl"), GameCache())
verdict.kind   # valid | malformed | illegal | divergent | incomplete | internal_error
"""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any, Literal, NoReturn

import attrs

from oracle.explain import causes
from oracle.formats.converter import json_equal, structure_event, to_json
from oracle.formats.log import (
    EventRecord,
    Malformed,
    ResultRecord,
    parse_header,
    parse_record,
    read_lines,
)
from oracle.games import GameCache
from oracle.rulebook import citation, find_rule, placeholder_basis
from reference.core import paths
from reference.core.errors import (
    BadOptions,
    EngineInvariantError,
    MalformedEvent,
    RuleViolation,
)
from reference.core.game import Game, player_names_ok, step

Kind = Literal["valid", "malformed", "illegal", "divergent", "incomplete", "internal_error"]
FAILING: frozenset[str] = frozenset({"malformed", "illegal", "divergent", "internal_error"})


@attrs.frozen
class Divergence:
    """One claimed value that differs from the reference state."""

    path: str
    claimed: Any
    reference: Any
    causes: tuple[str, ...] = ()
    """The latest changes of the reference value: change, rule id and title, event index."""


@attrs.frozen
class Verdict:
    """What replaying one log found. ``event_index`` counts events from 0 (header excluded)."""

    log: str
    kind: Kind
    message: str = ""
    game: str | None = None
    events: int = 0
    line: int | None = None
    event_index: int | None = None
    player: str | None = None
    action: str | None = None
    rule_id: str | None = None
    rule_title: str | None = None
    citation: str | None = None
    divergences: tuple[Divergence, ...] = ()
    placeholders: tuple[str, ...] = ()
    state_at: Any = None

    def fails(self, strict: bool = False) -> bool:
        """Whether this verdict makes the run fail (incomplete only with ``strict``)."""
        return self.kind in FAILING or (strict and self.kind == "incomplete")


class _Stop(Exception):
    """Carries a verdict out of the replay loop."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.kind)
        self.verdict = verdict


def validate_log(path: Path, games: GameCache, at: int | None = None) -> Verdict:
    """The verdict on one log. Never raises for bad input; our own bugs are
    ``internal_error`` verdicts, never the user's rule violation."""
    try:
        return _replay(path, games, at)
    except _Stop as stop:
        return stop.verdict
    except Malformed as exc:
        return Verdict(str(path), "malformed", exc.reason, line=exc.line or None)
    except Exception as exc:  # noqa: BLE001 - anything else is our bug, reported as ours
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return Verdict(
            str(path),
            "internal_error",
            f"internal error in rules-oracle, please report: {type(exc).__name__}: {exc} "
            f"({Path(where.filename).name}:{where.lineno})",
        )


def _replay(path: Path, games: GameCache, at: int | None) -> Verdict:
    log = str(path)
    lines = read_lines(path)
    first = next(lines, None)
    if first is None:
        raise Malformed(0, "empty file: a log starts with a header line")
    header = parse_header(*first)
    try:
        game = games.get(header.game, header.options)
    except BadOptions as exc:
        raise Malformed(first[0], exc.message) from exc
    problem = player_names_ok(header.players, game.min_players, game.max_players)
    if problem:
        raise Malformed(first[0], problem)
    try:
        state = game.new_game(header.players)
    except BadOptions as exc:
        raise Malformed(first[0], exc.message) from exc
    common: dict[str, Any] = {"game": game.name, "placeholders": game.data.placeholders()}
    state_at = to_json(state) if at == 0 else None
    index = -1
    result_seen: ResultRecord | None = None
    for number, raw in lines:
        record = parse_record(number, raw)
        if result_seen is not None:
            raise Malformed(number, "nothing may follow the result line")
        if isinstance(record, ResultRecord):
            result_seen = record
            _check_result(log, game, state, record, index + 1, common)
            continue
        index += 1
        state = _replay_event(log, game, state, record, index, common)
        if at == index + 1:
            state_at = to_json(state)
    kind: Kind = "valid" if game.is_over(state) else "incomplete"
    message = "" if kind == "valid" else "the log ends before the game does"
    return Verdict(log, kind, message, events=index + 1, state_at=state_at, **common)


def _replay_event(
    log: str, game: Game, state: Any, record: EventRecord, index: int, common: dict[str, Any]
) -> Any:
    try:
        event = structure_event(game, record.raw)
        state = step(game, state, event)
        differences = _differences(state, record.claims) if record.claims else []
        if not differences:
            return state
    except (MalformedEvent, RuleViolation, EngineInvariantError, paths.UnknownPath) as exc:
        _stop_at(log, game, record, index, common, exc)
    differences = _with_causes(log, game, index, differences)
    count = len(differences)
    message = f"{count} claimed value{'s' if count > 1 else ''} differ from the reference"
    where = _where(record, index, common)
    where["events"] = index + 1
    raise _Stop(Verdict(log, "divergent", message, divergences=tuple(differences), **where))


def _with_causes(
    log: str, game: Game, index: int, differences: list[Divergence]
) -> list[Divergence]:
    """Each divergence with the events and rules that last changed its reference value
    (the prefix is replayed once more, recording: only for a divergent verdict)."""
    found = causes(Path(log), game, index, [d.path for d in differences])
    return [attrs.evolve(d, causes=found.get(d.path, ())) for d in differences]


def _differences(state: Any, claims: dict[str, Any]) -> list[Divergence]:
    """Every claimed value that differs from the reference state; a path naming nothing
    raises UnknownPath."""
    differences = []
    for path, claimed in claims.items():
        reference = to_json(paths.read(state, path))
        if not json_equal(claimed, reference):
            differences.append(Divergence(path, claimed, reference))
    return differences


def _where(record: EventRecord, index: int, common: dict[str, Any]) -> dict[str, Any]:
    """The verdict fields that say where in the log a problem is."""
    player, action = record.raw.get("player"), record.raw.get("type")
    return {
        "events": index,
        "line": record.line,
        "event_index": index,
        "player": player if isinstance(player, str) else None,
        "action": action if isinstance(action, str) else None,
        **common,
    }


def _stop_at(
    log: str, game: Game, record: EventRecord, index: int, common: dict[str, Any], exc: Exception
) -> NoReturn:
    """The verdict for an event that could not be replayed."""
    where = _where(record, index, common)
    if isinstance(exc, MalformedEvent):
        raise _Stop(Verdict(log, "malformed", exc.message, **where)) from exc
    if isinstance(exc, paths.UnknownPath):
        raise _Stop(Verdict(log, "malformed", str(exc), **where)) from exc
    if isinstance(exc, RuleViolation):
        rule = find_rule(game, exc.rule_id)
        where["placeholders"] = placeholder_basis(game, rule)
        raise _Stop(
            Verdict(
                log,
                "illegal",
                exc.message,
                rule_id=exc.rule_id,
                rule_title=rule.title if rule else None,
                citation=citation(rule),
                **where,
            )
        ) from exc
    message = f"internal error in rules-oracle, please report: invariant broken: {exc}"
    raise _Stop(Verdict(log, "internal_error", message, **where)) from exc


def _check_result(
    log: str, game: Game, state: Any, record: ResultRecord, events: int, common: dict[str, Any]
) -> None:
    where = {"events": events, "line": record.line, **common}
    if not game.is_over(state):
        message = "the log claims a result but the game is not over"
        raise _Stop(Verdict(log, "divergent", message, **where))
    result = game.result(state)
    differences = []
    if record.scores is not None and not json_equal(record.scores, result.scores):
        differences.append(Divergence("result.scores", record.scores, result.scores))
    if record.winners is not None and not json_equal(record.winners, list(result.winners)):
        differences.append(Divergence("result.winners", record.winners, list(result.winners)))
    if differences:
        raise _Stop(
            Verdict(
                log,
                "divergent",
                "the claimed result differs",
                divergences=tuple(differences),
                **where,
            )
        )
