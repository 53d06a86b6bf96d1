"""Running scenario files: does this position and these steps give what the file expects?"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import attrs

from oracle.formats.converter import (
    assign,
    json_equal,
    structure_event,
    to_json,
    unstructure_event,
)
from oracle.formats.scenario import BadScenario, ExpectedLegal, LoadedScenario, load_scenario
from oracle.games import GameCache
from oracle.rulebook import find_rule, placeholder_keys
from reference.core import paths
from reference.core.errors import (
    BadOptions,
    EngineInvariantError,
    MalformedEvent,
    RuleViolation,
)
from reference.core.game import Game, player_names_ok, step

Status = Literal["pass", "fail", "error", "internal_error"]
LISTED_SHOWN = 12
"""A legal.count mismatch lists this many of the reference's events."""


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
    placeholder_rules: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        """The reason, by the name verdicts and JSON reports use."""
        return self.reason

    @property
    def file(self) -> str:
        """The scenario file, by the name verdicts and JSON reports use."""
        return self.path


class _Outcome(Exception):
    def __init__(self, status: Status, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.status: Status = status
        self.reason = reason
        self.line = line


StepHook = Callable[[str, int | None, dict[str, Any] | None, Any], None]
"""Called with (what, line, raw event or None, the reference state after it) at the setup,
each given event, the given state and each step."""


def run_scenario(path: Path, games: GameCache, on_state: StepHook | None = None) -> ScenarioResult:
    """Run one scenario file; never raises for a bad file or a failing expectation."""
    try:
        loaded = load_scenario(path)
    except BadScenario as exc:
        return ScenarioResult(str(path), "error", exc.reason, line=exc.line or None)
    sc = loaded.scenario
    base: dict[str, Any] = {"id": sc.id, "game": sc.game, "rules": sc.rules}
    try:
        game = games.get(sc.game, sc.options)
        basis, placeholder_rules = _basis(game, sc.rules)
        _run(loaded, game, on_state or _ignore)
    except _Outcome as out:
        return ScenarioResult(str(path), out.status, out.reason, line=out.line, **base)
    except BadOptions as exc:
        return ScenarioResult(str(path), "error", exc.message, **base)
    except Exception as exc:  # noqa: BLE001 - anything else is our bug, reported as ours
        where = traceback.extract_tb(exc.__traceback__)[-1]
        reason = (
            f"internal error in rules-oracle, please report: {type(exc).__name__}: {exc} "
            f"({Path(where.filename).name}:{where.lineno})"
        )
        return ScenarioResult(str(path), "internal_error", reason, **base)
    return ScenarioResult(
        str(path), "pass", "", placeholders=basis, placeholder_rules=placeholder_rules, **base
    )


def _basis(game: Game, rule_ids: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The placeholder data keys and the placeholder rules the cited rules rest on."""
    keys: list[str] = []
    placeholder_rules: list[str] = []
    for rule_id in rule_ids:
        rule = find_rule(game, rule_id)
        if rule is None:
            raise _Outcome("error", f"cites {rule_id}, which is in no {game.name} catalogue")
        keys += placeholder_keys(game, rule)
        if rule.status == "placeholder":
            placeholder_rules.append(rule.id)
    return tuple(dict.fromkeys(keys)), tuple(placeholder_rules)


def _ignore(what: str, line: int | None, raw: dict[str, Any] | None, state: Any) -> None:
    """The default step hook: nothing to do."""


def _run(loaded: LoadedScenario, game: Game, on_state: StepHook) -> None:
    sc = loaded.scenario
    problem = player_names_ok(sc.players, game.min_players, game.max_players)
    if problem:
        raise _Outcome("error", f"players: {problem}")
    state = game.new_game(sc.players)
    on_state("setup", None, None, state)
    for i, raw in enumerate(sc.given.events):
        line = _at(loaded.given_lines, i)
        state = _apply(game, state, raw, line, f"given event {i}", expected_rules=None)
        on_state(f"given event {i}", line, raw, state)
    if sc.given.state:
        try:
            state = assign(game, state, sc.given.state)
        except (paths.UnknownPath, MalformedEvent) as exc:
            raise _Outcome("error", f"given.state: {exc}") from exc
        unsound = position_failures(game, state)
        if unsound:
            raise _Outcome("error", f"given state unsound: {'; '.join(unsound)}")
        on_state("given state", None, None, state)
    illegal = sc.expect.illegal
    for i, raw in enumerate(sc.steps):
        line = _at(loaded.step_lines, i)
        expected = illegal.rules() if illegal is not None and illegal.step == i else None
        state = _apply(game, state, raw, line, f"step {i}", expected_rules=expected)
        on_state(f"step {i}", line, raw, state)
        if expected is not None:
            return
    _check_expect(loaded, game, state)


def position_failures(game: Game, state: Any) -> list[str]:
    """Why a hand-written position is unsound: the game's invariants, or its stricter
    ``position_failures`` where it has one (what play from the setup always keeps)."""
    stricter = getattr(game, "position_failures", None)
    failures: list[str] = stricter(state) if callable(stricter) else game.invariant_failures(state)
    return failures


def _at(lines: tuple[int, ...], i: int) -> int | None:
    return lines[i] if i < len(lines) else None


def _apply(
    game: Game,
    state: Any,
    raw: dict[str, Any],
    line: int | None,
    what: str,
    expected_rules: tuple[str, ...] | None,
) -> Any:
    try:
        event = structure_event(game, raw)
    except MalformedEvent as exc:
        raise _Outcome("error", f"{what}: {exc.message}", line) from exc
    try:
        new_state = step(game, state, event)
    except RuleViolation as exc:
        if expected_rules and exc.rule_id in expected_rules:
            return state
        wanted = (
            f"expected {' or '.join(expected_rules)}"
            if expected_rules
            else "expected it to be legal"
        )
        reason = f"{what} broke {exc.rule_id} ({exc.message}); {wanted}"
        raise _Outcome("fail", reason, line) from exc
    except MalformedEvent as exc:
        raise _Outcome("error", f"{what}: {exc.message}", line) from exc
    except EngineInvariantError as exc:
        reason = f"internal error in rules-oracle, please report: {what}: invariant broken: {exc}"
        raise _Outcome("internal_error", reason, line) from exc
    if expected_rules:
        wanted = " or ".join(expected_rules)
        raise _Outcome("fail", f"{what} was legal; expected it to break {wanted}", line)
    return new_state


def _check_expect(loaded: LoadedScenario, game: Game, state: Any) -> None:
    expect = loaded.scenario.expect
    wrong: list[tuple[str, int | None]] = []
    for key, unordered in (("state", False), ("state_unordered", True)):
        for path, value in (getattr(expect, key) or {}).items():
            line = loaded.expect_lines.get(f"{key}.{path}")
            try:
                actual = to_json(paths.read(state, path))
            except paths.UnknownPath as exc:
                raise _Outcome("error", f"expect.{key}: {exc}", line) from exc
            same = (
                json_equal(_sorted(value), _sorted(actual))
                if unordered
                else json_equal(value, actual)
            )
            if not same:
                wrong.append(
                    (f"{path}: expected {_shown(value)}, reference has {_shown(actual)}", line)
                )
    line = loaded.expect_lines.get("to_act")
    if expect.to_act is not None and game.to_act(state) != expect.to_act:
        wrong.append(
            (f"to_act: expected {expect.to_act}, reference has {game.to_act(state)}", line)
        )
    line = loaded.expect_lines.get("over")
    if expect.over is not None and game.is_over(state) != expect.over:
        wrong.append((f"over: expected {expect.over}, reference has {game.is_over(state)}", line))
    line = loaded.expect_lines.get("result")
    if expect.result is not None:
        if not game.is_over(state):
            wrong.append(("result: expected a finished game, but it is not over", line))
        else:
            result = game.result(state)
            if expect.result.scores is not None and expect.result.scores != result.scores:
                wrong.append(
                    (
                        f"result.scores: expected {_shown(expect.result.scores)}, "
                        f"reference has {_shown(result.scores)}",
                        line,
                    )
                )
            if expect.result.winners is not None and expect.result.winners != result.winners:
                wrong.append(
                    (
                        f"result.winners: expected {_shown(expect.result.winners)}, "
                        f"reference has {_shown(result.winners)}",
                        line,
                    )
                )
    if expect.legal is not None:
        line = loaded.expect_lines.get("legal")
        wrong += [(reason, line) for reason in _check_legal(game, state, expect.legal)]
    if wrong:
        raise _Outcome("fail", "; ".join(reason for reason, _ in wrong), wrong[0][1])


def _shown(value: Any) -> str:
    """A value as JSON text, as validate prints values."""
    return json.dumps(to_json(value))


def _sorted(value: Any) -> Any:
    """``value`` with every list put in one canonical order (for order-free comparison)."""
    if isinstance(value, dict):
        return {k: _sorted(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [_sorted(v) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    return value


def _check_legal(game: Game, state: Any, expected: ExpectedLegal) -> list[str]:
    """Compare the reference's legal events with the expected count and members.

    An included event must be listed *and* apply; an excluded one must be neither listed nor
    applicable (it must break a rule), so the check holds even where an event's fields can
    be written in more than one order.
    """
    listed = game.legal_events(state)
    wrong = []
    if expected.count is not None and expected.count != len(listed):
        shown = ", ".join(_shown(unstructure_event(e)) for e in listed[:LISTED_SHOWN])
        more = f" and {len(listed) - LISTED_SHOWN} more" if len(listed) > LISTED_SHOWN else ""
        wrong.append(
            f"legal.count: expected {expected.count}, reference lists {len(listed)}: "
            f"{shown or 'nothing'}{more}"
        )
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
                wrong.append(f"legal.includes: {_shown(raw)} {how} here")
            if which == "excludes" and (is_listed or applies):
                how = "is listed" if is_listed else "applies"
                wrong.append(f"legal.excludes: {_shown(raw)} {how} here")
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
        result = run_scenario(path, games)
        if game_filter is not None and result.game not in (game_filter, None):
            continue
        if result.id is not None and result.id in seen:
            own = f"{result.status}: {result.reason}" if result.reason else result.status
            result = attrs.evolve(
                result,
                status="error",
                reason=f"id {result.id} is also used by {seen[result.id]} (its own check: {own})",
            )
        elif result.id is not None:
            seen[result.id] = result.path
        results.append(result)
    return results
