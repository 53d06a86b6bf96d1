"""``rules-oracle perft``: a count, divide, a position file or a scenario, a suite; JSON fits
its schema; bad input is a usage error naming the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_schemas import problems
from typer.testing import CliRunner

from rules_oracle_cli.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def perft(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["perft", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def test_a_count_is_the_number_alone() -> None:
    assert perft("--game", "municipium", "--depth", "3") == (0, "343\n")  # 7 x 7 x 7


def test_divide_lists_each_first_event_then_the_total() -> None:
    code, out = perft("--game", "municipium", "--players", "3", "--depth", "2", "--divide")
    assert code == 0
    *rows, blank, total = out.rstrip("\n").split("\n")
    assert blank == "" and total == "16"  # four kinds of citizen, twice (3 players)
    events = [json.loads(row.rsplit(" ", 1)[0]) for row in rows]
    assert [e["kind"] for e in events] == ["soldier", "advocate", "merchant", "priest"]
    assert [int(row.rsplit(" ", 1)[1]) for row in rows] == [4, 4, 4, 4]


def test_the_json_report_fits_its_schema() -> None:
    code, out = perft("--game", "palmyra", "--depth", "2", "--divide", "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert problems("report-perft", report) == []
    assert (report["game"], report["players"], report["position"]) == (
        "palmyra",
        ["red", "blue"],
        "setup",
    )
    assert report["count"] == sum(row["count"] for row in report["divide"]) == 144


def test_worker_processes_print_the_same(tmp_path: Path) -> None:
    args = ("--game", "milestones", "--depth", "4", "--divide")
    assert perft(*args, "--jobs", "2") == perft(*args)


def test_a_position_file_with_events_and_values_set(tmp_path: Path) -> None:
    # Municipium with 2 players: red placed in the temple; blue then places anywhere (7)
    position = tmp_path / "position.yaml"
    position.write_text(
        "game: municipium\nplayers: [red, blue]\n"
        "given:\n  events: [{type: place_member, player: red, institution: temple}]\n"
    )
    assert perft("--position", str(position), "--depth", "2") == (0, "49\n")
    code, out = perft("--position", str(position), "--depth", "1", "--format", "json")
    assert code == 0 and json.loads(out)["position"] == str(position)


def test_a_position_file_with_a_given_state(tmp_path: Path) -> None:
    # docs/api.md's market position: set by path, then counted from there
    position = tmp_path / "market.yaml"
    position.write_text(
        "game: pillars\nplayers: [a, b]\ngiven:\n  state:\n    phase: actions\n"
        "    stage: market\n    queue: [a, b]\n    spaces: {market_1: a, market_2: b,"
        " priory_1: a, priory_2: b, kings_court_1: a, kings_court_2: b}\n"
    )
    code, out = perft("--position", str(position), "--depth", "1", "--divide")
    assert code == 0
    *rows, _, total = out.rstrip("\n").split("\n")
    events = [json.loads(r.rsplit(" ", 1)[0]) for r in rows]
    assert int(total) == len(events) and {e["player"] for e in events} == {"a"}
    assert {"type": "pass_market", "player": "a"} in events
    assert not any(e.get("resource") == "metal" and e["type"] == "buy_resources" for e in events)


def test_a_scenario_file_counts_from_its_given() -> None:
    scenario = ROOT / "scenarios" / "pillars" / "PIL-ADV-08-tax-exemption.yaml"
    code, out = perft("--position", str(scenario), "--depth", "1", "--divide")
    assert code == 0
    *rows, _, total = out.rstrip("\n").split("\n")
    assert int(total) == len(rows) and all(json.loads(r.rsplit(" ", 1)[0]) for r in rows)


def test_a_suite_passes_and_a_wrong_count_fails(tmp_path: Path) -> None:
    head = "format: rules-oracle-perft-suite\nversion: 1\ngame: municipium\npositions:\n"
    good = tmp_path / "good.yaml"
    good.write_text(
        head + "  - {id: a, description: x, players: [red, blue], perft: {1: 7, 2: 49}}\n"
    )
    code, out = perft("--suite", str(good))
    assert code == 0 and out.splitlines()[-1].startswith("1 passed, 0 failed")
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        head + "  - {id: a, description: x, players: [red, blue], perft: {1: 7, 2: 48}}\n"
    )
    code, out = perft("--suite", str(bad), "--format", "json")
    assert code == 1
    report = json.loads(out)
    assert problems("report-perft", report) == []
    assert report["passed"] is False and report["positions"][0]["counted"] == {"1": 7, "2": 49}
    code, out = perft("--suite", str(bad))
    assert code == 1 and f"FAIL a ({bad}:5): perft(2) = 49, the suite says 48" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "pillars"], "--depth"),
        (
            ["--game", "pillars", "--depth", "-1"],
            "--depth counts events: give a whole number, 0 to 100",
        ),
        # deeper counts recursed past Python's stack: an internal error, not the user's
        (
            ["--game", "pillars", "--depth", "101"],
            "--depth counts events: give a whole number, 0 to 100",
        ),
        (["--game", "pillars", "--depth", "100000"], "0 to 100"),
        (["--game", "chess", "--depth", "1"], "unknown game"),
        (["--game", "pillars", "--players", "5", "--depth", "1"], "2 to 4 players"),
        (["--depth", "1"], "--game"),
        (["--game", "pillars", "--depth", "1", "--options", '{"nope": 1}'], "nope"),
        (["--suite", "nowhere.yaml"], "no such suite file"),
        (["--suite", "pillars", "--depth", "2"], "--suite"),
        (["--game", "pillars", "--depth", "1", "--jobs", "-1"], "--jobs"),
    ],
)
def test_usage_errors_exit_2(args: list[str], message: str) -> None:
    code, out = perft(*args)
    assert code == 2 and message in out


def test_a_bad_position_file_names_the_file_and_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: municipium\nplayers: [red, blue]\ngiven: {events: [}\n")
    code, out = perft("--position", str(broken), "--depth", "1")
    assert code == 2 and f"{broken}:3: not valid YAML" in out
    illegal = tmp_path / "illegal.yaml"
    illegal.write_text(
        "game: municipium\nplayers: [red, blue]\n"
        "given: {events: [{type: place_member, player: blue, institution: temple}]}\n"
    )
    code, out = perft("--position", str(illegal), "--depth", "1")
    assert code == 2 and f"{illegal}: events[0]: illegal: MUN-TURN-01" in out
    other = tmp_path / "other.yaml"
    other.write_text("game: municipium\nplayers: [red, blue]\n")
    code, out = perft("--position", str(other), "--game", "pillars", "--depth", "1")
    assert code == 2 and "a municipium position, not pillars" in out
    code, out = perft("--position", str(other), "--players", "2", "--depth", "1")
    assert code == 2 and "--players" in out
