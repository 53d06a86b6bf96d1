"""Running scenario files: does this position and these steps give what the file expects?"""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any, Literal

import attrs

from oracle.formats.converter import assign, json_equal, structure_event, to_json
from oracle.formats.scenario import BadScenario, ExpectedLegal, LoadedScenario, load_scenario
from oracle.games import GameCache
from oracle.rulebook import find_rule, placeholder_basis
from reference.core import paths
from reference.core.errors import (
    BadOptions,
    EngineInvariantError,
    MalformedEvent,
    RuleViolation,
)
from reference.core.game import Game, player_names_ok, step

Status = Literal["pass", "fail", "error", "internal_error"]


@attrs.frozen
class ScenarioResult:
    """The outcome of one scenario file. ``error``: the file itself is unusable."""

    path: str
    status: Status
    reason: str = ""
    id: str | None = None
    game: str | None = None
    rules: tuple[str, ...] = ()
    line: int | None = None
    placeholders: tuple[str, ...] = ()


class _Outcome(Exception):
    def __init__(self, status: Status, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.status: Status = status
        self.reason = reason
        self.line = line


def run_scenario(path: Path, games: GameCache) -> ScenarioResult:
    """Run one scenario file; never raises for a bad file or a failing expectation."""
    try:
        loaded = load_scenario(path)
    except BadScenario as exc:
        return ScenarioResult(str(path), "error", exc.reason, line=exc.line or None)
    sc = loaded.scenario
    base: dict[str, Any] = {"id": sc.id, "game": sc.game, "rules": sc.rules}
    try:
        game = games.get(sc.game, sc.options)
        basis = _basis(game, sc.rules)
        _run(loaded, game)
    except _Outcome as out:
        return ScenarioResult(str(path), out.status, out.reason, line=out.line, **base)
    except BadOptions as exc:
        return ScenarioResult(str(path), "error", exc.message, **base)
    except Exception as exc:  # noqa: BLE001 - anything else is our bug, reported as ours
        return ScenarioResult(str(path), "internal_error", _our_bug(exc), **base)
    return ScenarioResult(str(path), "pass", "", placeholders=basis, **base)


def _our_bug(exc: Exception) -> str:
    """The reason given for a crash of ours: the exception and where it was raised."""
    where = traceback.extract_tb(exc.__traceback__)[-1]
    text = " ".join(f"{type(exc).__name__}: {exc}".split())[:500]
    return (
        f"internal error in rules-oracle, please report: {text} "
        f"({Path(where.filename).name}:{where.lineno})"
    )


def _basis(game: Game, rule_ids: tuple[str, ...]) -> tuple[str, ...]:
    basis: list[str] = []
    for rule_id in rule_ids:
        rule = find_rule(game, rule_id)
        if rule is None:
            raise _Outcome("error", f"cites {rule_id}, which is in no {game.name} catalogue")
        basis += placeholder_basis(game, rule)
    return tuple(dict.fromkeys(basis))


def _run(loaded: LoadedScenario, game: Game) -> None:
    sc = loaded.scenario
    problem = player_names_ok(sc.players, game.min_players, game.max_players)
    if problem:
        raise _Outcome("error", f"players: {problem}")
    state = game.new_game(sc.players)
    for i, raw in enumerate(sc.given.events):
        line = _at(loaded.given_lines, i)
        state = _apply(game, state, raw, line, f"given event {i}", expected_rule=None)
    if sc.given.state:
        try:
            state = assign(game, state, sc.given.state)
        except (paths.UnknownPath, MalformedEvent) as exc:
            raise _Outcome("error", f"given.state: {exc}") from exc
        unsound = _given_unsound(game, state)
        if unsound:
            raise _Outcome("error", f"given state unsound: {'; '.join(unsound)}")
    illegal = sc.expect.illegal
    for i, raw in enumerate(sc.steps):
        line = _at(loaded.step_lines, i)
        expected = illegal.rule if illegal is not None and illegal.step == i else None
        state = _apply(game, state, raw, line, f"step {i}", expected_rule=expected)
        if expected is not None:
            return
    _check_expect(loaded, game, state)


def _given_unsound(game: Game, state: Any) -> list[str]:
    """The invariants a given state breaks. A state the invariant check cannot even read
    (an empty table it takes the minimum of, a key it looks up) is the file's, not ours:
    the engine never builds such a state itself, only a ``given.state`` can."""
    try:
        return game.invariant_failures(state)
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        return [f"the invariant check cannot read it ({type(exc).__name__}: {exc})"]


def _at(lines: tuple[int, ...], i: int) -> int | None:
    return lines[i] if i < len(lines) else None


def _apply(
    game: Game,
    state: Any,
    raw: dict[str, Any],
    line: int | None,
    what: str,
    expected_rule: str | None,
) -> Any:
    try:
        event = structure_event(game, raw)
    except MalformedEvent as exc:
        raise _Outcome("error", f"{what}: {exc.message}", line) from exc
    try:
        new_state = step(game, state, event)
    except RuleViolation as exc:
        if expected_rule == exc.rule_id:
            return state
        wanted = f"expected {expected_rule}" if expected_rule else "expected it to be legal"
        reason = f"{what} broke {exc.rule_id} ({exc.message}); {wanted}"
        raise _Outcome("fail", reason, line) from exc
    except MalformedEvent as exc:
        raise _Outcome("error", f"{what}: {exc.message}", line) from exc
    except EngineInvariantError as exc:
        reason = f"internal error in rules-oracle, please report: {what}: invariant broken: {exc}"
        raise _Outcome("internal_error", reason, line) from exc
    if expected_rule is not None:
        raise _Outcome("fail", f"{what} was legal; expected it to break {expected_rule}", line)
    return new_state


def _check_expect(loaded: LoadedScenario, game: Game, state: Any) -> None:
    expect = loaded.scenario.expect
    wrong: list[str] = []
    for path, value in (expect.state or {}).items():
        try:
            actual = to_json(paths.read(state, path))
        except paths.UnknownPath as exc:
            raise _Outcome("error", f"expect.state: {exc}") from exc
        if not json_equal(value, actual):
            wrong.append(f"{path}: expected {value!r}, reference has {actual!r}")
    if expect.to_act is not None and game.to_act(state) != expect.to_act:
        wrong.append(f"to_act: expected {expect.to_act}, reference has {game.to_act(state)}")
    if expect.over is not None and game.is_over(state) != expect.over:
        wrong.append(f"over: expected {expect.over}, reference has {game.is_over(state)}")
    if expect.result is not None:
        if not game.is_over(state):
            wrong.append("result: expected a finished game, but it is not over")
        else:
            result = game.result(state)
            if expect.result.scores is not None and expect.result.scores != result.scores:
                wrong.append(f"result.scores: expected {expect.result.scores}, got {result.scores}")
            if expect.result.winners is not None and expect.result.winners != result.winners:
                wrong.append(
                    f"result.winners: expected {list(expect.result.winners)}, "
                    f"got {list(result.winners)}"
                )
    if expect.legal is not None:
        wrong += _check_legal(game, state, expect.legal)
    if wrong:
        raise _Outcome("fail", "; ".join(wrong))


def _check_legal(game: Game, state: Any, expected: ExpectedLegal) -> list[str]:
    """Compare the reference's legal events with the expected count and members.

    An included event must be listed *and* apply; an excluded one must be neither listed nor
    applicable (it must break a rule), so the check holds even where an event's fields can
    be written in more than one order.
    """
    listed = game.legal_events(state)
    wrong = []
    if expected.count is not None and expected.count != len(listed):
        wrong.append(f"legal.count: expected {expected.count}, reference lists {len(listed)}")
    for which, events in (("includes", expected.includes), ("excludes", expected.excludes)):
        for i, raw in enumerate(events):
            try:
                event = structure_event(game, raw)
            except MalformedEvent as exc:
                raise _Outcome("error", f"expect.legal.{which}[{i}]: {exc.message}") from exc
            is_listed = event in listed
            applies = _applies(game, state, event)
            if which == "includes" and not (is_listed and applies):
                how = "is not listed" if applies else "breaks a rule"
                wrong.append(f"legal.includes: {raw} {how} here")
            if which == "excludes" and (is_listed or applies):
                how = "is listed" if is_listed else "applies"
                wrong.append(f"legal.excludes: {raw} {how} here")
    return wrong


def _applies(game: Game, state: Any, event: Any) -> bool:
    """Whether ``event`` applies here without breaking a rule."""
    try:
        step(game, state, event)
    except RuleViolation:
        return False
    return True


def run_all(paths_: list[Path], games: GameCache, game_filter: str | None) -> list[ScenarioResult]:
    """Run every scenario file; a duplicate id is an error on its later file."""
    from oracle.formats.scenario import scenario_files

    results: list[ScenarioResult] = []
    seen: dict[str, str] = {}
    for path in scenario_files(paths_):
        try:
            result = run_scenario(path, games)
        except Exception as exc:  # noqa: BLE001 - one file's crash never loses the others
            result = ScenarioResult(str(path), "internal_error", _our_bug(exc))
        if game_filter is not None and result.game not in (game_filter, None):
            continue
        if result.id is not None and result.id in seen:
            result = attrs.evolve(
                result, status="error", reason=f"id {result.id} is also used by {seen[result.id]}"
            )
        elif result.id is not None:
            seen[result.id] = result.path
        results.append(result)
    return results
