"""Reproducers of a hostile fuzz run, written without looking at the project's own fuzzer:
each failed on the code before its fix (exit 3, a report that was not JSON, a lost report).

Every bad input ends as the user's problem: a verdict naming the file and line, an ERROR
result, or a usage error (exit 2); never exit 3, never a lost report, never a report that
breaks its own format (RFC 8259 JSON has no NaN or Infinity).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from oracle.formats.log import NotJSON, decode_line, strict_json
from oracle.play import PLAYER_NAMES, play_lines
from reference.registry import make_game
from rules_oracle_cli.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def rfc_json(text: str) -> Any:
    """``text`` read as RFC 8259 JSON: NaN, Infinity and -Infinity are not values."""

    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def two_player_log(game: str) -> list[str]:
    return list(play_lines(make_game(game, {}), PLAYER_NAMES[:2], 0, {}))


def write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- numbers JSON does not have ------------------------------------------------------------


@pytest.mark.parametrize("number", ["1e999", "-1e999", "1E400", "123456789e999"])
def test_a_number_too_large_for_a_float_is_not_json(number: str) -> None:
    with pytest.raises(NotJSON, match="too large a number"):
        strict_json(f'{{"a": {number}}}')
    with pytest.raises(Exception, match=r"line 7: not strict JSON: .*too large"):
        decode_line(7, f'{{"a": [{number}]}}\n'.encode())


def test_large_finite_numbers_are_still_read() -> None:
    assert strict_json("[1.5e308, -2.5e-300, 10]") == [1.5e308, -2.5e-300, 10]


def test_a_log_with_an_infinite_claim_is_malformed_and_the_report_is_json(
    tmp_path: Path,
) -> None:
    lines = two_player_log("palmyra")
    record = json.loads(lines[3])
    record["state"] = {"bank": 12345}
    text = json.dumps(record).replace("12345", "1e999")
    bad = write(tmp_path, "bad.jsonl", [*lines[:3], text, *lines[4:]])
    good = write(tmp_path, "good.jsonl", lines)
    result = runner.invoke(app, ["validate", "--format", "json", str(bad), str(good)])
    assert result.exit_code == 1
    report = rfc_json(result.stdout)
    kinds = {Path(r["file"]).name: (r["status"], r["line"]) for r in report["results"]}
    assert kinds == {"bad.jsonl": ("malformed", 4), "good.jsonl": ("valid", None)}


def test_an_engine_answering_infinity_is_flagged(tmp_path: Path) -> None:
    # a fake engine: our serve, with every state value it sends written as 1e999
    script = tmp_path / "engine.py"
    script.write_text(
        "import sys, json, subprocess\n"
        "proc = subprocess.Popen([sys.executable, '-m', 'rules_oracle_cli', 'serve',"
        " '--game', 'palmyra'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)\n"
        "for line in sys.stdin:\n"
        "    proc.stdin.write(line); proc.stdin.flush()\n"
        "    answer = proc.stdout.readline()\n"
        "    if json.loads(line).get('op') == 'state':\n"
        "        data = json.loads(answer)\n"
        "        data['values'] = {k: 0 for k in data['values']}\n"
        "        answer = json.dumps(data).replace(': 0', ': 1e999') + '\\n'\n"
        "    sys.stdout.write(answer); sys.stdout.flush()\n",
        encoding="utf-8",
    )
    import sys

    engine = f"{sys.executable} {script}"
    result = runner.invoke(
        app,
        ["conform", "--engine", engine, "--game", "palmyra", "--players", "2", "--games", "1"]
        + ["--part", "playout", "--format", "json", "--shrink-seconds", "0"],
    )
    assert result.exit_code == 1, result.stdout
    report = rfc_json(result.stdout)
    kinds = [f["kind"] for f in report["findings"]]
    assert kinds and kinds[0] in ("garbage", "shape"), kinds


# --- text no encoding can write ----------------------------------------------------------


def with_lone_surrogate(lines: list[str]) -> list[str]:
    """The log with a player field of its first event holding a lone surrogate (JSON
    allows the escape ``\\ud800``; Python reads it as a str it cannot encode)."""
    record = json.loads(lines[1])
    record["player"] = "\ud800x"
    return [lines[0], json.dumps(record), *lines[2:]]


def test_a_lone_surrogate_costs_no_verdict_and_no_page(tmp_path: Path) -> None:
    lines = two_player_log("palmyra")
    bad = write(tmp_path, "bad.jsonl", with_lone_surrogate(lines))
    good = write(tmp_path, "good.jsonl", lines)
    pages = tmp_path / "pages"
    result = runner.invoke(
        app, ["validate", "--format", "json", "--html", str(pages), str(bad), str(good)]
    )
    assert result.exit_code == 1
    statuses = [r["status"] for r in rfc_json(result.stdout)["results"]]
    assert statuses == ["malformed", "valid"]
    page = (pages / "bad.html").read_text(encoding="utf-8")
    assert "\\ud800x" in page  # the escape, which the page's script reads back as written


def test_replay_writes_a_page_of_a_log_with_a_lone_surrogate(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.jsonl", with_lone_surrogate(two_player_log("milestones")))
    out = tmp_path / "r.html"
    result = runner.invoke(app, ["replay", str(bad), "-o", str(out)])
    assert result.exit_code == 1
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_page_that_cannot_be_written_loses_no_verdict(tmp_path: Path) -> None:
    lines = two_player_log("palmyra")
    bad = write(tmp_path, "bad.jsonl", lines[:3] + ['{"type": "nothing"}'])
    good = write(tmp_path, "good.jsonl", lines)
    pages = tmp_path / "pages"
    (pages / "bad.html").mkdir(parents=True)  # a folder where the page would go
    result = runner.invoke(
        app, ["validate", "--format", "json", "--html", str(pages), str(bad), str(good)]
    )
    assert result.exit_code == 2
    assert [r["status"] for r in rfc_json(result.stdout)["results"]] == ["malformed", "valid"]
    assert f"cannot write {pages / 'bad.html'}" in result.stderr


# --- positions checked whole before any rule runs ----------------------------------------

MUNICIPIUM_OVER = ROOT / "scenarios/municipium/CORE-END-01-municipium-no-event-after-the-end.yaml"
PALMYRA_LEGAL = ROOT / "scenarios/palmyra/PAL-CHAIN-03-legal-after-icon-tile.yaml"


def scenario_result(tmp_path: Path, text: str) -> dict[str, Any]:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["scenarios", str(path), "--format", "json"])
    assert result.exit_code == 1, result.stdout
    (item,) = rfc_json(result.stdout)["results"]
    return dict(item)


def test_a_members_map_without_every_institution_is_an_error(tmp_path: Path) -> None:
    text = MUNICIPIUM_OVER.read_text(encoding="utf-8").replace(
        "players.a.members: {temple: 7, tavern: 0, baths: 0, emporium: 0, basilica: 0, "
        "forum: 0, praetorium: 0}",
        "players.a.members: {temple: 7, tavern: 0, baths: 0, emporium: 0, basilica: 0, forum: 0}",
    )
    item = scenario_result(tmp_path, text.replace("phase: over", "phase: draw"))
    assert item["status"] == "error"
    assert "players.a.members lacks praetorium" in item["message"]


def test_a_map_naming_a_stranger_institution_is_an_error(tmp_path: Path) -> None:
    text = MUNICIPIUM_OVER.read_text(encoding="utf-8").replace("praetorium: 0}", "latrine: 0}", 1)
    item = scenario_result(tmp_path, text)
    assert item["status"] == "error"
    assert "has latrine" in item["message"] and "lacks praetorium" in item["message"]


def test_a_pillars_queue_naming_no_player_is_an_error() -> None:
    import rules_oracle

    position = rules_oracle.load("pillars").setup(["red", "blue"])
    with pytest.raises(rules_oracle.Malformed, match="queue names 'zz', who is not playing"):
        position.with_values({"queue": ["zz"]})


@pytest.mark.parametrize("which", ["includes", "excludes"])
def test_a_listed_event_naming_what_the_game_lacks_is_an_error(tmp_path: Path, which: str) -> None:
    stranger = "    - {type: place_tile, player: a, tile: 'zz', cell: '1,0'}\n"
    text = PALMYRA_LEGAL.read_text(encoding="utf-8").replace(
        f"  {which}:\n", f"  {which}:\n{stranger}"
    )
    item = scenario_result(tmp_path, text)
    assert item["status"] == "error"
    assert item["message"].startswith(f"expect.legal.{which}[0]: 'zz' is no tile code")


# --- serve survives any stream -------------------------------------------------------------


def serve_answers(requests: list[dict[str, Any]]) -> tuple[int, list[dict[str, Any]]]:
    """Our serve's exit code and its answers to ``requests`` (one line each)."""
    import io

    from oracle.serve import serve

    data = "".join(json.dumps(r) + "\n" for r in requests).encode()
    out = io.StringIO()
    code = serve(("pillars", "milestones", "palmyra", "municipium"), 0, io.BytesIO(data), out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_set_state_with_an_incomplete_map_is_refused_and_the_session_goes_on() -> None:
    members = {"temple": 1, "tavern": 0}  # five institutions missing
    code, answers = serve_answers(
        [
            {"op": "new_game", "game": "municipium", "players": ["red", "blue"]},
            {"op": "set_state", "values": {"players.red.members": members}},
            {"op": "next"},
            {"op": "to_act"},
        ]
    )
    assert code == 0 and len(answers) == 4
    assert answers[1]["ok"] is False and "players.red.members lacks" in answers[1]["error"]
    assert answers[2]["ok"] is True and answers[3]["ok"] is True


@pytest.mark.parametrize("name", ["é", "²", "a b", "chance"])
def test_a_player_name_the_schemas_refuse_is_refused_everywhere(tmp_path: Path, name: str) -> None:
    code, answers = serve_answers(
        [{"op": "new_game", "game": "palmyra", "players": ["red", name]}, {"op": "to_act"}]
    )
    assert code == 0 and answers[0]["ok"] is False and "bad player name" in answers[0]["error"]
    lines = two_player_log("palmyra")
    header = json.loads(lines[0])
    header["players"] = ["red", name]
    log = write(tmp_path, "g.jsonl", [json.dumps(header), *lines[1:]])
    result = runner.invoke(app, ["validate", "--format", "json", str(log)])
    assert result.exit_code == 1
    (item,) = rfc_json(result.stdout)["results"]
    assert (item["status"], item["line"]) == ("malformed", 1)


@pytest.mark.parametrize("version", ["true", "1.0", '"1"', "null"])
def test_a_version_that_is_not_the_number_1_is_malformed(tmp_path: Path, version: str) -> None:
    lines = two_player_log("milestones")
    header = lines[0].replace('"version": 1', f'"version": {version}')
    assert header != lines[0]
    log = write(tmp_path, "g.jsonl", [header, *lines[1:]])
    result = runner.invoke(app, ["validate", "--format", "json", str(log)])
    assert result.exit_code == 1
    (item,) = rfc_json(result.stdout)["results"]
    assert item["status"] == "malformed"
    assert f"unsupported log version {version}" in item["message"]


@pytest.mark.parametrize("protocol", [True, 1.0, "1"])
def test_hello_with_a_protocol_that_is_not_the_number_1_is_refused(protocol: Any) -> None:
    code, answers = serve_answers([{"op": "hello", "protocol": protocol}])
    assert code == 0 and answers[0]["ok"] is False and "unknown (known: 1)" in answers[0]["error"]
