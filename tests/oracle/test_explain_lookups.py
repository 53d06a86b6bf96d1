"""explain takes a rule id in any case and suggests close ones; explain and coverage take
scenario paths as scenarios does."""

from __future__ import annotations

import json

from cli_invoke import ROOT, invoke

MARKET = ROOT / "scenarios" / "pillars" / "PIL-MARKET-04-metal-is-never-bought.yaml"


def test_explain_any_case_and_suggestions() -> None:
    code, out, _ = invoke("explain", "pil-market-04")
    assert code == 0 and out.startswith("PIL-MARKET-04 (pillars)")
    code, _, err = invoke("explain", "PIL-MARKT-04")
    assert code == 2 and "did you mean PIL-MARKET-04" in err


def test_explain_and_coverage_take_scenario_paths_like_scenarios() -> None:
    code, out, _ = invoke("explain", "PIL-MARKET-04", str(MARKET))
    assert code == 0 and out.rstrip().endswith("scenarios: PIL-MARKET-04-metal-is-never-bought")
    code, out, _ = invoke("coverage", str(MARKET), "--game", "pillars", "--format", "json")
    assert json.loads(out)["pillars"]["PIL-MARKET-04"] == ["PIL-MARKET-04-metal-is-never-bought"]
