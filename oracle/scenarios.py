"""Running scenario files: does this position and these steps give what the file expects?"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import attrs

from oracle.formats.converter import json_equal, structure_event, to_json, unstructure_event
from oracle.formats.scenario import (
    BadScenario,
    ExpectedLegal,
    ExpectedResult,
    LoadedScenario,
    Scenario,
    load_scenario,
)
from oracle.games import GameCache
from oracle.protocol import Driver, EngineError, EngineFault
from oracle.rulebook import find_rule, placeholder_keys
from reference.core.errors import BadOptions, MalformedEvent
from reference.core.game import Game, player_names_ok

if TYPE_CHECKING:
    from oracle.corpus import Settings as CorpusSettings

Status = Literal["pass", "fail", "error", "internal_error", "skipped"]
LISTED_SHOWN = 12
"""A legal.count mismatch lists this many of the reference's events."""


@attrs.frozen
class ScenarioResult:
    """The outcome of one scenario file. ``error``: the file itself is unusable. ``needs``:
    the engine protocol capabilities an engine needs to run it; ``skipped``: the engine
    under test lacks one. ``notes``: soft findings (another rule id than ours)."""

    path: str
    status: Status
    reason: str = ""
    id: str | None = None
    game: str | None = None
    rules: tuple[str, ...] = ()
    line: int | None = None
    placeholders: tuple[str, ...] = ()
    placeholder_rules: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

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
"""Called with (what, line, raw event or None, our position after it as JSON data) at the
setup, each given event, the given state and each step (the HTML replay draws them)."""


def needs(sc: Scenario) -> tuple[str, ...]:
    """The capabilities beyond the basic operations that running ``sc`` takes."""
    wanted = []
    if sc.given.state:
        wanted.append("set_state")
    if sc.expect.state or sc.expect.state_unordered:
        wanted.append("state")
    if sc.expect.legal is not None:
        wanted.append("legal")
    return tuple(wanted)


def run_scenario(
    path: Path,
    games: GameCache,
    on_state: StepHook | None = None,
    *,
    driver: Driver | None = None,
    strict_rules: bool = False,
) -> ScenarioResult:
    """Run one scenario file on our engine, or through ``driver`` (an engine under test);
    never raises for a bad file or a failing expectation. A fault of the engine under test
    (EngineFault) propagates to the caller. ``on_state`` sees our position on the way (only
    when the engine is ours)."""
    try:
        loaded = load_scenario(path)
    except BadScenario as exc:
        return ScenarioResult(str(path), "error", exc.reason, line=exc.line or None)
    sc = loaded.scenario
    base: dict[str, Any] = {"id": sc.id, "game": sc.game, "rules": sc.rules, "needs": needs(sc)}
    # Imported here: our engine's driver is built on the public API, which imports this module.
    from oracle.refengine import LocalEngine

    run = _Run(loaded, driver or LocalEngine(games=games), strict_rules, on_state or _ignore)
    try:
        game = games.get(sc.game, sc.options)
        basis, placeholder_rules = _basis(game, sc.rules)
        missing = [c for c in base["needs"] if c not in run.engine.capabilities]
        if missing:
            reason = f"the engine lacks {', '.join(missing)}"
            return ScenarioResult(str(path), "skipped", reason, **base)
        run.run(game)
    except _Outcome as out:
        return ScenarioResult(
            str(path), out.status, out.reason, line=out.line, notes=tuple(run.notes), **base
        )
    except BadOptions as exc:
        return ScenarioResult(str(path), "error", exc.message, **base)
    except EngineFault:
        raise
    except Exception as exc:  # noqa: BLE001 - anything else is our bug, reported as ours
        return ScenarioResult(str(path), "internal_error", _our_bug(exc), **base)
    return ScenarioResult(
        str(path),
        "pass",
        "",
        placeholders=basis,
        placeholder_rules=placeholder_rules,
        notes=tuple(run.notes),
        **base,
    )


def _our_bug(exc: Exception) -> str:
    """The reason given for a crash of ours: the exception and where it was raised."""
    where = traceback.extract_tb(exc.__traceback__)[-1]
    text = " ".join(f"{type(exc).__name__}: {exc}".split())[:500]
    return (
        f"internal error in rules-oracle, please report: {text} "
        f"({Path(where.filename).name}:{where.lineno})"
    )


def run_guarded(
    path: Path, games: GameCache, driver: Driver | None = None, strict_rules: bool = False
) -> ScenarioResult:
    """``run_scenario``, and a crash of ours is that file's internal error: one file's crash
    never loses the other files' results (an engine under test's fault still propagates)."""
    try:
        return run_scenario(path, games, driver=driver, strict_rules=strict_rules)
    except EngineFault:
        raise
    except Exception as exc:  # noqa: BLE001 - our bug, reported as ours, on this file alone
        return ScenarioResult(str(path), "internal_error", _our_bug(exc))


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


