"""What the bad-input reproducers share: seeded logs of each game, writing a log, a claim
added to a line, validate's JSON results."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from fuzz_inputs import ROOT
from typer.testing import CliRunner

from oracle.play import PLAYER_NAMES, play_lines
from reference.registry import make_game
from rules_oracle_cli.cli import app

runner = CliRunner()
SETUP = ROOT / "scenarios/municipium/MUN-SETUP-initial-position-three-players.yaml"


@cache
def played(game: str) -> tuple[str, ...]:
    """A seeded two-player log of ``game`` (header, events with claims, result)."""
    return tuple(play_lines(make_game(game, {}), PLAYER_NAMES[:2], 0, {}))


def write_log(tmp_path: Path, lines: list[str], name: str = "g.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def with_claim(line: str, path: str, value: Any) -> str:
    record = json.loads(line)
    record["state"] = {**record.get("state", {}), path: value}
    return json.dumps(record)


def validate_json(*args: str) -> tuple[int, list[dict[str, Any]]]:
    result = runner.invoke(app, ["validate", "--format", "json", *args])
    return result.exit_code, json.loads(result.stdout)["results"]
