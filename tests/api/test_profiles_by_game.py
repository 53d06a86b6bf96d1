"""A profile applies to the games whose data it names; one that names no game's data, or
cannot make a setup, is the user's error (exit 2), never ours."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_invoke import ROOT, invoke

import rules_oracle

MARKET = ROOT / "scenarios" / "pillars" / "PIL-MARKET-04-metal-is-never-bought.yaml"


def test_a_pillars_profile_leaves_the_other_games_alone(tmp_path: Path) -> None:
    code, out, _ = invoke(
        "validate", str(ROOT / "examples"), "--profile", str(ROOT / "profiles/pillars.yaml")
    )
    assert code == 0, out
    assert out.count(": valid (") == 4


def test_a_profile_still_changes_its_own_game() -> None:
    profile = {"setup.gold_by_seat": [5, 5, 5, 5]}
    verdict = rules_oracle.validate_log(ROOT / "examples/pillars.jsonl", profile=profile)
    assert verdict.kind in ("divergent", "illegal")  # the log follows the rulebook's 20/21 gold
    other = rules_oracle.validate_log(ROOT / "examples/palmyra.jsonl", profile=profile)
    assert other.kind == "valid"


def test_a_profile_of_no_game_is_refused() -> None:
    with pytest.raises(rules_oracle.BadOptions, match="no data key of any game"):
        rules_oracle.run_scenarios([MARKET], profile={"no.such_key": 1})


@pytest.mark.parametrize(
    ("game", "profile"), [("palmyra", "bank.total: 0\n"), ("palmyra", "tiles.mix: {}\n")]
)
def test_play_with_an_unusable_profile_is_a_usage_error(
    tmp_path: Path, game: str, profile: str
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(profile)
    code, _, err = invoke("play", "--game", game, "--players", "2", "--profile", str(path))
    assert code == 2
    assert "internal error" not in err and profile.split(".")[0] in err
