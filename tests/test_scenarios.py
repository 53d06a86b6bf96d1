"""Every scenario file in scenarios/ runs as its own test."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle.formats.scenario import scenario_files
from oracle.games import GameCache
from oracle.scenarios import run_all, run_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
FILES = scenario_files([SCENARIOS])
GAMES = GameCache()


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(SCENARIOS)) for p in FILES])
def test_scenario(path: Path) -> None:
    result = run_scenario(path, GAMES)
    assert result.status == "pass", f"{result.status}: {result.reason} (line {result.line})"


def test_scenario_ids_are_unique_and_match_file_names() -> None:
    results = run_all([SCENARIOS], GameCache(), None)
    assert not [r for r in results if "also used by" in r.reason]
    for r in results:
        assert r.id is None or Path(r.path).stem == r.id, r.path


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 40
