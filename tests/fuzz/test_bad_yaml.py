"""YAML read as the JSON subset: aliases bounded (a bomb or a cycle is a quick error), tags
refused, a bare date stays text; the run goes on past a bad file.

Reproducers of a fuzz run, each failing on the code before its fix. Each bad input must
end as the user's problem: a verdict naming the file and line, an ERROR result, or a usage
error (exit 2); never exit 3, never a lost report (expected exit codes: docs/cli.md)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from bad_input import SETUP, played, runner, write_log
from fuzz_inputs import ALIAS_BOMB

from oracle.games import GameCache
from oracle.scenarios import run_all
from reference.core import yamlfile
from rules_oracle_cli.cli import app


def test_an_alias_bomb_profile_is_a_quick_usage_error(tmp_path: Path) -> None:
    profile = tmp_path / "bomb.yaml"
    profile.write_text(ALIAS_BOMB)
    log = write_log(tmp_path, list(played("milestones")[:2]))
    for args in (["validate", str(log)], ["scenarios", str(SETUP)]):
        started = time.monotonic()
        result = runner.invoke(app, [*args, "--profile", str(profile)])
        assert result.exit_code == 2
        assert "bomb.yaml" in result.stderr and "values" in result.stderr
        assert time.monotonic() - started < 5


def test_an_alias_bomb_or_cycle_in_a_scenario_is_an_error(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(SETUP.read_text() + "\n" + ALIAS_BOMB.replace("a:", "aa:", 1))
    cycle = tmp_path / "cycle.yaml"
    cycle.write_text(
        SETUP.read_text().replace(
            "steps: []", "given:\n  state: {bag: &b {soldier: *b}}\nsteps: []"
        )
    )
    started = time.monotonic()
    results = run_all([bomb, cycle], GameCache(), None)
    assert [r.status for r in results] == ["error", "error"]
    assert "expanded" in results[0].reason and "cycle" in results[1].reason
    assert time.monotonic() - started < 5


def test_a_yaml_tag_is_an_error_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(SETUP.read_text() + "\n!!timestamp 2020-01-01: 1\n")
    (tmp_path / "b.yaml").write_text(SETUP.read_text())
    results = run_all([tmp_path], GameCache(), None)
    assert [(r.path[-6:], r.status) for r in results] == [("a.yaml", "error"), ("b.yaml", "pass")]
    assert "timestamp" in results[0].reason
    assert results[0].line == len(SETUP.read_text().splitlines()) + 2  # after a blank line


@pytest.mark.parametrize(
    "text",
    ["a: !!timestamp 2020-01-01", "a: !!binary aGk=", "a: !!set {x}", "a: .nan", "<<: {a: 1}"],
)
def test_the_loader_reads_only_plain_json_values(text: str) -> None:
    with pytest.raises(yamlfile.yaml.YAMLError):
        yamlfile.load(text)


def test_a_bare_date_stays_text() -> None:
    assert yamlfile.load("a: 2020-01-01") == {"a": "2020-01-01"}
