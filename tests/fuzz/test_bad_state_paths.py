"""State paths have one grammar: a digit-like segment names nothing, in a claim (malformed)
or a scenario (ERROR), never a ValueError of ours.

Reproducers of a fuzz run, each failing on the code before its fix. Each bad input must
end as the user's problem: a verdict naming the file and line, an ERROR result, or a usage
error (exit 2); never exit 3, never a lost report (expected exit codes: docs/cli.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bad_input import SETUP, played, runner, validate_json, with_claim, write_log

from oracle.games import GameCache
from oracle.scenarios import run_scenario
from reference.core import paths
from rules_oracle_cli.cli import app


@pytest.mark.parametrize("path", ["players.²", "players.--1", "seats.²", "seats.--1", "seats.+1"])
def test_digit_like_segments_name_nothing(path: str) -> None:
    state = {"players": {"red": 1, 2: "two"}, "seats": ("red", "blue")}
    with pytest.raises(paths.UnknownPath):
        paths.read(state, path)


def test_the_grammar_reads_plain_digits_as_numbers() -> None:
    state = {"players": {"red": 1, 2: "two", -1: "minus"}, "seats": ("red", "blue")}
    assert [paths.read(state, p) for p in ("seats.1", "players.2", "players.-1")] == [
        "blue",
        "two",
        "minus",
    ]
    assert paths.segments("a.b.0") == ("a", "b", "0")
    for bad in ("", "a..b", ".a", "x" * 1001, ".".join("a" * 65)):
        with pytest.raises(paths.UnknownPath):
            paths.segments(bad)


@pytest.mark.parametrize(
    ("game", "path"),
    [("milestones", "players.²"), ("milestones", "players.--1"), ("pillars", "seats.²")],
)
def test_a_digit_like_claim_is_malformed_not_internal(tmp_path: Path, game: str, path: str) -> None:
    lines = list(played(game)[:3])
    lines[1] = with_claim(lines[1], path, 1)
    code, (verdict,) = validate_json(str(write_log(tmp_path, lines)))
    assert (code, verdict["status"], verdict["line"]) == (1, "malformed", 2)
    assert path in verdict["message"]


def test_a_digit_like_path_in_a_scenario_is_an_error(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        SETUP.read_text().replace("steps: []", "given:\n  state: {players.²: 1}\nsteps: []")
    )
    result = run_scenario(scenario, GameCache())
    assert result.status == "error"
    cli = runner.invoke(app, ["scenarios", str(scenario)])
    assert cli.exit_code == 1
    assert cli.stdout.startswith("ERROR ")
