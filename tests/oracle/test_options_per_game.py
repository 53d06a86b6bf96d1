"""``--options`` for logs of several games applies each option to the games that have it,
as ``--profile`` applies to the games whose data it names; an option no game has, or a
value refused, is the user's usage error (exit 2), never a good log's ``malformed``."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rules_oracle
from rules_oracle import BadOptions
from rules_oracle_cli.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def two_games(tmp_path: Path) -> Path:
    """A folder with the bundled Pillars and Milestones example logs (both valid)."""
    for name in ("pillars", "milestones"):
        shutil.copy(ROOT / "examples" / f"{name}.jsonl", tmp_path / f"{name}.jsonl")
    return tmp_path


def statuses(options: Mapping[str, object], folder: Path) -> dict[str, str]:
    result = runner.invoke(
        app, ["validate", "--format", "json", "--options", json.dumps(options), str(folder)]
    )
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return {Path(r["file"]).stem: r["status"] for r in json.loads(result.stdout)["results"]}


def test_an_option_of_one_game_leaves_the_other_games_logs_alone(two_games: Path) -> None:
    # tie_break is Milestones' (MIL-END-05); "shared" is its default, so both stay valid.
    assert statuses({"tie_break": "shared"}, two_games) == {
        "milestones": "valid",
        "pillars": "valid",
    }


def test_a_profile_in_the_options_applies_per_game_too(two_games: Path) -> None:
    # supply.coins is a Milestones data key; 24 is its value (DE-RULES components).
    options = {"profile": {"supply.coins": 24}}
    assert statuses(options, two_games) == {"milestones": "valid", "pillars": "valid"}


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"colour": "red"}, "unknown option 'colour' (options: "),
        ({"tie_break": "coin_toss"}, "milestones: bad options: "),
        ({"profile": ["x"]}, "profile must be an object of data keys to values"),
    ],
)
def test_an_option_no_game_takes_is_a_usage_error(
    two_games: Path, options: dict[str, object], said: str
) -> None:
    result = runner.invoke(app, ["validate", "--options", json.dumps(options), str(two_games)])
    assert result.exit_code == 2, (result.stdout, result.exception)
    assert result.stdout == ""  # no log got a verdict from the user's mistake
    assert result.stderr.startswith(f"rules-oracle: error: --options: {said}")


def test_the_library_refuses_such_options_up_front(two_games: Path) -> None:
    with pytest.raises(BadOptions, match="unknown option 'colour'"):
        rules_oracle.validate_files([two_games], options={"colour": "red"})
    with pytest.raises(BadOptions, match="unknown option 'colour'"):
        rules_oracle.validate_log(two_games / "pillars.jsonl", options={"colour": "red"})
    with pytest.raises(BadOptions, match="unknown option 'colour'"):
        rules_oracle.check_options({"colour": "red"})
    with pytest.raises(BadOptions, match="unknown option 'tie_break'"):
        rules_oracle.check_options({"tie_break": "shared"}, "pillars")
    rules_oracle.check_options({"tie_break": "shared", "end_mode": "immediate"})
    verdicts = rules_oracle.validate_files([two_games], options={"tie_break": "shared"})
    assert [v.kind for v in verdicts] == ["valid", "valid"]
