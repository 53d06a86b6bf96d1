"""docs/perft.md says what the suites and the command say: its quoted suite lines are the
suites' own, its console session is what the command prints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from oracle.perft_files import load_suite, suite_path
from rules_oracle_cli.cli import app

DOC = (Path(__file__).resolve().parents[2] / "docs" / "perft.md").read_text(encoding="utf-8")
QUOTED = re.findall(r"```yaml\n# perft/(\w+)\.yaml\n(.*?)```", DOC, re.S)


def test_the_doc_quotes_each_suite() -> None:
    assert sorted(game for game, _ in QUOTED) == ["milestones", "municipium", "palmyra", "pillars"]


@pytest.mark.parametrize(("game", "text"), QUOTED, ids=[game for game, _ in QUOTED])
def test_the_quoted_positions_are_the_suites_own(game: str, text: str) -> None:
    quoted = yaml.safe_load(text)
    entries = quoted["positions"] if isinstance(quoted, dict) else quoted
    suite = {e.id: e for e in load_suite(suite_path(game)).entries}
    first = load_suite(suite_path(game)).entries[0]
    assert entries[0]["id"] == first.id  # the suite's first lines
    for item in entries:
        entry = suite[item["id"]]
        assert tuple(item["players"]) == entry.players
        assert item["perft"] == entry.perft
        assert tuple(item.get("given", {}).get("events", [])) == entry.given.events


def test_the_console_session_is_what_the_command_prints() -> None:
    session = DOC.split("```console\n", 1)[1].split("```", 1)[0]
    runner = CliRunner()
    found = re.findall(r"\$ (rules-oracle [^\n]*)\n(.*?)(?=\$ |\Z)", session, re.S)
    assert len(found) == 2
    for command, expected in found:
        result = runner.invoke(app, command.split()[1:])
        assert result.exit_code == 0, result.output
        assert result.output == expected, command
