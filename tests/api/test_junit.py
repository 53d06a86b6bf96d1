"""JUnit reports validate against the Jenkins xUnit schema (tests/junit/junit-10.xsd)."""

from __future__ import annotations

import socket
import xml.etree.ElementTree as ET
from pathlib import Path

import xmlschema
from typer.testing import CliRunner

from rules_oracle_cli.cli import app

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = xmlschema.XMLSchema(ROOT / "tests" / "junit" / "junit-10.xsd")
runner = CliRunner()


def junit(*args: str) -> ET.Element:
    result = runner.invoke(app, [*args, "--format", "junit"])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    SCHEMA.validate(result.stdout)  # raises with the reason when it does not fit
    return ET.fromstring(result.stdout)


def test_validate_junit_fits_the_schema_with_time_host_and_failure_types(tmp_path: Path) -> None:
    lines = (ROOT / "examples" / "pillars.jsonl").read_text().splitlines()
    (tmp_path / "illegal.jsonl").write_text("\n".join([lines[0], *lines[2:]]) + "\n")
    (tmp_path / "short.jsonl").write_text("\n".join(lines[:4]) + "\n")
    (tmp_path / "valid.jsonl").write_text("\n".join(lines) + "\n")
    suite = junit("validate", str(tmp_path), "--strict")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "2", "0")
    assert suite.get("hostname") == socket.gethostname()
    assert float(suite.get("time") or "-1") >= 0
    assert (suite.get("timestamp") or "").startswith("20")
    types = {Path(case.get("name", "")).name: [f.get("type") for f in case] for case in suite}
    assert types == {
        "illegal.jsonl": ["illegal"],
        "short.jsonl": ["incomplete"],
        "valid.jsonl": [],
    }


def test_scenarios_junit_fits_the_schema(tmp_path: Path) -> None:
    market = ROOT / "scenarios/pillars/PIL-MARKET-04-metal-is-never-bought.yaml"
    (tmp_path / "broken.yaml").write_text("id: [\n")
    suite = junit("scenarios", str(market), str(tmp_path / "broken.yaml"))
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "0", "1")
    [error] = [node for case in suite for node in case]
    assert (error.tag, error.get("type")) == ("error", "error")
