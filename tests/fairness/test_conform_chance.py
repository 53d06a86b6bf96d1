"""``conform --part chance``: an engine's own draws, made with ``next`` along seeded
play-outs, tested as a corpus is; a biased engine is reported, ours passes."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rules_oracle_cli.cli import app

ENGINE = Path(__file__).resolve().parent / "biased_engine.py"
SERVE = f"{shlex.quote(sys.executable)} -m rules_oracle_cli serve"
runner = CliRunner()


def engine(*flags: str) -> str:
    return " ".join(shlex.quote(p) for p in [sys.executable, str(ENGINE), *flags])


def conform(command: str, game: str, draws: int, *more: str) -> tuple[int, str]:
    args = ["conform", "--engine", command, "--game", game, "--part", "chance"]
    result = runner.invoke(app, [*args, "--chance-draws", str(draws), *more])
    return result.exit_code, result.output


def test_an_engine_drawing_tiles_by_a_biased_policy_is_reported() -> None:
    code, output = conform(engine("--favour", "tile=L:D", "--weight", "3"), "palmyra", 700)
    assert code == 1, output
    finding = next(line for line in output.splitlines() if line.startswith("FAIL chance"))
    assert "biased" in finding and "palmyra tile draws (draw_tile)" in finding
    assert "furthest from expectation: L:D: observed" in finding


def test_the_json_report_names_the_groups() -> None:
    code, output = conform(
        engine("--favour", "tile=L:D", "--weight", "3"), "palmyra", 700, "--format", "json"
    )
    assert code == 1, output
    report = json.loads(output)
    assert report["settings"]["parts"] == ["chance"]
    cases = [c["name"] for c in report["cases"] if c["part"] == "chance"]
    assert cases[0] == "chance play-outs"
    assert any(
        c.startswith("palmyra tile draws (draw_tile):") and c.endswith("BIASED") for c in cases
    )
    [finding] = report["findings"]
    assert finding["kind"] == "biased" and finding["theirs"][0]["label"] == "L:D"


def test_an_engine_reseeded_alike_every_game_is_reported() -> None:
    # Fair draws within each game, but every new_game seeds the generator with the same
    # seed: the j-th tile draw of a game follows the j-th of the game before.
    code, output = conform(engine("--reseed", "--seed", "3"), "palmyra", 700, "--format", "json")
    assert code == 1, output
    [finding] = json.loads(output)["findings"]
    assert finding["kind"] == "biased"
    # The deciding test is one of the two that set a game against the game before.
    assert "independence: each draw against the same" in finding["message"]
    assert "a game before" in finding["message"]


def test_a_fair_engine_with_few_draws_passes_as_insufficient() -> None:
    code, output = conform(engine(), "municipium", 300)
    assert code == 0, output
    chance = [line for line in output.splitlines() if line.startswith("chance: ")]
    assert chance and all(line.endswith("INSUFFICIENT") for line in chance)


def test_an_engine_without_next_is_a_finding() -> None:
    code, output = conform(engine("--no-next"), "municipium", 300)
    assert code == 1
    assert "FAIL chance no_next" in output


@pytest.mark.slow
def test_rules_oracle_serve_passes() -> None:
    code, output = conform(f"{SERVE} --game municipium --seed 5", "municipium", 6000)
    assert code == 0, output
    chance = [line for line in output.splitlines() if line.startswith("chance: ")]
    assert len(chance) == 2 and all(line.endswith(": FAIR") for line in chance), chance


def test_the_option_matrix_plays_each_setting_with_its_own_player_count() -> None:
    # Palmyra's matrix holds the solo game (one player): each chance play-out takes its
    # setting's players and options (the run's own options with one player were an
    # internal error), as the playout part does.
    code, output = conform(
        f"{SERVE} --game palmyra", "palmyra", 600, "--option-matrix", "--format", "json"
    )
    assert code == 0, output
    report = json.loads(output)
    modes = {s.get("mode", "standard") for s in report["option_settings"]}
    assert modes == {"standard", "advanced", "solo"}, report["option_settings"]