class _Run:
    """One scenario on one engine. The file is checked against our rule set (its events must
    be ones the game knows); the engine's answers are then checked against the file. What
    the engine cannot do is the file's fault on our engine, the engine's fault on another."""

    def __init__(
        self, loaded: LoadedScenario, engine: Driver, strict_rules: bool, on_state: StepHook
    ) -> None:
        self.loaded = loaded
        self.engine = engine
        self.strict_rules = strict_rules
        self.on_state = on_state
        self.notes: list[str] = []
        self.cannot: Status = "error" if engine.reference else "fail"
        self.whose = "ours" if engine.reference else "the engine's"
        """Whose answer a reason quotes: our engine's, or the engine under test's."""
        self.lister = "ours lists" if engine.reference else "the engine lists"

    def run(self, game: Game) -> None:
        loaded, engine = self.loaded, self.engine
        sc = loaded.scenario
        problem = player_names_ok(sc.players, game.min_players, game.max_players)
        if problem:
            raise _Outcome("error", f"players: {problem}")
        try:
            engine.new_game(sc.game, sc.players, sc.options)
        except EngineError as exc:
            raise _Outcome(self.cannot, f"new_game: {exc.message}") from exc
        self.seen("setup", None, None)
        for i, raw in enumerate(sc.given.events):
            line = _at(loaded.given_lines, i)
            self.apply(game, raw, line, f"given event {i}", None)
            self.seen(f"given event {i}", line, raw)
        if sc.given.state:
            try:
                engine.set_state(sc.given.state)
            except EngineError as exc:
                raise _Outcome(self.cannot, f"given.state: {exc.message}") from exc
            self.seen("given state", None, None)
        illegal = sc.expect.illegal
        for i, raw in enumerate(sc.steps):
            line = _at(loaded.step_lines, i)
            expected = illegal.rules() if illegal is not None and illegal.step == i else None
            self.apply(game, raw, line, f"step {i}", expected)
            self.seen(f"step {i}", line, raw)
            if expected is not None:
                return
        self.check_expect(game)

    def seen(self, what: str, line: int | None, raw: dict[str, Any] | None) -> None:
        """Show the step hook our position (an engine under test's is not ours to show)."""
        from oracle.refengine import LocalEngine

        if self.on_state is not _ignore and isinstance(self.engine, LocalEngine):
            self.on_state(what, line, raw, self.engine.position.to_json())

    def apply(
        self,
        game: Game,
        raw: dict[str, Any],
        line: int | None,
        what: str,
        expected_rules: tuple[str, ...] | None,
    ) -> None:
        try:
            structure_event(game, raw)
        except MalformedEvent as exc:
            raise _Outcome("error", f"{what}: {exc.message}", line) from exc
        try:
            refused = self.engine.apply(raw)
        except EngineError as exc:
            raise _Outcome(self.cannot, f"{what}: {exc.message}", line) from exc
        if refused is not None:
            if expected_rules and refused.rule in expected_rules:
                return
            wanted = (
                f"expected {' or '.join(expected_rules)}"
                if expected_rules
                else "expected it to be legal"
            )
            reason = f"{what} broke {refused.rule_named} ({refused.message}); {wanted}"
            if expected_rules and not (self.engine.reference or self.strict_rules):
                self.notes.append(reason)  # refused all the same: another rule id is soft
                return
            raise _Outcome("fail", reason, line)
        if expected_rules:
            wanted = " or ".join(expected_rules)
            raise _Outcome("fail", f"{what} was legal; expected it to break {wanted}", line)

    def check_expect(self, game: Game) -> None:
        loaded, engine = self.loaded, self.engine
        expect = loaded.scenario.expect
        wrong: list[tuple[str, int | None]] = []
        for key, unordered in (("state", False), ("state_unordered", True)):
            wanted = getattr(expect, key) or {}
            values = engine.state(list(wanted)) if wanted else {}
            for path, value in wanted.items():
                line = loaded.expect_lines.get(f"{key}.{path}")
                if path not in values:
                    if engine.reference:
                        reason = f"expect.{key}: state path {path!r} names nothing"
                        raise _Outcome("error", reason, line)
                    wrong.append((f"{path}: the engine does not answer it", line))
                    continue
                actual = values[path]
                same = (
                    json_equal(_sorted(value), _sorted(actual))
                    if unordered
                    else json_equal(value, actual)
                )
                if not same:
                    wrong.append(
                        (f"{path}: expected {_shown(value)}, {self.whose} {_shown(actual)}", line)
                    )
        actor, over = engine.to_act()
        line = loaded.expect_lines.get("to_act")
        if expect.to_act is not None and actor != expect.to_act:
            wrong.append((f"to_act: expected {expect.to_act}, {self.whose} {actor}", line))
        line = loaded.expect_lines.get("over")
        if expect.over is not None and over != expect.over:
            wrong.append((f"over: expected {expect.over}, {self.whose} {over}", line))
        line = loaded.expect_lines.get("result")
        if expect.result is not None:
            wrong += [(reason, line) for reason in self.check_result(expect.result, over)]
        if expect.legal is not None:
            line = loaded.expect_lines.get("legal")
            wrong += [(reason, line) for reason in self.check_legal(game, expect.legal)]
        if wrong:
            raise _Outcome("fail", "; ".join(reason for reason, _ in wrong), wrong[0][1])

    def check_result(self, expected: ExpectedResult, over: bool) -> list[str]:
        if not over:
            return ["result: expected a finished game, but it is not over"]
        scores, winners = self.engine.result()
        wrong = []
        if expected.scores is not None and not json_equal(expected.scores, scores):
            wrong.append(
                f"result.scores: expected {_shown(expected.scores)}, {self.whose} {_shown(scores)}"
            )
        if expected.winners is not None and list(expected.winners) != winners:
            wrong.append(
                f"result.winners: expected {_shown(expected.winners)}, "
                f"{self.whose} {_shown(winners)}"
            )
        return wrong

    def check_legal(self, game: Game, expected: ExpectedLegal) -> list[str]:
        """Compare the engine's legal events with the expected count and members.

        An included event must be listed *and* apply; an excluded one must be neither listed
        nor applicable (it must break a rule), so the check holds even where an event's
        fields can be written in more than one order.
        """
        listed_events = self.engine.legal()
        listed = {canonical(e) for e in listed_events}
        wrong = []
        if expected.count is not None and expected.count != len(listed_events):
            shown = ", ".join(_shown(e) for e in listed_events[:LISTED_SHOWN])
            extra = len(listed_events) - LISTED_SHOWN
            more = f" and {extra} more" if extra > 0 else ""
            wrong.append(
                f"legal.count: expected {expected.count}, {self.lister} "
                f"{len(listed_events)}: {shown or 'nothing'}{more}"
            )
        for which, events in (("includes", expected.includes), ("excludes", expected.excludes)):
            for i, raw in enumerate(events):
                try:
                    event = unstructure_event(structure_event(game, raw))
                except MalformedEvent as exc:
                    raise _Outcome("error", f"expect.legal.{which}[{i}]: {exc.message}") from exc
                is_listed = canonical(event) in listed
                try:
                    applies = self.engine.probe(event) is None
                except EngineError as exc:  # it names what the game does not have
                    if self.engine.reference:
                        where = f"expect.legal.{which}[{i}]"
                        raise _Outcome("error", f"{where}: {exc.message}") from exc
                    applies = False  # the engine under test refused it with an error
                if which == "includes" and not (is_listed and applies):
                    how = "is not listed" if applies else "breaks a rule"
                    wrong.append(f"legal.includes: {_shown(raw)} {how} here")
                if which == "excludes" and (is_listed or applies):
                    how = "is listed" if is_listed else "applies"
                    wrong.append(f"legal.excludes: {_shown(raw)} {how} here")
        return wrong


