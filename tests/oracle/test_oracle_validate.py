"""validate: every verdict kind, on the toy dice race, through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.games import GameCache
from oracle.play import play_lines
from rules_oracle_cli.cli import app

runner = CliRunner()


def toy_log(seed: int = 1, players: tuple[str, ...] = ("red", "blue")) -> list[str]:
    return list(play_lines(GameCache().get("toy", {}), players, seed, {}))


def write(tmp_path: Path, lines: list[str], name: str = "g.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_json(*args: str) -> tuple[int, list[dict[str, object]]]:
    result = runner.invoke(app, ["validate", "--format", "json", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, json.loads(result.stdout)["results"]


@pytest.mark.parametrize("seed", range(20))
def test_play_then_validate_is_valid(tmp_path: Path, seed: int) -> None:
    out = tmp_path / "g.jsonl"
    assert (
        runner.invoke(
            app, ["play", "--game", "toy", "--players", "3", "--seed", str(seed), "-o", str(out)]
        ).exit_code
        == 0
    )
    code, verdicts = run_json(str(out))
    assert code == 0
    assert verdicts[0]["status"] == "valid"


def test_same_seed_same_log() -> None:
    assert toy_log(5) == toy_log(5)
    assert toy_log(5) != toy_log(6)


def test_tampered_claim_is_divergent_at_that_event(tmp_path: Path) -> None:
    lines = toy_log(2)
    record = json.loads(lines[2])  # event index 1: red's first action
    assert record["type"] in ("advance", "bank")
    record["state"]["players.red.coins"] += 7
    lines[2] = json.dumps(record)
    code, (v,) = run_json(str(write(tmp_path, lines)))
    assert code == 1
    assert (v["status"], v["event_index"], v["line"]) == ("divergent", 1, 3)
    assert v["divergences"][0]["path"] == "players.red.coins"
    assert v["divergences"][0]["claimed"] == v["divergences"][0]["reference"] + 7


def test_illegal_move_names_rule_and_source(tmp_path: Path) -> None:
    lines = toy_log(3)
    roll = json.loads(lines[1])["value"]
    lines[2] = json.dumps({"type": "advance", "player": "red", "steps": roll + 1})
    code, (v,) = run_json(str(write(tmp_path, lines)))
    assert code == 1
    assert (v["status"], v["event_index"], v["rule_id"], v["player"]) == (
        "illegal",
        1,
        "TOY-MOVE-01",
        "red",
    )
    assert "made up for tests" in v["citation"]
    assert v["placeholders"] == []  # TOY-MOVE-01 rests on no placeholder


def test_illegal_on_placeholder_rule_says_so(tmp_path: Path) -> None:
    lines = toy_log(3)
    lines[1] = json.dumps({"type": "roll", "value": 6})
    code, (v,) = run_json(str(write(tmp_path, lines)))
    assert (v["status"], v["rule_id"]) == ("illegal", "TOY-ROLL-01")
    # The rule and the data key it rests on are both placeholders: named as keys.
    assert (v["placeholder_rules"], v["placeholders"]) == (["TOY-ROLL-01"], ["dice.faces"])
    text = runner.invoke(app, ["validate", str(write(tmp_path, lines))]).stdout
    assert "rests on unconfirmed values" in text


def test_wrong_player_is_turn_violation(tmp_path: Path) -> None:
    lines = toy_log(3)
    record = json.loads(lines[2])
    record["player"] = "blue"
    record.pop("state")
    lines[2] = json.dumps(record)
    _, (v,) = run_json(str(write(tmp_path, lines)))
    assert (v["status"], v["rule_id"]) == ("illegal", "TOY-TURN-01")


def test_profile_changes_the_verdict(tmp_path: Path) -> None:
    lines = toy_log(3)
    lines[1] = json.dumps({"type": "roll", "value": 6})
    lines = lines[:2]
    log = write(tmp_path, lines)
    profile = tmp_path / "profile.yaml"
    profile.write_text("dice.faces: [4, 5, 6]\n")
    code, (v,) = run_json("--profile", str(profile), str(log))
    assert (code, v["status"]) == (0, "incomplete")
    assert v["placeholders"] == []  # the profile replaced the only placeholder


@pytest.mark.parametrize(
    ("line_no", "text", "reason"),
    [
        (3, '{"type": "advance", "player": "red"', "not JSON"),
        (3, "[1, 2]", "JSON object"),
        (3, '{"type": "fly", "player": "red"}', "unknown event type 'fly'"),
        (3, '{"type": "advance", "player": "red", "steps": "2"}', "expected int"),
        (3, '{"type": "advance", "player": "red"}', "steps"),
        (3, '{"type": "bank", "player": "red", "tip": 1}', "tip"),
        (3, '{"player": "red"}', "'type'"),
        (3, "", "blank line"),
        (3, '{"type": "bank", "player": "red", "state": {"players.red.gems": 1}}', "gems"),
        (3, '{"type": "bank", "player": "red", "state": [1]}', "'state'"),
    ],
)
def test_malformed_lines_give_line_and_reason(
    tmp_path: Path, line_no: int, text: str, reason: str
) -> None:
    lines = toy_log(4)
    lines[line_no - 1] = text
    result = runner.invoke(app, ["validate", str(write(tmp_path, lines))])
    assert result.exit_code == 1
    assert f"malformed at event 1 (line {line_no})" in result.stdout or (
        f"malformed (line {line_no})" in result.stdout
    )
    assert reason in result.stdout
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(
    ("header", "reason"),
    [
        ('{"format": "other", "version": 1}', "header"),
        ('{"format": "rules-oracle-log", "version": 9, "game": "toy", "players": []}', "version"),
        (
            '{"format": "rules-oracle-log", "version": 1, "game": "chess", "players": ["a", "b"]}',
            "unknown game",
        ),
        ('{"format": "rules-oracle-log", "version": 1, "game": "toy", "players": ["a"]}', "2 to 4"),
        (
            '{"format": "rules-oracle-log", "version": 1, "game": "toy", "players": ["a", "a"]}',
            "unique",
        ),
        (
            '{"format": "rules-oracle-log", "version": 1, "game": "toy", "players": ["a", "b"], '
            '"options": {"goal": "x"}}',
            "goal",
        ),
        (
            '{"format": "rules-oracle-log", "version": 1, "game": "toy", "players": ["a", "b"], '
            '"options": {"speed": 2}}',
            "speed",
        ),
        (
            '{"format": "rules-oracle-log", "version": 1, "game": "toy", "players": ["a", "b"], '
            '"options": {"profile": {"dice.colour": 2}}}',
            "unknown data key",
        ),
    ],
)
def test_bad_headers_are_malformed_line_1(tmp_path: Path, header: str, reason: str) -> None:
    code, (v,) = run_json(str(write(tmp_path, [header])))
    assert (code, v["status"], v["line"]) == (1, "malformed", 1)
    assert reason in v["message"]


def test_binary_and_empty_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(toy_log()[0].encode() + b"\n\xff\xfe\x00\n")
    code, verdicts = run_json(str(empty), str(binary))
    assert code == 1
    assert [v["status"] for v in verdicts] == ["malformed", "malformed"]
    assert "empty" in str(verdicts[0]["message"])
    assert verdicts[1]["line"] == 2 and "UTF-8" in str(verdicts[1]["message"])


def test_truncated_log_is_incomplete_and_fails_only_when_strict(tmp_path: Path) -> None:
    log = write(tmp_path, toy_log(1)[:6])
    code, (v,) = run_json(str(log))
    assert (code, v["status"], v["events"]) == (0, "incomplete", 5)
    code, _ = run_json("--strict", str(log))
    assert code == 1


def test_wrong_result_is_divergent(tmp_path: Path) -> None:
    lines = toy_log(1)
    result = json.loads(lines[-1])
    result["result"]["winners"] = ["nobody"]
    lines[-1] = json.dumps(result)
    code, (v,) = run_json(str(write(tmp_path, lines)))
    assert (code, v["status"]) == (1, "divergent")
    assert v["divergences"][0]["path"] == "result.winners"


def test_event_after_the_end_is_illegal(tmp_path: Path) -> None:
    lines = toy_log(1)
    lines[-1] = json.dumps({"type": "roll", "value": 1})
    code, (v,) = run_json(str(write(tmp_path, lines)))
    assert (code, v["status"], v["rule_id"]) == (1, "illegal", "CORE-END-01")


def test_result_before_the_end_is_divergent(tmp_path: Path) -> None:
    lines = toy_log(1)
    lines = [*lines[:4], lines[-1]]
    code, (v,) = run_json(str(write(tmp_path, lines)))
    assert (code, v["status"]) == (1, "divergent")
    assert "not over" in str(v["message"])


def test_at_prints_reference_state(tmp_path: Path) -> None:
    lines = toy_log(1)
    log = write(tmp_path, lines)
    code, (v,) = run_json("--at", "1", str(log))
    roll = json.loads(lines[1])["value"]
    assert v["state_at"]["roll"] == roll and v["state_at"]["turn"] == 0
    text = runner.invoke(app, ["validate", "--at", "0", str(log)]).stdout
    assert '"turn": 0' in text


def test_many_files_and_folders(tmp_path: Path) -> None:
    for seed in range(3):
        write(tmp_path, toy_log(seed), f"g{seed}.jsonl")
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", toy_log(9)[:3], "short.jsonl")
    code, verdicts = run_json(str(tmp_path))
    assert code == 0
    assert sorted(v["status"] for v in verdicts) == ["incomplete", "valid", "valid", "valid"]


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2
    assert "no such file" in result.stderr
    assert runner.invoke(app, ["validate", "--format", "xml", "x"]).exit_code == 2
    assert runner.invoke(app, ["play", "--game", "toy", "--players", "9"]).exit_code == 2
    assert runner.invoke(app, ["play", "--game", "nope", "--players", "2"]).exit_code == 2


def test_internal_error_is_ours_not_the_users(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import toygame

    def broken(self: object, state: object) -> list[str]:
        return ["coins appeared from nowhere"]

    log = write(tmp_path, toy_log(1))
    monkeypatch.setattr(toygame.ToyGame, "invariant_failures", broken)
    code, (v,) = run_json(str(log))
    assert (code, v["status"]) == (3, "internal_error")
    assert v["rule_id"] is None
    assert "please report" in str(v["message"])

    def crash(self: object, state: object, event: object) -> object:
        raise KeyError("oops")

    # step calls the shell's apply_not_over (apply without its second end check).
    monkeypatch.setattr(toygame.ToyGame, "apply_not_over", crash)
    code, (v,) = run_json(str(log))
    assert (code, v["status"]) == (3, "internal_error")
    assert "KeyError" in str(v["message"])  # the crash, not the broken invariant above
    assert "coins appeared" not in str(v["message"])


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"type": "bank", "player": "red", "n": ' + "9" * 5000 + "}", "not usable JSON"),
        ('{"type": "bank", "player": "red", "n": NaN}', "NaN is not a JSON value"),
        ('{"type": "bank", "player": "red", "player": "blue"}', "'player' appears twice"),
    ],
)
def test_hostile_json_is_malformed_not_our_error(tmp_path: Path, text: str, reason: str) -> None:
    lines = toy_log(4)
    lines[2] = text
    code, (v,) = run_json(str(write(tmp_path, lines)))
    assert (code, v["status"], v["line"]) == (1, "malformed", 3)
    assert reason in str(v["message"])


def test_an_empty_folder_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2
    assert "no log files" in result.stderr


def test_junit_report_counts_failures(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    good = write(tmp_path, toy_log(1), "good.jsonl")
    lines = toy_log(3)
    lines[1] = json.dumps({"type": "roll", "value": 6})
    bad = write(tmp_path, lines, "bad.jsonl")
    result = runner.invoke(app, ["validate", "--format", "junit", str(good), str(bad)])
    assert result.exit_code == 1
    suite = ET.fromstring(result.stdout)
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "1", "0")
    failure = suite.find("testcase[@name='" + str(bad) + "']/failure")
    assert failure is not None and "TOY-ROLL-01" in (failure.text or "")
