"""explain, coverage and play's usage errors, through the CLI, on the real catalogues."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rules_oracle_cli.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def test_explain_gives_status_sources_dispute_and_scenarios() -> None:
    result = runner.invoke(
        app, ["explain", "PIL-MARKET-02", "--scenarios-dir", str(ROOT / "scenarios")]
    )
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("PIL-MARKET-02 (pillars)")
    assert "status: rulebook" in out
    assert "seed 000_8b33fce1237c1bba.txt: stone costs 3" in out  # the dispute's claims
    assert "resolution:" in out
    assert "PIL-MARKET-02-stone-costs-four" in out


def test_explain_marks_placeholder_data() -> None:
    result = runner.invoke(app, ["explain", "TOY-ROLL-01", "--scenarios-dir", "/nonexistent"])
    assert result.exit_code == 0
    assert "dice.faces = [1, 2, 3] [placeholder" in result.stdout
    assert "NOTE: this rule is a placeholder" in result.stdout
    assert "no scenarios folder" in result.stdout


def test_explain_unknown_rule_is_a_usage_error() -> None:
    result = runner.invoke(app, ["explain", "PIL-NOPE-99"])
    assert result.exit_code == 2
    assert "no rule 'PIL-NOPE-99'" in result.stderr


def test_coverage_lists_rules_and_gaps(tmp_path: Path) -> None:
    (tmp_path / "one.yaml").write_text(
        (ROOT / "tests" / "oracle" / "toy_scenarios" / "illegal.yaml").read_text()
    )
    result = runner.invoke(
        app, ["coverage", "--game", "toy", "--scenarios-dir", str(tmp_path), "--format", "json"]
    )
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "toy": {
            "TOY-TURN-01": [],
            "TOY-ROLL-01": [],
            "TOY-MOVE-01": ["TOY-MOVE-01-wrong-steps"],
        }
    }
    text = runner.invoke(app, ["coverage", "--game", "toy", "--scenarios-dir", str(tmp_path)])
    assert "toy: 1 of 3 rules cited by a scenario" in text.stdout
    assert "uncovered: TOY-TURN-01, TOY-ROLL-01" in text.stdout


def test_play_usage_errors() -> None:
    for args in (
        ["--options", "{not json"],
        ["--options", "[1]"],
        ["--options", '{"goal": "far"}'],
        ["--profile", "/nonexistent.yaml"],
    ):
        result = runner.invoke(app, ["play", "--game", "toy", "--players", "2", *args])
        assert result.exit_code == 2, args
        assert result.stderr.startswith("rules-oracle: error:"), args


def test_play_writes_the_same_log_for_the_same_seed(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out in (a, b):
        args = ["play", "--game", "palmyra", "--players", "3", "--seed", "5", "-o", str(out)]
        assert runner.invoke(app, args).exit_code == 0
    assert a.read_text() == b.read_text()
    assert json.loads(a.read_text().splitlines()[-1])["result"]["winners"]
