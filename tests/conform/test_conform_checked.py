"""Nothing checked is never a pass, and every report says how much was checked.

The bundled suite is the default scenario folder; a scenario folder that does not exist, a
run with nothing to run, and a run that compared nothing with ours are usage errors (exit 2),
each with one line saying why. The counts expected here come from what was asked: one
play-out of N events compares N + 1 positions (the setup and after each event).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from oracle.formats.scenario import BUNDLED_SCENARIOS
from rules_oracle_cli.cli import app
from tests.conform.conftest import ROOT, SERVE, adapter

GAME = "palmyra"
SCHEMA = json.loads((ROOT / "rules_oracle" / "schemas" / "report-conform.schema.json").read_text())
runner = CliRunner()


def conform(engine: str, *more: str) -> Any:
    result = runner.invoke(app, ["conform", "--engine", engine, "--game", GAME, *more])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_a_scenario_folder_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    result = conform(f"{SERVE} --game {GAME}", "--scenarios-dir", str(missing))
    assert result.exit_code == 2
    assert f"--scenarios-dir {missing}: no such folder" in result.output


@pytest.mark.parametrize(
    "parts", [["playout"], ["engine"], ["playout", "probes", "engine"]], ids=lambda p: "+".join(p)
)
def test_no_games_and_no_scenarios_to_run_is_a_usage_error(parts: list[str]) -> None:
    flags = [f"--part={p}" for p in parts]
    result = conform(f"{SERVE} --game {GAME}", "--games", "0", *flags)
    assert result.exit_code == 2
    assert "nothing to run: --games 0 with --part" in result.output


def test_a_folder_without_scenarios_of_the_game_and_no_games_is_a_usage_error(
    tmp_path: Path,
) -> None:
    result = conform(f"{SERVE} --game {GAME}", "--games", "0", "--scenarios-dir", str(tmp_path))
    assert result.exit_code == 2
    assert f"nothing to run: --games 0 and no palmyra scenario in {tmp_path}" in result.output


def test_engine_games_without_next_check_nothing_a_usage_error_not_a_pass() -> None:
    engine = adapter(GAME, "--without", "next")
    result = conform(engine, "--games", "1", "--players", "2", "--part", "engine")
    assert result.exit_code == 2
    assert "the run checked nothing (engine games need the engine's 'next' capability)" in (
        result.output
    )


def test_scenarios_the_engine_cannot_run_check_nothing(tmp_path: Path) -> None:
    # a scenario with given.state needs set_state: an engine without it skips it
    needs_set_state = BUNDLED_SCENARIOS / GAME / "PAL-CHAIN-01-p06-fifth-tile-illegal.yaml"
    (tmp_path / needs_set_state.name).write_text(needs_set_state.read_text())
    engine = adapter(GAME, "--no-capabilities")
    result = conform(engine, "--games", "0", "--scenarios-dir", str(tmp_path))
    assert result.exit_code == 2
    assert "scenarios 0 passed, 0 failed, 1 skipped" in result.stdout
    assert "the run checked nothing (1 scenarios skipped" in result.output


def test_by_default_the_bundled_suite_runs_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # an empty folder: no scenarios/ here
    result = conform(f"{SERVE} --game {GAME}", "--games", "0", "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    bundled = len(list((BUNDLED_SCENARIOS / GAME).glob("*.yaml")))
    assert bundled > 0
    assert report["counts"]["scenarios_passed"] == bundled
    assert [c["part"] for c in report["cases"]] == ["scenarios"] * bundled


def test_every_report_says_how_much_was_checked() -> None:
    common = ["--players", "2", "--games", "1", "--part", "playout", "--no-reach"]
    text = conform(f"{SERVE} --game {GAME}", *common)
    data = conform(f"{SERVE} --game {GAME}", *common, "--format", "json")
    junit = conform(f"{SERVE} --game {GAME}", *common, "--format", "junit")
    assert (text.exit_code, data.exit_code, junit.exit_code) == (0, 0, 0)
    report = json.loads(data.stdout)
    jsonschema.validate(report, SCHEMA)
    counts = report["counts"]
    events = counts["events"]
    assert events > 0 and counts["positions"] == events + 1 and counts["legal_sets"] == events
    assert counts["paths_compared"] > events and counts["probes"] == 0
    coverage = report["rules_exercised"]  # rule coverage: the catalogue's rules exercised
    assert 0 < coverage["exercised"] < coverage["catalogue"] == len(coverage["rules"])
    summary = text.stdout.strip().splitlines()[-1]
    assert f"1 play-outs ({events} events, {counts['paths_compared']} state paths compared" in (
        summary
    )
    assert f"{counts['legal_sets']} legal sets, {counts['probes']} probes" in summary
    assert "scenarios 0 passed, 0 failed, 0 skipped" in summary
    suite = ET.fromstring(junit.stdout)
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["counts.events"] == str(events)
    assert properties["counts.paths_compared"] == str(counts["paths_compared"])
    assert properties["counts.scenarios_passed"] == "0"
