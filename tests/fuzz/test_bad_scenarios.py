"""A bad scenario is the scenario's ERROR: a given state that does not fit, keys that are not
text, an unknown card, legal events listed without an end; one crashing file loses no other.

Reproducers of a fuzz run, each failing on the code before its fix. Each bad input must
end as the user's problem: a verdict naming the file and line, an ERROR result, or a usage
error (exit 2); never exit 3, never a lost report (expected exit codes: docs/cli.md)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from bad_input import SETUP
from fuzz_inputs import ROOT

from oracle.games import GameCache
from oracle.scenarios import run_all, run_scenario


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("{bag: 5, bag.soldier: 2}", "overlaps 'bag'"),
        ("{bag.soldier: {a: 1}}", "expected int"),
        ("{bag: [soldier]}", "expected a mapping"),
        ("{players.a: 5, players.a.wreaths: 1}", "overlaps 'players.a'"),
    ],
)
def test_bad_given_state_is_an_error(tmp_path: Path, given: str, reason: str) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        SETUP.read_text().replace("steps: []", f"given:\n  state: {given}\nsteps: []")
    )
    result = run_scenario(scenario, GameCache())
    assert result.status == "error"
    assert reason in result.reason


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ("1: 2", "extra fields found (1)"),
        ("true: 2", "extra fields found (True)"),
        ("options: {profile: {1: a, b: 2}}", "key 1 is not a data key"),
    ],
)
def test_keys_that_are_not_text_are_errors(tmp_path: Path, extra: str, reason: str) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SETUP.read_text() + extra + "\n")
    result = run_scenario(scenario, GameCache())
    assert result.status == "error"
    assert reason in result.reason


def test_a_given_state_the_invariant_check_cannot_read_is_an_error(tmp_path: Path) -> None:
    source = ROOT / "scenarios/pillars/PIL-ADV-08-tax-exemption-is-a-held-card.yaml"
    scenario = tmp_path / "s.yaml"
    scenario.write_text(source.read_text().replace("  state:\n", "  state:\n    market: {}\n", 1))
    result = run_scenario(scenario, GameCache())
    assert result.status == "error"
    assert "given state unsound: the invariant check cannot read it" in result.reason


def test_an_unknown_card_in_a_given_state_is_an_error(tmp_path: Path) -> None:
    source = ROOT / "scenarios/pillars/PIL-ADV-08-tax-exemption-is-a-held-card.yaml"
    scenario = tmp_path / "s.yaml"
    scenario.write_text(source.read_text().replace("    - tax_exemption\n", "    - zz\n"))
    result = run_scenario(scenario, GameCache())
    assert result.status == "error"
    assert "'zz' is no card of this game" in result.reason


def test_a_scenario_may_not_list_legal_events_without_end(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    many = "\n".join(
        ["    excludes:", "    - &e {type: draw_citizen, kind: soldier}"] + ["    - *e"] * 1000
    )
    scenario.write_text(SETUP.read_text() + "  legal:\n" + many + "\n")
    started = time.monotonic()
    result = run_scenario(scenario, GameCache())
    assert (result.status, "more than 1000 events" in result.reason) == ("error", True)
    assert time.monotonic() - started < 5


def test_one_crashing_scenario_file_loses_no_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from oracle import scenarios

    (tmp_path / "a.yaml").write_text(SETUP.read_text())
    (tmp_path / "b.yaml").write_text(SETUP.read_text().replace("id: MUN-", "id: B-MUN-"))
    real = scenarios.load_scenario

    def crash_on_a(path: Path) -> Any:
        if path.name == "a.yaml":
            raise RuntimeError("injected")
        return real(path)

    monkeypatch.setattr(scenarios, "load_scenario", crash_on_a)
    results = run_all([tmp_path], GameCache(), None)
    assert [r.status for r in results] == ["internal_error", "pass"]
    assert "internal error in rules-oracle" in results[0].reason
