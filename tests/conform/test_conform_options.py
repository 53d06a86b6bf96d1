"""conform --options, --profile and --option-matrix: the engine plays the same game as ours.

The planted bug is a rule bug in a copy of our engine (the adapter's ``--data``): the
emperor's tax bonus (emperor.tax_bonus, 1 in our data) paid as 2. The emperor is in play
only in Palmyra's advanced game (PAL-EMP-01), so only a game of that mode can show it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from oracle.conform import Conformance
from oracle.findings import Settings
from oracle.option_matrix import option_matrix, option_values
from rules_oracle_cli.cli import app
from tests.conform.conftest import EMPEROR_BUG, ROOT, SERVE

GAME = "palmyra"
BROKEN = EMPEROR_BUG
runner = CliRunner()


def conform(engine: str, *more: str) -> Any:
    args = ["conform", "--engine", engine, "--game", GAME, "--format", "json", *more]
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def documented_options(game: str) -> dict[str, list[str]]:
    """The "Options" table of docs/games/<game>.md: each option with the values listed (the
    ``profile`` row replaces data, it is no option with values)."""
    text = (ROOT / "docs" / "games" / f"{game}.md").read_text()
    section = text.split("## Options", 1)[1].split("\n## ", 1)[0]
    found = {}
    for name, values in re.findall(r"^\| `([a-z_]+)` \| ([^|]+)\|", section, re.MULTILINE):
        if name != "profile":
            found[name] = re.findall(r"`([^`]+)`", values)
    return found


@pytest.mark.parametrize("game", ["pillars", "milestones", "palmyra", "municipium"])
def test_the_matrix_plays_every_documented_value_of_every_option(game: str) -> None:
    values = option_values(game)
    documented = documented_options(game)
    assert set(values) == set(documented), "the docs' Options table lists every option"
    for name, listed in documented.items():
        shown = {json.dumps(v) if not isinstance(v, str) else v for v in values[name]}
        assert shown == set(listed), name
    matrix = option_matrix(game, {})
    played = {(name, s.get(name, values[name][0])) for s in matrix for name in values}
    assert played == {(name, v) for name, vs in values.items() for v in vs}
    assert matrix[0] == {} and len(matrix) == 1 + sum(len(v) - 1 for v in values.values())


def test_palmyras_matrix_has_the_advanced_and_solo_games_solo_with_one_player() -> None:
    run = Conformance(
        Settings(engine=SERVE, game=GAME, players=(2, 3), games=18, option_matrix=True)
    )
    setups = [run.setup_for(k) for k in range(18)]
    modes = [options.get("mode", "standard") for _, options in setups]
    assert modes[:3] == ["standard", "advanced", "solo"]
    assert [len(players) for players, options in setups if options.get("mode") == "solo"] == [1, 1]
    # the other settings take the player counts asked for, in turn
    assert [len(setups[k][0]) for k in (0, 9)] == [2, 3]


def test_a_bug_only_in_the_advanced_game_is_found_by_the_matrix_in_play_and_engine_games(
    tmp_path: Path,
) -> None:
    plain = conform(BROKEN, "--games", "2", "--part", "playout", "--part", "engine")
    assert plain.exit_code == 0, "the standard game never takes the emperor"
    found = conform(
        BROKEN, "--games", "2", "--part", "playout", "--part", "engine", "--option-matrix",
        "--save", str(tmp_path),
    )  # fmt: skip
    assert found.exit_code == 1
    report = json.loads(found.stdout)
    assert report["option_settings"][:2] == [{}, {"mode": "advanced"}]
    findings = report["findings"]
    assert {f["part"] for f in findings} == {"playout", "engine"}
    for f in findings:  # game 1 of each part: the advanced game
        assert (f["game_no"], f["options"], f["kind"]) == (1, {"mode": "advanced"}, "state")
        assert f["path"].endswith(".coins") and f["theirs"] == f["ours"] + 1
    # each saved case passes on ours and fails on the broken engine
    ours = runner.invoke(app, ["scenarios", str(tmp_path)])
    assert ours.exit_code == 0, ours.output
    theirs = conform(BROKEN, "--games", "0", "--scenarios-dir", str(tmp_path))
    assert theirs.exit_code == 1
    assert json.loads(theirs.stdout)["counts"]["scenarios_failed"] == len(findings)


def test_options_and_a_profile_reach_the_engine_in_new_game(tmp_path: Path) -> None:
    advanced = json.dumps({"mode": "advanced"})
    profile = tmp_path / "profile.yaml"
    profile.write_text("emperor.tax_bonus: 2\n")
    common = ["--games", "1", "--players", "2", "--part", "playout", "--options", advanced]
    # the broken engine and ours with the same data value: the same game
    same = conform(BROKEN, *common, "--profile", str(profile))
    assert same.exit_code == 0, same.stdout
    settings = json.loads(same.stdout)["settings"]
    assert settings["options"] == {"mode": "advanced", "profile": {"emperor.tax_bonus": 2}}
    # ours without the profile: the broken engine differs (so it got the advanced mode too)
    differ = conform(BROKEN, *common)
    assert differ.exit_code == 1
    assert json.loads(differ.stdout)["findings"][0]["options"] == {"mode": "advanced"}


@pytest.mark.parametrize(
    ("more", "message"),
    [
        (["--options", "[1]"], "--options must be a JSON object"),
        (["--options", '{"mode": "chess"}'], "mode"),
        (["--options", '{"nope": 1}'], "nope"),
    ],
)
def test_bad_options_are_usage_errors(more: list[str], message: str) -> None:
    result = runner.invoke(app, ["conform", "--engine", SERVE, "--game", GAME, *more])
    assert result.exit_code == 2
    assert message in result.output
