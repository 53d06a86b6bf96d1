"""The harness can fail: a crash injected into an engine is seen as ours (exit 3), never
as the user's failing log (exit 1), and never hidden by typer's CliRunner."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from bad_input import SETUP, played, validate_json, write_log
from typer.testing import CliRunner

from reference.registry import make_game
from rules_oracle_cli import cli
from rules_oracle_cli.cli import app

runner = CliRunner()


def _crash(*_: Any, **__: Any) -> Any:
    raise RuntimeError("injected crash")


def test_an_engine_crash_in_validate_is_exit_3_and_ours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = write_log(tmp_path, list(played("milestones")[:3]))
    # step (reference/core/game.py) calls the shell's apply_not_over, not apply; the message
    # below proves the injected crash was the one reached.
    monkeypatch.setattr(type(make_game("milestones", {})), "apply_not_over", _crash)
    code, (verdict,) = validate_json(str(log))
    assert (code, verdict["status"]) == (3, "internal_error")
    assert verdict["message"].startswith("internal error in rules-oracle, please report")
    assert "RuntimeError: injected crash" in verdict["message"]
    text = runner.invoke(app, ["validate", str(log)])
    assert text.exit_code == 3
    assert "internal_error" in text.stdout


def test_a_broken_invariant_is_exit_3_and_ours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = write_log(tmp_path, list(played("milestones")[:3]))
    monkeypatch.setattr(
        type(make_game("milestones", {})), "invariant_failures", lambda *_: ["injected"]
    )
    code, (verdict,) = validate_json(str(log))
    assert (code, verdict["status"], verdict["line"]) == (3, "internal_error", 2)
    assert "invariant broken: injected" in verdict["message"]


def test_an_engine_crash_in_a_scenario_is_exit_3_and_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type(make_game("municipium", {})), "new_game", _crash)
    result = runner.invoke(app, ["scenarios", str(SETUP), "--format", "text"])
    assert result.exit_code == 3
    assert result.stdout.startswith("INTERNAL ")
    assert "internal error in rules-oracle, please report: RuntimeError: injected crash" in (
        result.stdout
    )


def test_a_crash_outside_any_verdict_fails_the_test_and_is_exit_3_from_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_log(tmp_path, list(played("milestones")[:2]))
    monkeypatch.setattr(cli, "_report_verdicts", _crash)
    with pytest.raises(AssertionError, match="the command crashed"):
        runner.invoke(app, ["validate", str(log)])  # tests/conftest.py sees it
    monkeypatch.setattr(sys, "argv", ["rules-oracle", "validate", str(log)])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 3
    err = capsys.readouterr().err
    assert err.startswith("rules-oracle: internal error, please report: RuntimeError")


@pytest.mark.parametrize("fmt", ["text", "json", "junit"])
def test_a_report_that_cannot_render_one_log_keeps_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    from oracle import report, report_text

    good = write_log(tmp_path, list(played("milestones")[:2]), "a.jsonl")
    bad = write_log(tmp_path, list(played("milestones")[:2]), "b.jsonl")
    real_text, real_json = report.verdict_text, report.verdict_json

    def text(v: Any, **kwargs: Any) -> str:
        return _crash() if v.log == str(bad) else real_text(v, **kwargs)

    def as_json(v: Any) -> Any:
        return _crash() if v.log == str(bad) else real_json(v)

    monkeypatch.setattr(report, "verdict_text", text)  # JUnit's cases
    monkeypatch.setattr(report_text, "verdict_text", text)  # the text report
    monkeypatch.setattr(report, "verdict_json", as_json)
    result = runner.invoke(app, ["validate", "--format", fmt, str(good), str(bad)])
    assert result.exit_code == 3
    if fmt == "junit":
        suite = ET.fromstring(result.stdout)
        assert (suite.get("tests"), suite.get("errors")) == ("2", "1")
    else:
        assert "a.jsonl: incomplete" in result.stdout or '"status": "incomplete"' in result.stdout
    assert "cannot report" in result.stdout and "RuntimeError: injected crash" in result.stdout
