"""The text report is complete: each finding with the event involved, the engine's stderr
lines and where its case is (or how to save it), in "ours" and "the engine's" words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from rules_oracle_cli.cli import app
from tests.conform.conftest import adapter

GAME = "palmyra"
runner = CliRunner()


def conform(engine: str, *more: str) -> Any:
    args = ["conform", "--engine", engine, "--game", GAME, "--players", "2", "--games", "1"]
    result = runner.invoke(app, [*args, *more])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_a_crash_shows_the_event_it_came_on_and_the_engines_stderr() -> None:
    result = conform(adapter(GAME, "--crash", "--from-event", "3"), "--part", "playout")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("FAIL playout crash [") and "(last request: apply)" in lines[0]
    assert lines[1].startswith("  event: {") and json.loads(lines[1].split(": ", 1)[1])["type"]
    assert lines[2] == "  the engine's stderr (last 1 lines):"
    assert lines[3] == "    adapter: planted crash at event 3"


def test_an_accepted_illegal_event_is_shown(tmp_path: Path) -> None:
    engine = adapter(GAME, "--accept-illegal")
    parts = ["--part", "playout", "--part", "probes", "--no-reach"]  # one play-out: one finding
    as_json = conform(engine, *parts, "--format", "json", "--save", str(tmp_path))
    (finding,) = json.loads(as_json.stdout)["findings"]
    text = conform(engine, *parts, "--save", str(tmp_path))
    assert text.exit_code == 1
    assert f"  event: {json.dumps(finding['probe'])}" in text.stdout.splitlines()
    assert f"  saved: {tmp_path / finding['case_id']}.yaml and " in text.stdout


def test_a_scenario_failing_on_the_engine_quotes_the_engines_answer_never_reference(
    tmp_path: Path,
) -> None:
    scenario = tmp_path / "bank.yaml"
    scenario.write_text(
        "id: bank-at-the-setup\ngame: palmyra\nrules: [PAL-SETUP-01]\nsource: test\n"
        "description: the bank holds what the players were not given\n"
        "players: [red, blue]\nexpect:\n  state:\n    bank: 118\n"
    )
    assert runner.invoke(app, ["scenarios", str(scenario)]).exit_code == 0  # ours: 118
    result = conform(
        adapter(GAME, "--lie", "bank"), "--games", "0", "--scenarios-dir", str(tmp_path)
    )
    assert result.exit_code == 1
    assert "bank: expected 118, the engine's 119" in result.stdout
    assert "reference" not in result.stdout
