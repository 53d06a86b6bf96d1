"""The scenario runner: pass, fail and broken files, on the toy dice race."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.games import GameCache
from oracle.scenarios import run_all, run_scenario
from rules_oracle_cli.cli import app

HERE = Path(__file__).parent / "toy_scenarios"
runner = CliRunner()


def test_good_toy_scenarios_pass() -> None:
    results = run_all([HERE], GameCache(), None)
    assert [(r.id, r.status, r.reason) for r in results] == [
        ("TOY-MOVE-01-advance-by-roll", "pass", ""),
        ("TOY-END-given-position", "pass", ""),
        ("TOY-MOVE-01-wrong-steps", "pass", ""),
        ("TOY-MOVE-01-legal-after-a-roll", "pass", ""),
    ]
    result = runner.invoke(app, ["scenarios", str(HERE)])
    assert result.exit_code == 0
    assert "4 passed, 0 failed" in result.stdout


def variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (HERE / name).read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new))
    return path


@pytest.mark.parametrize(
    ("name", "old", "new", "status", "reason", "line"),
    [
        (
            "advance.yaml",
            "players.red.position: 2",
            "players.red.position: 3",
            "fail",
            "players.red.position: expected 3, ours 2",
            None,
        ),
        ("advance.yaml", "to_act: chance", "to_act: blue", "fail", "to_act: expected blue", None),
        ("advance.yaml", "steps: 2}", "steps: 1}", "fail", "step 1 broke TOY-MOVE-01", 9),
        ("illegal.yaml", "steps: 3}", "steps: 2}", "fail", "step 1 was legal", 9),
        ("illegal.yaml", "rule: TOY-MOVE-01}", "rule: TOY-ROLL-01}", "error", "must cite", 3),
        ("illegal.yaml", "[TOY-MOVE-01]", "[TOY-MOVE-01, TOY-ROLL-01]", "pass", "", None),
        (
            "advance.yaml",
            "rules: [TOY-MOVE-01]",
            "rules: [TOY-FLY-01]",
            "error",
            "TOY-FLY-01, which is in no toy catalogue",
            None,
        ),
        ("illegal.yaml", "{step: 1,", "{step: 7,", "error", "names no step", 11),
        ("advance.yaml", "type: advance,", "type: hop,", "error", "unknown event type 'hop'", 9),
        ("advance.yaml", "players: [red, blue]", "players: [red]", "error", "2 to 4", None),
        ("advance.yaml", "game: toy", "game: chess", "error", "unknown game", None),
        (
            "given.yaml",
            "players.blue.coins: 5",
            "players.blue.coins: -5",
            "error",
            "given state unsound",
            None,
        ),
        ("given.yaml", "players.blue.coins: 5", "players.blue.gems: 5", "error", "gems", None),
        (
            "given.yaml",
            "players.blue.coins: 5",
            "players.blue.coins: lots",
            "error",
            "expected int",
            None,
        ),
        ("given.yaml", "winners: [blue]", "winners: [red]", "fail", "result.winners", None),
        ("advance.yaml", "source:", "sauce:", "error", "sauce", None),
        (
            "legal.yaml",
            "count: 2",
            "count: 3",
            "fail",
            "legal.count: expected 3, ours lists 2",
            None,
        ),
        ("legal.yaml", "steps: 3}", "steps: 4}", "fail", "breaks a rule here", None),
        ("legal.yaml", "player: blue}", "player: red}", "fail", "is listed here", None),
        ("legal.yaml", "{type: bank, player: blue}", "{type: bank}", "error", "excludes[1]", None),
        ("advance.yaml", "steps:\n", "steps: [\n", "error", "not valid YAML", None),
    ],
)
def test_broken_scenarios_say_why(
    tmp_path: Path, name: str, old: str, new: str, status: str, reason: str, line: int | None
) -> None:
    result = run_scenario(variant(tmp_path, name, old, new), GameCache())
    assert result.status == status
    assert reason in result.reason
    if line is not None:
        assert result.line == line
    cli = runner.invoke(app, ["scenarios", str(tmp_path)])
    assert cli.exception is None or isinstance(cli.exception, SystemExit)
    assert cli.exit_code == (0 if status == "pass" else 1)


def test_duplicate_ids_are_errors(tmp_path: Path) -> None:
    for i in range(2):
        (tmp_path / f"s{i}.yaml").write_text((HERE / "advance.yaml").read_text())
    results = run_all([tmp_path], GameCache(), None)
    assert [r.status for r in results] == ["pass", "error"]
    assert "also used by" in results[1].reason


def test_placeholder_basis_is_reported(tmp_path: Path) -> None:
    path = variant(tmp_path, "illegal.yaml", "rules: [TOY-MOVE-01]", "rules: [TOY-ROLL-01]")
    result = run_scenario(path, GameCache())
    assert result.status == "error"  # expects TOY-MOVE-01 at step 1 but does not cite it
    assert "must cite" in result.reason
    path = variant(tmp_path, "advance.yaml", "rules: [TOY-MOVE-01]", "rules: [TOY-ROLL-01]")
    result = run_scenario(path, GameCache())
    assert result.status == "pass"
    assert any("dice.faces" in p for p in result.placeholders)


def test_given_state_may_add_a_mapping_key_but_not_a_field(tmp_path: Path) -> None:
    path = variant(tmp_path, "given.yaml", "players.blue.coins: 5", "players.green: {}")
    result = run_scenario(path, GameCache())
    assert result.status == "error"  # a new player breaks the seat-order invariant
    assert "unsound" in result.reason
    path = variant(tmp_path, "given.yaml", "players.blue.coins: 5", "players.blue.gold: 1")
    result = run_scenario(path, GameCache())
    assert (result.status, "no field 'gold'" in result.reason) == ("error", True)


def test_a_key_twice_in_a_scenario_is_an_error(tmp_path: Path) -> None:
    path = variant(tmp_path, "advance.yaml", "game: toy\n", "game: toy\ngame: toy\n")
    result = run_scenario(path, GameCache())
    assert (result.status, result.line) == ("error", 3)
    assert "'game' appears twice" in result.reason


def test_junit_report_for_scenarios(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    variant(tmp_path, "advance.yaml", "players.red.position: 2", "players.red.position: 3")
    (tmp_path / "illegal.yaml").write_text((HERE / "illegal.yaml").read_text())
    result = runner.invoke(app, ["scenarios", "--format", "junit", str(tmp_path)])
    assert result.exit_code == 1
    suite = ET.fromstring(result.stdout)
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "1", "0")


def test_legal_check_catches_a_generator_that_disagrees_with_apply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import toygame

    original = toygame.ToyGame.legal_events

    def only_advance(self: toygame.ToyGame, state: toygame.State) -> list[object]:
        return [e for e in original(self, state) if e.type != "bank"]

    monkeypatch.setattr(toygame.ToyGame, "legal_events", only_advance)
    result = run_scenario(HERE / "legal.yaml", GameCache())
    assert result.status == "fail"
    assert 'legal.count: expected 2, ours lists 1: {"type": "advance"' in result.reason
    assert '{"type": "bank", "player": "red"} is not listed here' in result.reason
