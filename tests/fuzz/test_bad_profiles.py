"""Profiles: an unknown key or a refused value is a usage error (exit 2) before any work, the
same for every command; nested values are refused or played; a huge yield plays in bounded
time; an unreadable profile is exit 2.

Reproducers of a fuzz run, each failing on the code before its fix. Each bad input must
end as the user's problem: a verdict naming the file and line, an ERROR result, or a usage
error (exit 2); never exit 3, never a lost report (expected exit codes: docs/cli.md)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from bad_input import SETUP, played, runner, write_log
from fuzz_inputs import ROOT

from reference.registry import make_game
from rules_oracle_cli.cli import app


@pytest.mark.parametrize("command", ["validate", "scenarios", "play"])
def test_an_unknown_profile_key_is_exit_2_for_every_command(tmp_path: Path, command: str) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text("no_such.key: 3\n")
    log = write_log(tmp_path, list(played("milestones")[:2]))
    args = {
        "validate": ["validate", str(log)],
        "scenarios": ["scenarios", str(SETUP)],
        "play": ["play", "--game", "milestones", "--players", "2"],
    }[command]
    result = runner.invoke(app, [*args, "--profile", str(profile)])
    assert result.exit_code == 2
    assert "no_such.key" in result.stderr and "p.yaml" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("options", ["[" * 5000 + "]" * 5000, '{"a": NaN}', '{"a": 1, "a": 2}'])
def test_bad_options_json_is_exit_2(options: str) -> None:
    result = runner.invoke(
        app, ["play", "--game", "palmyra", "--players", "2", "--options", options]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("rules-oracle: error: --options: ")


def _shipped(game: str, key: str) -> Any:
    return json.loads(json.dumps(make_game(game, {}).data.value(key)))


@pytest.mark.parametrize("profile", [{"bank.total": 0}, {"tiles.mix": {}}])
@pytest.mark.parametrize("command", ["validate", "scenarios", "play"])
def test_a_profile_refused_at_set_up_is_exit_2_for_every_command(
    tmp_path: Path, profile: dict[str, Any], command: str
) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(profile))
    log = write_log(tmp_path, list(played("palmyra")[:2]))
    args = {
        "validate": ["validate", str(log)],
        "scenarios": ["scenarios", str(ROOT / "scenarios" / "palmyra"), "--game", "palmyra"],
        "play": ["play", "--game", "palmyra", "--players", "2"],
    }[command]
    result = runner.invoke(app, [*args, "--profile", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"rules-oracle: error: --profile {path}: palmyra: data ")


def _pillars_profile(key: str, card: str, field: str, value: Any) -> dict[str, Any]:
    table = _shipped("pillars", key)
    table[card][field] = value
    return {key: table}


@pytest.mark.parametrize(
    ("key", "card", "field", "value"),
    [
        ("advantages.cards", "madonna", "effect", {"a": 1}),  # a mapping in an effect
        ("craftsmen.round_cards", "mason_1", "round", 0),  # a card moved to round 0
    ],
)
def test_nested_profile_values_are_refused_or_played(
    tmp_path: Path, key: str, card: str, field: str, value: Any
) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(_pillars_profile(key, card, field, value)))
    out = tmp_path / "out.jsonl"
    args = ["play", "--game", "pillars", "--players", "2", "-o", str(out), "--profile", str(path)]
    assert runner.invoke(app, args).exit_code in (0, 2)


def test_a_huge_yield_plays_in_bounded_time(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    profile = _pillars_profile("cards.resource_cards", "gravel_small", "yield", 10_000_000)
    path.write_text(json.dumps(profile))
    started = time.monotonic()
    args = ["play", "--game", "pillars", "--players", "2", "-o", str(tmp_path / "o.jsonl")]
    assert runner.invoke(app, [*args, "--profile", str(path)]).exit_code in (0, 2)
    assert time.monotonic() - started < 10


@pytest.mark.parametrize(
    "text",
    [b"\xff\xfe", b"- a\n- b\n", b"1: 2\n", b"a: !!timestamp 2020-01-01\n", b"[" * 300],
)
def test_an_unreadable_profile_is_exit_2(tmp_path: Path, text: bytes) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_bytes(text)
    log = write_log(tmp_path, list(played("milestones")[:2]))
    result = runner.invoke(app, ["validate", str(log), "--profile", str(profile)])
    assert result.exit_code == 2
    assert "p.yaml" in result.stderr