def canonical(event: Mapping[str, Any]) -> str:
    """An event as text that is equal for equal events (keys sorted), to compare sets."""
    return json.dumps(event, sort_keys=True)


def _at(lines: tuple[int, ...], i: int) -> int | None:
    return lines[i] if i < len(lines) else None


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


def run_all(
    paths_: list[Path],
    games: GameCache,
    game_filter: str | None,
    driver: Driver | None = None,
    strict_rules: bool = False,
    jobs: int = 1,
) -> list[ScenarioResult]:
    """Run every scenario file, on our engine (over ``jobs`` processes) or through
    ``driver`` (one engine under test, in order); a duplicate id is an error on its later
    file."""
    from oracle.corpus import Settings, run_local
    from oracle.formats.scenario import scenario_files

    results: list[ScenarioResult] = []
    seen: dict[str, str] = {}
    found: Iterable[ScenarioResult]
    if driver is None:
        names = (str(path) for path in scenario_files(paths_))
        found = run_local(scenario_batch, names, Settings(games.profile, games.options), jobs)
    else:
        found = (run_guarded(path, games, driver, strict_rules) for path in scenario_files(paths_))
    for result in found:
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


def scenario_batch(names: list[str], settings: CorpusSettings, games: GameCache) -> list[Any]:
    """Results of a batch of scenario files, in order (a batch's work for oracle.corpus)."""
    return [run_guarded(Path(name), games) for name in names]
