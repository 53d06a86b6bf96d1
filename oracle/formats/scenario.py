"""Scenario format v1 (YAML): one rule question per file. See docs/formats.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import cattrs
import yaml

from oracle.formats.converter import CONVERTER, describe
from reference.core import yamlfile

BUNDLED_SCENARIOS = Path(__file__).resolve().parent.parent / "scenario_suite"
"""The scenario suite that comes with rules-oracle (the repository's ``scenarios/``, shipped
inside the package): the default wherever a command or the pytest plugin runs scenarios."""
MAX_SCENARIO_BYTES = 2_000_000
MAX_LISTED_EVENTS = 1_000
"""``expect.legal`` names at most this many events (includes and excludes together)."""


class BadScenario(Exception):
    """A scenario file cannot be read; ``line`` is 0 when no line applies."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@attrs.frozen
class Illegal:
    """The step (counted from 0) that must break a rule, and which rule: ``rule``, or any
    one of ``any_of`` where the rules agree the step is illegal but not on which rule."""

    step: int
    rule: str | None = None
    any_of: tuple[str, ...] = ()

    def rules(self) -> tuple[str, ...]:
        """Every rule the step may break."""
        return (self.rule,) if self.rule is not None else self.any_of


@attrs.frozen
class ExpectedResult:
    """Scores and/or winners of a finished game."""

    scores: dict[str, int] | None = None
    winners: tuple[str, ...] | None = None


@attrs.frozen
class ExpectedLegal:
    """What the legal events after the steps are: how many, which are and are not among them."""

    count: int | None = None
    includes: tuple[dict[str, Any], ...] = ()
    excludes: tuple[dict[str, Any], ...] = ()


@attrs.frozen
class Expect:
    """Either ``illegal``, or any of the legal-outcome checks."""

    illegal: Illegal | None = None
    state: dict[str, Any] | None = None
    state_unordered: dict[str, Any] | None = None
    to_act: str | None = None
    over: bool | None = None
    result: ExpectedResult | None = None
    legal: ExpectedLegal | None = None


@attrs.frozen
class Given:
    """A log prefix from the standard setup, then values set by state path."""

    events: tuple[dict[str, Any], ...] = ()
    state: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class Scenario:
    """One rule question: position, steps, expectation, citations."""

    id: str
    game: str
    rules: tuple[str, ...]
    source: str
    description: str
    players: tuple[str, ...]
    expect: Expect
    options: dict[str, Any] = attrs.field(factory=dict)
    given: Given = Given()
    steps: tuple[dict[str, Any], ...] = ()


@attrs.frozen
class LoadedScenario:
    """A scenario with the line of each given event and each step, for messages."""

    path: Path
    scenario: Scenario
    given_lines: tuple[int, ...]
    step_lines: tuple[int, ...]
    expect_lines: dict[str, int] = attrs.field(factory=dict)
    """Line of each expectation: ``to_act``, ``legal``..., and ``state.<path>``."""


def load_scenario(path: Path) -> LoadedScenario:
    """Read and check one scenario file; raises BadScenario with a line where one applies."""
    try:
        if path.stat().st_size > MAX_SCENARIO_BYTES:
            raise BadScenario(0, f"file larger than {MAX_SCENARIO_BYTES} bytes")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadScenario(0, f"cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise BadScenario(0, f"not UTF-8 text (byte {exc.start})") from exc
    try:
        node = yamlfile.compose(text)
        raw = yamlfile.load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        problem = getattr(exc, "problem", None) or str(exc)
        raise BadScenario(line, f"not valid YAML: {' '.join(str(problem).split())}") from exc
    if not isinstance(raw, dict):
        raise BadScenario(1, "a scenario is a YAML mapping")
    try:
        scenario = CONVERTER.structure(raw, Scenario)
    except (cattrs.BaseValidationError, TypeError, ValueError) as exc:
        raise BadScenario(_line_of_error(node, exc), describe(exc)) from exc
    expect = scenario.expect
    checks = (
        expect.state,
        expect.state_unordered,
        expect.to_act,
        expect.over,
        expect.result,
        expect.legal,
    )
    if expect.illegal is None and all(c is None for c in checks):
        raise BadScenario(
            _line(node, "expect"),
            "expect needs illegal, or state/state_unordered/to_act/over/result/legal",
        )
    if expect.illegal is not None and any(c is not None for c in checks):
        raise BadScenario(_line(node, "expect"), "expect.illegal cannot be combined with checks")
    if expect.illegal is not None and not 0 <= expect.illegal.step < len(scenario.steps):
        raise BadScenario(_line(node, "expect"), "expect.illegal.step names no step")
    listed = expect.legal.includes + expect.legal.excludes if expect.legal else ()
    if len(listed) > MAX_LISTED_EVENTS:
        raise BadScenario(
            _line(node, "expect"), f"expect.legal names more than {MAX_LISTED_EVENTS} events"
        )
    if expect.illegal is not None and (expect.illegal.rule is None) == (not expect.illegal.any_of):
        raise BadScenario(_line(node, "expect"), "expect.illegal needs rule or any_of (not both)")
    if expect.illegal is not None and not set(expect.illegal.rules()) <= set(scenario.rules):
        raise BadScenario(_line(node, "rules"), "rules must cite every rule expect.illegal names")
    return LoadedScenario(
        path,
        scenario,
        _item_lines(node, "given", "events"),
        _item_lines(node, "steps"),
        _expect_lines(node),
    )


def _expect_lines(node: yaml.Node | None) -> dict[str, int]:
    """The line of each key under ``expect``, and of each path under its state checks."""
    lines: dict[str, int] = {}
    expect = _value(node, "expect")
    if not isinstance(expect, yaml.MappingNode):
        return lines
    for key, value in expect.value:
        if not isinstance(key, yaml.ScalarNode):
            continue
        lines[key.value] = key.start_mark.line + 1
        if key.value in ("state", "state_unordered") and isinstance(value, yaml.MappingNode):
            for path, _ in value.value:
                if isinstance(path, yaml.ScalarNode):
                    lines[f"{key.value}.{path.value}"] = path.start_mark.line + 1
    return lines


def _value(node: yaml.Node | None, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key and isinstance(v, yaml.Node):
                return v
    return None


def _line(node: yaml.Node | None, key: str) -> int:
    found = _value(node, key)
    return found.start_mark.line + 1 if found is not None else 1


def _item_lines(node: yaml.Node | None, *keys: str) -> tuple[int, ...]:
    for key in keys:
        node = _value(node, key)
    if isinstance(node, yaml.SequenceNode):
        return tuple(item.start_mark.line + 1 for item in node.value)
    return ()


def _line_of_error(node: yaml.Node | None, exc: BaseException) -> int:
    """The line of the top-level key the first structuring error is under."""
    messages = describe(exc)
    if "@ $." in messages:
        key = messages.split("@ $.", 1)[1].split(".")[0].split("[")[0].split(";")[0].strip()
        return _line(node, key)
    return 1


def scenario_files(paths: list[Path]) -> list[Path]:
    """Every scenario file under ``paths`` (files as given, folders searched), sorted."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml"))
        else:
            found.append(path)
    return found
