"""``play --players N`` and ``rules_oracle.play_log``: a count the game does not take is a
usage error naming that count (a negative count once sliced the names list and played)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import rules_oracle
from rules_oracle import BadOptions
from rules_oracle_cli.cli import app

runner = CliRunner()


@pytest.mark.parametrize("count", [-1, -3, 0, 1, 5, 9])
def test_play_refuses_a_count_pillars_does_not_take(count: int) -> None:
    # Pillars takes 2 to 4 players (RB p.2); every other count is the user's mistake.
    result = runner.invoke(app, ["play", "--game", "pillars", "--players", str(count)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    assert f"error: {count} players; pillars takes 2 to 4" in result.stderr


@pytest.mark.parametrize("count", [-1, -4, 0, 6, 9])
def test_play_log_refuses_a_count_palmyra_does_not_take(count: int) -> None:
    with pytest.raises(BadOptions, match=rf"^{count} players; palmyra takes 2 to 5$"):
        rules_oracle.play_log("palmyra", count)


@pytest.mark.parametrize("count", [True, "3", 2.0, None])
def test_play_log_refuses_a_count_that_is_not_a_number(count: object) -> None:
    with pytest.raises(BadOptions, match="players is a number of players"):
        rules_oracle.play_log("palmyra", count)  # type: ignore[arg-type]


def test_the_counts_a_game_takes_still_play() -> None:
    for count in (2, 5):
        header = json.loads(rules_oracle.play_log("palmyra", count)[0])
        assert header["players"] == list(rules_oracle.PLAYER_NAMES[:count])
    solo = rules_oracle.play_log("palmyra", 1, options={"mode": "solo"})
    assert json.loads(solo[0])["players"] == ["red"]
