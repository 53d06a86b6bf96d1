"""Palmyra through the oracle's command line in all three modes: play then validate is
valid, a broken log gets the right verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rules_oracle_cli.cli import app

runner = CliRunner()
MODES = [("standard", 2), ("standard", 5), ("advanced", 3), ("advanced", 4), ("solo", 1)]


def play(tmp_path: Path, mode: str, players: int, seed: int) -> list[str]:
    out = tmp_path / f"palmyra-{mode}-{players}-{seed}.jsonl"
    args = ["play", "--game", "palmyra", "--players", str(players), "--seed", str(seed)]
    args += ["--options", json.dumps({"mode": mode}), "-o", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return out.read_text().splitlines()


def validate(tmp_path: Path, lines: list[str]) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "check.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["validate", "--format", "json", "--strict", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    verdict = json.loads(result.stdout)["results"][0]
    assert result.exit_code == (0 if verdict["status"] == "valid" else 1), verdict
    return result.exit_code, verdict


@pytest.mark.parametrize(("mode", "players"), MODES)
def test_palmyra_play_then_validate(tmp_path: Path, mode: str, players: int) -> None:
    for seed in (1, 2):
        lines = play(tmp_path, mode, players, seed)
        code, verdict = validate(tmp_path, lines)
        assert (code, verdict["status"]) == (0, "valid"), verdict


def test_palmyra_cli_illegal_and_malformed(tmp_path: Path) -> None:
    lines = play(tmp_path, "advanced", 2, 3)
    i = next(n for n, line in enumerate(lines) if '"conquer"' in line or '"collect_taxes"' in line)
    record = json.loads(lines[i])
    record["player"] = "blue" if record["player"] == "red" else "red"
    code, verdict = validate(tmp_path, [*lines[:i], json.dumps(record)])
    assert verdict["status"] == "illegal" and verdict["rule_id"] == "PAL-TURN-01", verdict
    record = json.loads(lines[i])
    record["piece"] = "emperor"
    code, verdict = validate(tmp_path, [*lines[:i], json.dumps(record)])
    assert verdict["status"] == "malformed", verdict


def test_palmyra_example_log_is_valid() -> None:
    root = Path(__file__).resolve().parents[2]
    result = runner.invoke(
        app, ["validate", "--format", "json", "--strict", str(root / "examples/palmyra.jsonl")]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["results"][0]["status"] == "valid"
