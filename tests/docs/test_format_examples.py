"""The examples docs/formats.md gives are right: a real Pillars event and state path, a
scenario that runs and passes, and what a given position starts from."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_invoke import ROOT

import rules_oracle

FORMATS = (ROOT / "docs" / "formats.md").read_text()
MARKET = ROOT / "scenarios" / "pillars" / "PIL-MARKET-04-metal-is-never-bought.yaml"


def test_the_log_event_example_is_a_pillars_event_with_a_real_path() -> None:
    [line] = [ln for ln in FORMATS.splitlines() if ln.startswith('{"type": "buy_resources"')]
    event = json.loads(line)
    claims = event.pop("state")
    position = rules_oracle.load("pillars").setup(["red", "blue"])
    with pytest.raises(rules_oracle.Illegal):  # well formed: judged by the rules (chance acts)
        position.apply(event)
    for path in claims:
        position[path]  # names something


def test_the_scenario_example_runs_and_passes(tmp_path: Path) -> None:
    block = re.search(r"```yaml\n(id: PIL-MARKET-04.*?)```", FORMATS, re.S)
    assert block is not None
    path = tmp_path / "example.yaml"
    path.write_text(block.group(1))
    [result] = rules_oracle.run_scenarios([path])
    assert (result.status, result.message) == ("pass", "")


def test_formats_says_what_a_given_position_starts_from() -> None:
    assert "standard setup" in FORMATS and "given state unsound" in FORMATS
    assert "state_unordered" in FORMATS and "any_of" in FORMATS
