"""Reports are total: deep and huge values render, any player name renders in every format,
and one bad log never costs the others their verdicts.

Reproducers of a fuzz run, each failing on the code before its fix. Each bad input must
end as the user's problem: a verdict naming the file and line, an ERROR result, or a usage
error (exit 2); never exit 3, never a lost report (expected exit codes: docs/cli.md)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from bad_input import played, runner, validate_json, with_claim, write_log
from fuzz_inputs import nested

from oracle.formats.log import header_line
from oracle.replay import Divergence, Verdict
from oracle.report import verdict_json, verdict_text, verdicts_junit
from rules_oracle_cli.cli import app


def test_a_deeply_nested_claim_keeps_the_whole_json_report(tmp_path: Path) -> None:
    lines = list(played("milestones")[:3])
    deep = lines.copy()
    deep[1] = with_claim(deep[1], "phase", nested(300))
    code, verdicts = validate_json(
        str(write_log(tmp_path, deep, "a.jsonl")), str(write_log(tmp_path, lines, "b.jsonl"))
    )
    assert code == 1
    assert [v["status"] for v in verdicts] == ["malformed", "incomplete"]
    assert "nested deeper than 64 levels" in verdicts[0]["message"]


def test_renderers_are_total_on_deep_and_huge_values() -> None:
    claimed = nested(3000, "\ud800" * 3 + "\x00" + "x" * 100_000)
    verdict = Verdict(
        "g\ud800.jsonl",
        "divergent",
        "1 claimed value differs \x1b[31m",
        divergences=(Divergence("players.\x00", claimed, {"\udfff": [1]}),),
    )
    text = verdict_text(verdict)
    text.encode("utf-8")
    assert "\x1b" not in text and "\\x1b" in text
    assert len(text) < 10_000
    json.loads(json.dumps(verdict_json(verdict)))
    ET.fromstring(verdicts_junit([verdict], strict=False))


@pytest.mark.parametrize("name", ["\ud800", "a\x1b[2Jb", "nul\x00", "\x0b\x0c", "\ufffe"])
@pytest.mark.parametrize("fmt", ["text", "json", "junit"])
def test_any_player_name_renders_in_every_format(tmp_path: Path, name: str, fmt: str) -> None:
    move = next(json.loads(line) for line in played("milestones") if '"player"' in line)
    move["player"] = name  # no player of the game: a malformed verdict names the player
    lines = [header_line("milestones", ("red", "blue"), {}), json.dumps(move)]
    result = runner.invoke(app, ["validate", "--format", fmt, str(write_log(tmp_path, lines))])
    assert result.exit_code == 1
    out = result.stdout
    out.encode("utf-8")
    if fmt == "json":
        (verdict,) = json.loads(out)["results"]
        assert (verdict["status"], verdict["line"]) == ("malformed", 2)
        assert verdict["player"] == name.replace("\ud800", "\ufffd")
    elif fmt == "junit":
        assert len(ET.fromstring(out).findall("testcase")) == 1
    else:
        assert "\x1b" not in out and "\x00" not in out
