"""Messages say what is there in words: a rule the engine did not name is not "None", a
JSON error is not "starting at at column", a folder is called a folder, and an output path
that cannot be written is said before the work, not after it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from oracle.formats.log import NotJSON, strict_json
from oracle.games import GameCache
from oracle.protocol import Refusal
from oracle.refengine import LocalEngine
from oracle.replay import Verdict
from oracle.report_text import scenario_text, verdict_text
from oracle.scenarios import run_scenario
from rules_oracle_cli.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios/palmyra/PAL-CHAIN-03-legal-after-icon-tile.yaml"
LOG = ROOT / "examples/palmyra.jsonl"


class RefusesWithoutARule(LocalEngine):
    """An engine under test that refuses every event with ``rule: null``."""

    reference = False

    def apply(self, event: Mapping[str, Any]) -> Refusal | None:
        return Refusal(None, "not now")


def test_a_refusal_naming_no_rule_is_said_in_words() -> None:
    result = run_scenario(SCENARIO, GameCache(), driver=RefusesWithoutARule())
    assert result.status == "fail"
    text = scenario_text(result)
    assert "None" not in text
    assert "step 0 broke a rule it did not name (not now); expected it to be legal" in text


def test_an_illegal_verdict_without_a_rule_id_says_so() -> None:
    verdict = Verdict("g.jsonl", "illegal", "not now", event_index=3, line=5, player="red")
    text = verdict_text(verdict)
    assert "None" not in text
    assert text.startswith("g.jsonl: illegal at event 3 (line 5): red: no rule id (no title)")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('"abc', "not JSON: Unterminated string starting at column 1"),
        ('"a\tb"', "not JSON: Invalid control character at column 3"),
        ("[1,", "not JSON: Expecting value at column 4"),
    ],
)
def test_a_json_error_says_at_once(text: str, said: str) -> None:
    with pytest.raises(NotJSON) as caught:
        strict_json(text)
    assert caught.value.reason == said


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "a-folder"
    path.mkdir()
    return path


def usage_error(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (result.stdout, result.exception)
    assert result.stdout == ""  # nothing was replayed or played before the error
    return result.stderr.strip()


def test_replay_of_a_folder_says_it_is_a_folder(folder: Path, tmp_path: Path) -> None:
    said = usage_error(["replay", str(folder), "-o", str(tmp_path / "r.html")])
    assert (
        said
        == f"rules-oracle: error: {folder} is a folder: name a log (*.jsonl) or a scenario (*.yaml)"
    )


def test_a_folder_named_as_a_profile_or_a_list_says_so(folder: Path) -> None:
    said = usage_error(["validate", str(LOG), "--profile", str(folder)])
    assert said == f"rules-oracle: error: {folder}: a folder, not a profile file (YAML/JSON)"
    said = usage_error(["validate", str(LOG), "--from-list", str(folder)])
    assert said == (
        f"rules-oracle: error: --from-list {folder} is a folder: give a file of log paths, "
        "one a line"
    )


def test_a_file_named_as_the_pages_folder_says_so(tmp_path: Path) -> None:
    page_file = tmp_path / "pages"
    page_file.write_text("", encoding="utf-8")
    said = usage_error(["validate", str(LOG), "--html", str(page_file)])
    assert said == f"rules-oracle: error: --html {page_file} is a file: name a folder for the pages"


@pytest.mark.parametrize("command", ["replay", "play"])
def test_the_output_path_is_checked_before_the_work(
    command: str, folder: Path, tmp_path: Path
) -> None:
    first = [command, str(LOG)] if command == "replay" else ["play", "--game", "palmyra"]
    first += [] if command == "replay" else ["--players", "2"]
    stray = tmp_path / "file"
    stray.write_text("", encoding="utf-8")
    cases = {
        folder: f"--output {folder} is a folder: name the file to write",
        tmp_path / "no-folder" / "r.html": f"cannot write {tmp_path / 'no-folder' / 'r.html'}: "
        f"{tmp_path / 'no-folder'} does not exist",
        stray / "r.html": f"cannot write {stray / 'r.html'}: {stray} is not a folder",
    }
    for output, said in cases.items():
        assert usage_error([*first, "-o", str(output)]) == f"rules-oracle: error: {said}"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_output_folder_that_is_not_writable_is_said_first(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        said = usage_error(["replay", str(LOG), "-o", str(locked / "r.html")])
    finally:
        locked.chmod(0o700)
    assert (
        said == f"rules-oracle: error: cannot write {locked / 'r.html'}: {locked} is not writable"
    )
