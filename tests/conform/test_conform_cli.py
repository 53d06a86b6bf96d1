"""rules-oracle conform on the command line: reports, baseline, usage errors, exit codes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import xmlschema
from typer.testing import CliRunner

from rules_oracle_cli.cli import app
from tests.conform.conftest import ROOT, adapter

GAME = "palmyra"
SCHEMA = json.loads((ROOT / "rules_oracle" / "schemas" / "report-conform.schema.json").read_text())
JUNIT = xmlschema.XMLSchema(ROOT / "tests" / "junit" / "junit-10.xsd")
runner = CliRunner()


def conform(engine: str, *more: str) -> Any:
    args = ["conform", "--engine", engine, "--game", GAME, "--players", "2", "--games", "1"]
    result = runner.invoke(app, [*args, "--part", "playout", *more])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_the_json_report_is_versioned_and_fits_its_schema() -> None:
    result = conform(adapter(GAME, "--lie", "bank", "--from-event", "3"), "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    jsonschema.validate(report, SCHEMA)
    assert (report["format"], report["version"], report["passed"]) == (
        "rules-oracle-conform-report",
        1,
        False,
    )
    (finding,) = report["findings"]
    assert (finding["status"], finding["kind"], finding["path"]) == ("fail", "state", "bank")
    assert (finding["events"], finding["ours"], finding["theirs"]) == (3, 118, 119)
    assert finding["log"].count("\n") == 4  # header and three events
    assert "bank: 118" in finding["scenario"]


def test_a_passing_json_report_fits_the_schema_too() -> None:
    result = conform(adapter(GAME), "--format", "json")
    assert result.exit_code == 0, result.stdout
    report = json.loads(result.stdout)
    jsonschema.validate(report, SCHEMA)
    assert report["passed"] is True and report["findings"] == []
    assert report["counts"]["paths_compared"] > 0


def test_the_junit_report_has_one_case_per_game_and_the_failure() -> None:
    result = conform(adapter(GAME, "--crash", "--from-event", "2"), "--format", "junit")
    assert result.exit_code == 1
    JUNIT.validate(result.stdout)  # the Jenkins xUnit schema the other reports keep to
    suite = ET.fromstring(result.stdout)
    assert (suite.tag, suite.get("tests"), suite.get("failures")) == ("testsuite", "1", "1")
    (case,) = suite.findall("testcase")
    failure = case.find("failure")
    assert failure is not None and "crash" in failure.get("message", "")


def test_a_written_baseline_passes_and_a_stale_entry_fails(tmp_path: Path) -> None:
    known = tmp_path / "known.yaml"
    engine = adapter(GAME, "--lie", "bank", "--from-event", "3")
    assert conform(engine, "--write-baseline", str(known)).exit_code == 1
    assert "kind: state" in known.read_text() and "path: bank" in known.read_text()
    result = conform(engine, "--baseline", str(known))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("KNOWN playout state")
    result = conform(adapter(GAME), "--baseline", str(known))  # fixed: the entry is stale
    assert result.exit_code == 1
    stale = [line for line in result.stdout.splitlines() if line.startswith("STALE")]
    assert stale == ["STALE baseline entry no longer fails: kind: state, path: bank"]


def test_save_writes_the_findings_log_and_scenario_and_says_where(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = conform(adapter(GAME, "--lie", "bank", "--from-event", "3"), "--save", str(out))
    name = "conform-palmyra-playout-state-bank-g0-seed0"
    assert sorted(p.name for p in out.iterdir()) == [f"{name}.jsonl", f"{name}.yaml"]
    assert runner.invoke(app, ["scenarios", str(out / f"{name}.yaml")]).exit_code == 0
    assert runner.invoke(app, ["validate", str(out / f"{name}.jsonl")]).exit_code == 1
    assert f"  saved: {out / name}.yaml and {out / name}.jsonl" in result.stdout.splitlines()


def test_without_save_the_text_report_says_how_to_save() -> None:
    result = conform(adapter(GAME, "--lie", "bank", "--from-event", "3"))
    assert "  case: save it with --save DIR (a scenario and a v1 log)" in result.stdout


def test_an_engine_that_cannot_start_is_a_finding_not_our_crash() -> None:
    result = conform("/no/such/engine --flag")
    assert result.exit_code == 1
    assert "FAIL session crash" in result.stdout and "cannot start" in result.stdout


def test_an_engine_that_does_not_serve_the_game_is_a_finding() -> None:
    result = conform(adapter("pillars"))
    assert result.exit_code == 1
    assert "does not serve palmyra" in result.stdout


@pytest.mark.parametrize(
    ("more", "message"),
    [
        (["--part", "nope"], "unknown part 'nope'"),
        (["--players", "9"], "takes 2 to 5 players"),
        (["--timeout", "0"], "--timeout must be above 0 seconds, at most 86400 (got 0)"),
        # no NaN or infinity, nor more than the system's wait takes (these were internal
        # errors: the timeout went on to selectors as is)
        (["--timeout", "nan"], "--timeout must be above 0 seconds, at most 86400 (got nan)"),
        (["--timeout", "inf"], "--timeout must be above 0 seconds, at most 86400 (got inf)"),
        (["--timeout", "1e12"], "--timeout must be above 0 seconds, at most 86400 (got 1e+12)"),
        (["--shrink-seconds", "nan"], "--shrink-seconds must be 0 to 86400 seconds (got nan)"),
        (["--shrink-seconds", "-1"], "--shrink-seconds must be 0 to 86400 seconds (got -1)"),
        (["--games", "-1"], "--games must be 0 or more (got -1)"),
        (["--baseline", "/no/such.yaml"], "cannot read"),
    ],
)
def test_usage_errors_exit_2(more: list[str], message: str) -> None:
    args = ["conform", "--engine", "x", "--game", GAME, *more]
    result = runner.invoke(app, args)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2
    assert message in result.output


def test_an_unknown_game_and_an_empty_engine_are_usage_errors() -> None:
    assert runner.invoke(app, ["conform", "--engine", "x", "--game", "chess"]).exit_code == 2
    assert runner.invoke(app, ["conform", "--engine", " ", "--game", GAME]).exit_code == 2
    assert runner.invoke(app, ["conform", "--engine", "'", "--game", GAME]).exit_code == 2
