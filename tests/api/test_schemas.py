"""The JSON Schemas in docs/schemas/ (shipped in the package) fit everything we write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from report_schemas import problems, validator
from typer.testing import CliRunner

import rules_oracle
from rules_oracle_cli.cli import app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.jsonl"))
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.yaml"))
PROFILES = sorted((ROOT / "profiles").glob("*.yaml"))
runner = CliRunner()


def test_docs_schemas_are_the_shipped_ones() -> None:
    docs = ROOT / "docs" / "schemas"
    for name in rules_oracle.SCHEMAS:
        shipped = rules_oracle.SCHEMAS_DIR / f"{name}.schema.json"
        assert (docs / shipped.name).read_text() == shipped.read_text()
        assert rules_oracle.schema(name)["$schema"].endswith("/2020-12/schema")
        validator(name)  # a valid draft 2020-12 schema


@pytest.mark.parametrize("log", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_log_fits_the_log_schema(log: Path) -> None:
    lines = log.read_text().splitlines()
    assert problems("log", json.loads(lines[0])) == []
    assert json.loads(lines[0])["format"] == "rules-oracle-log"
    for number, line in enumerate(lines[1:], 2):
        assert problems("log", json.loads(line)) == [], f"line {number}"


def test_the_log_schema_refuses_what_the_reader_refuses() -> None:
    assert problems(
        "log",
        {"format": "rules-oracle-log", "version": 2, "game": "pillars", "players": ["a", "b"]},
    )
    assert problems("log", {"player": "red"})  # an event needs a type
    assert problems("log", {"result": {"scores": {"red": "many"}}})
    assert problems("log", {"type": "pass", "player": "chance"})


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT)) for p in SCENARIOS])
def test_every_scenario_file_fits_the_scenario_schema(path: Path) -> None:
    assert problems("scenario", yaml.safe_load(path.read_text())) == []


def test_the_scenario_schema_refuses_a_mixed_expectation() -> None:
    scenario = yaml.safe_load(
        (ROOT / "scenarios/pillars/PIL-MARKET-04-metal-is-never-bought.yaml").read_text()
    )
    scenario["expect"]["over"] = False  # illegal cannot be combined with checks
    assert problems("scenario", scenario)


@pytest.mark.parametrize("path", PROFILES, ids=[p.name for p in PROFILES])
def test_every_example_profile_fits_the_profile_schema(path: Path) -> None:
    assert problems("profile", yaml.safe_load(path.read_text())) == []


def test_reports_of_every_status_fit_their_schemas(tmp_path: Path) -> None:
    lines = EXAMPLES[0].read_text().splitlines()
    cases = {
        "valid.jsonl": lines,
        "incomplete.jsonl": lines[:5],
        "malformed.jsonl": [lines[0], "{"],
        "illegal.jsonl": [lines[0], *lines[2:]],
        "divergent.jsonl": [*lines[:-1], '{"result": {"winners": ["nobody"]}}'],
    }
    for name, content in cases.items():
        (tmp_path / name).write_text("\n".join(content) + "\n")
    for extra in ([], ["--at", "3"], ["--strict"]):
        result = runner.invoke(app, ["validate", str(tmp_path), "--format", "json", *extra])
        report = json.loads(result.stdout)
        assert problems("report-validate", report) == []
        statuses = {r["status"] for r in report["results"]}
        assert statuses == {"valid", "incomplete", "malformed", "illegal", "divergent"}
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: x\n")
    failing = tmp_path / "fail.yaml"
    source = ROOT / "scenarios/pillars/PIL-MARKET-04-metal-is-never-bought.yaml"
    failing.write_text(
        source.read_text()
        .replace("rule: PIL-MARKET-04", "rule: PIL-MARKET-01")
        .replace("- PIL-MARKET-04", "- PIL-MARKET-01")
        .replace("id: PIL-MARKET-04-metal", "id: copied-metal")
    )
    result = runner.invoke(
        app, ["scenarios", str(source), str(bad), str(failing), "--format", "json"]
    )
    report = json.loads(result.stdout)
    assert problems("report-scenarios", report) == []
    assert {r["status"] for r in report["results"]} == {"pass", "fail", "error"}


def test_the_whole_scenario_suite_report_fits() -> None:
    result = runner.invoke(app, ["scenarios", str(ROOT / "scenarios"), "--format", "json"])
    report = json.loads(result.stdout)
    assert problems("report-scenarios", report) == []
    assert report["summary"]["total"] == len(SCENARIOS)
