"""A field the formats give as a JSON array takes only an array (and one they give as an
object, only an object).

cattrs structures a tuple or list field from any iterable by default, so a string stood
for the tuple of its letters and an object for the tuple of its keys: a Municipium
``move_member`` whose path was an object with the institutions as keys replayed as a
valid move, and a scenario with ``players: ab`` ran with players ``a`` and ``b``. Both
are malformed by the formats (docs/formats.md: ``path`` and ``players`` are lists).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import cattrs
import pytest

from oracle.formats.converter import CONVERTER, QUICK_CONVERTER, describe
from oracle.formats.scenario import BadScenario, load_scenario
from oracle.games import GameCache
from oracle.play import play_lines
from oracle.replay import validate_log

SCENARIO = Path(__file__).resolve().parents[2] / (
    "scenarios/milestones/CORE-END-01-milestones-nothing-after-the-end.yaml"
)


def municipium_log_with_path(tmp_path: Path, path: object) -> tuple[Path, int]:
    """A whole seeded Municipium play-out whose first ``move_member`` gives ``path``
    instead of its list of institutions; the line number of that event."""
    lines = list(play_lines(GameCache().get("municipium", {}), ("red", "blue"), 3, {}))
    number = next(i for i, line in enumerate(lines) if '"move_member"' in line)
    record = json.loads(lines[number])
    record["path"] = path(record["path"]) if callable(path) else path
    lines[number] = json.dumps(record)
    log = tmp_path / "m.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return log, number + 1


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (lambda p: dict.fromkeys(p, 1), "got dict"),  # was valid: the keys, in order
        (lambda p: "".join(p), "got str"),  # was "'t' is not an institution"
        (lambda p: p[0], "got str"),
    ],
)
def test_a_path_that_is_not_a_list_is_malformed(tmp_path: Path, given: object, said: str) -> None:
    log, line = municipium_log_with_path(tmp_path, given)
    verdict = validate_log(log, GameCache())
    assert (verdict.kind, verdict.line) == ("malformed", line)
    assert f"bad 'move_member' event: expected a list, {said}" in verdict.message
    assert verdict.message.endswith("@ $.path")


def test_the_same_log_with_the_path_as_a_list_is_valid(tmp_path: Path) -> None:
    log, _ = municipium_log_with_path(tmp_path, list)
    assert validate_log(log, GameCache()).kind == "valid"


def test_a_scenario_whose_players_are_a_string_is_refused(tmp_path: Path) -> None:
    text = SCENARIO.read_text(encoding="utf-8")
    assert "\nplayers: [a, b]\n" in text
    bad = tmp_path / "s.yaml"
    bad.write_text(text.replace("\nplayers: [a, b]\n", "\nplayers: ab\n"), encoding="utf-8")
    load_scenario(SCENARIO)  # the scenario as written loads
    with pytest.raises(BadScenario) as caught:
        load_scenario(bad)
    assert "expected a list, got str 'ab'" in str(caught.value)


@pytest.mark.parametrize("converter", [CONVERTER, QUICK_CONVERTER])
@pytest.mark.parametrize("kind", [tuple[str, ...], list[str], tuple[str, ...] | None])
def test_both_converters_take_arrays_only(converter: cattrs.Converter, kind: Any) -> None:
    expected = ["a", "b"] if kind == list[str] else ("a", "b")
    assert converter.structure(["a", "b"], kind) == expected
    for value in ("ab", {"a": 1, "b": 2}, {"a", "b"}):
        with pytest.raises((TypeError, cattrs.BaseValidationError)) as caught:
            converter.structure(value, kind)
        assert "expected a list" in describe(caught.value)


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ("\nexpect:\n", "expected an object, got list [1] @ $.expect"),
        ("\ngiven:\n", "expected an object, got list [1] @ $.given"),
    ],
)
def test_a_scenario_section_that_is_not_an_object_is_refused(
    tmp_path: Path, edit: str, said: str
) -> None:
    # cattrs said "unknown error ('list' object has no attribute 'keys')"
    text = SCENARIO.read_text(encoding="utf-8")
    assert edit in text
    bad = tmp_path / "s.yaml"
    bad.write_text(text.replace(edit, edit.rstrip("\n") + " [1]\nleftover:\n"), encoding="utf-8")
    with pytest.raises(BadScenario) as caught:
        load_scenario(bad)
    assert said in str(caught.value)


def test_a_long_value_is_shown_cut_short() -> None:
    with pytest.raises(cattrs.BaseValidationError) as caught:
        CONVERTER.structure({"players": "x" * 10_000}, Holder)
    # repr is quote + 10,000 x + quote; its first 77 characters are the quote and 76 x
    (message,) = describe(caught.value).split("; ")
    assert message == "expected a list, got str '" + "x" * 76 + "... @ $.players"


@attrs.frozen
class Holder:
    players: tuple[str, ...]
