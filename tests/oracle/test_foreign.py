"""Matching a foreign implementation: options shown by explain, aliases, the SAULEN profile."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.games import GameCache
from oracle.replay import validate_log
from reference.core.aliases import load_aliases
from reference.registry import make_game
from rules_oracle_cli.cli import app

runner = CliRunner()


def explain(word: str) -> str:
    result = runner.invoke(app, ["explain", word])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(
    ("rule_id", "line"),
    [
        ("PIL-EVENT-04", "option: archbishop_timing (values: event, cathedral; default event)"),
        ("PIL-MARKET-11", "option: market_builders (values: first, last, each; default first)"),
        (
            "PIL-BUILD-11",
            "option: ordered_spaces (values: first_free, any_free; default first_free)",
        ),
    ],
)
def test_explain_shows_each_new_option_and_its_values(rule_id: str, line: str) -> None:
    assert line in explain(rule_id).splitlines()


def test_pil_event_04_says_the_event_timing_is_unsourced() -> None:
    text = explain("PIL-EVENT-04")
    assert "SAULEN: the choice is asked at step 13" in text
    assert "no source says so (an unsourced ruling)" in text


def test_every_game_alias_file_loads_and_names_something() -> None:
    for name in ("pillars", "milestones", "palmyra", "municipium"):
        game = make_game(name, {})
        aliases = load_aliases(game.package_dir)  # type: ignore[attr-defined]
        assert aliases, name
        assert all(a.alias and a.means and a.source for a in aliases)


def test_explain_an_alias_points_to_what_it_names() -> None:
    text = explain("Wollmesse")
    assert text.startswith("Wollmesse (pillars): German name of advantage card wool_fair")
    assert "PIL-ADV-01" in text
    assert "Teile (pillars)" in explain("teile")
    assert "division" in explain("teile")


def test_explain_one_of_our_ids_lists_its_other_names() -> None:
    assert "Steuerfreiheit (German" in explain("tax_exemption")


def test_an_unknown_word_is_a_usage_error() -> None:
    result = runner.invoke(app, ["explain", "Nirgendwo"])
    assert isinstance(result.exception, SystemExit)
    assert result.exit_code == 2


def test_a_log_never_accepts_an_alias(tmp_path: Path) -> None:
    """Logs keep one vocabulary: SAULEN's German card name is not a card id."""
    header = {"format": "rules-oracle-log", "version": 1, "game": "pillars"}
    header |= {"players": ["red", "blue"], "options": {}}
    event = {"type": "reveal_advantages", "cards": ["Wollmesse", "thomas"]}
    log = tmp_path / "alias.jsonl"
    log.write_text(json.dumps(header) + "\n" + json.dumps(event) + "\n")
    verdict = validate_log(log, GameCache())
    assert verdict.kind == "illegal"
    assert verdict.rule_id == "PIL-ROUND-01"


REPO = Path(__file__).resolve().parents[2]
SAULEN_PROFILE = REPO / "profiles" / "pillars-saulen.yaml"
SAULEN_OPTIONS = REPO / "profiles" / "pillars-saulen-options.json"


@pytest.mark.parametrize("seed", [1, 2])
def test_the_saulen_profile_loads_plays_and_validates(seed: int, tmp_path: Path) -> None:
    log = tmp_path / "saulen.jsonl"
    args = ["play", "--game", "pillars", "--players", "4", "--seed", str(seed)]
    args += ["--profile", str(SAULEN_PROFILE), "--options", SAULEN_OPTIONS.read_text()]
    result = runner.invoke(app, [*args, "-o", str(log)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 0, result.output
    header = json.loads(log.read_text().splitlines()[0])
    assert header["options"]["archbishop_timing"] == "cathedral"
    assert header["options"]["market_builders"] == "last"
    unlimited = dict.fromkeys(("sand", "wood", "stone", "metal"))
    assert header["options"]["profile"] == {"board.gold_cap": 30, "setup.cubes": unlimited}
    assert validate_log(log, GameCache()).kind == "valid"


def test_placeholder_note_once_per_run_in_text_always_in_json(tmp_path: Path) -> None:
    for seed in (1, 2, 3):
        args = ["play", "--game", "pillars", "--players", "2", "--seed", str(seed)]
        result = runner.invoke(app, [*args, "-o", str(tmp_path / f"g{seed}.jsonl")])
        assert result.exit_code == 0, result.output
    text = runner.invoke(app, ["validate", str(tmp_path)])
    assert text.exception is None or isinstance(text.exception, SystemExit)
    assert text.exit_code == 0, text.output
    assert text.output.count(": valid (pillars") == 3
    assert text.output.count("placeholder data in force") == 1
    data = runner.invoke(app, ["validate", str(tmp_path), "--format", "json"])
    assert data.exit_code == 0, data.output
    verdicts = json.loads(data.output)["results"]
    assert len(verdicts) == 3
    assert all("board.capacity_market" in v["placeholders"] for v in verdicts)


def saulen_commands() -> list[str]:
    """The commands of the SAULEN profile's own example (its opening comment), each
    joined across its continuation lines."""
    commands: list[str] = []
    going = False
    for line in SAULEN_PROFILE.read_text().splitlines():
        text = line.removeprefix("#").strip()
        if going:
            commands[-1] += " " + text.removesuffix("\\").strip()
        elif text.startswith("rules-oracle "):
            commands.append(text.removesuffix("\\").strip())
        going = text.endswith("\\")
    return commands


def test_the_saulen_profile_example_runs_as_written(tmp_path: Path) -> None:
    """Its play command writes a log; its validate command, run on a folder of them,
    finds it valid (the header carries SAULEN's options, as the example says)."""
    play, check = saulen_commands()
    assert play.startswith("rules-oracle play ") and check.startswith("rules-oracle validate ")
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    logs = tmp_path / "saulen-logs"
    logs.mkdir()

    def run(command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-c", command], cwd=REPO, env=env, capture_output=True, text=True, check=False
        )

    made = run(play)
    assert made.returncode == 0, made.stderr
    (logs / "game.jsonl").write_text(made.stdout)
    checked = run(check.replace("saulen-logs/", f"{logs}/"))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "1 logs: 1 valid" in checked.stdout
