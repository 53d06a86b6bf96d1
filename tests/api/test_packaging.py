"""Packaging: license, package data (the schemas and the bundled scenario suite), version
and short help, and the commands that work outside a clone of the repository."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from cli_invoke import ROOT, invoke

import rules_oracle

MARKET = ROOT / "scenarios" / "pillars" / "PIL-MARKET-04-metal-is-never-bought.yaml"


def test_packaging_metadata() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    data = project["tool"]["setuptools"]["package-data"]
    assert {"py.typed", "schemas/*.json"} <= set(data["rules_oracle"])
    assert "scenario_suite/*/*.yaml" in data["oracle"]  # the bundled suite ships in oracle
    bundled = sorted(rules_oracle.SCENARIOS_DIR.glob("*/*.yaml"))
    assert bundled == sorted(rules_oracle.SCENARIOS_DIR.rglob("*.yaml"))  # the glob finds all
    assert len(bundled) == len(list((ROOT / "scenarios").rglob("*.yaml")))


def test_version_and_short_help() -> None:
    code, out, _ = invoke("--version")
    assert (code, out.strip()) == (0, f"rules-oracle {rules_oracle.__version__}")
    code, out, _ = invoke("-h")
    assert code == 0 and "validate" in out
    code, out, _ = invoke("validate", "-h")
    assert code == 0 and "<bool>" not in out


def test_scenarios_and_coverage_work_outside_the_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = invoke("scenarios", "--game", "palmyra")
    assert code == 0 and re.search(r"\d+ passed, 0 failed", out)
    code, out, _ = invoke("coverage", "--game", "palmyra")
    assert code == 0 and "palmyra:" in out
