"""Issue 12, items 1, 3, 6 and 7: verdicts that say where, what was legal, and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rules_oracle
from rules_oracle_cli.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def example(game: str) -> list[str]:
    return (ROOT / "examples" / f"{game}.jsonl").read_text().splitlines()


def write(tmp_path: Path, lines: list[str], name: str = "log.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def forgot_first_chance_event(tmp_path: Path) -> Path:
    lines = example("pillars")
    del lines[1]  # the round's advantage cards are never revealed
    return write(tmp_path, lines)


def report(*args: str) -> tuple[int, dict[str, object]]:
    result = runner.invoke(app, [*args, "--format", "json"])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, json.loads(result.stdout)


# Item 1: --at gives the reference state even for a log that fails later.


def test_at_zero_on_a_failing_log_gives_the_setup(tmp_path: Path) -> None:
    log = forgot_first_chance_event(tmp_path)
    code, data = report("validate", str(log), "--at", "0")
    [verdict] = data["results"]  # type: ignore[index]
    setup = rules_oracle.load("pillars").setup(["red", "blue"])
    assert (code, verdict["status"]) == (1, "illegal")
    assert verdict["state_at"] == setup.to_json()
    text = runner.invoke(app, ["validate", str(log), "--at", "0"]).stdout
    assert '"gold": 20' in text  # RB p.3: the start player's 20 gold, in the printed state


def test_at_before_the_failing_event_gives_that_state(tmp_path: Path) -> None:
    lines = example("palmyra")
    lines.insert(6, lines[5])  # event 4 again, as event 5
    verdict = rules_oracle.validate_log(write(tmp_path, lines), at=5)
    header = json.loads(lines[0])
    position = rules_oracle.load("palmyra", header["options"]).setup(header["players"])
    for line in lines[1:6]:
        position = position.apply({k: v for k, v in json.loads(line).items() if k != "state"})
    assert verdict.event_index == 5
    assert verdict.state_at == position.to_json()


# Item 3: a bad option value names the option and its choices.


@pytest.mark.parametrize(
    ("game", "option", "value", "choice"),
    [
        ("palmyra", "mode", "advance", "advanced"),
        ("municipium", "end_mode", "first_to_five", "finish_round"),
        ("milestones", "tie_break", "points", "goods_and_coins"),
        ("pillars", "income_cards", "twice", "every_round"),
    ],
)
def test_a_bad_option_value_names_the_option_and_its_choices(
    game: str, option: str, value: str, choice: str
) -> None:
    with pytest.raises(rules_oracle.BadOptions) as caught:
        rules_oracle.load(game, {option: value})
    assert option in caught.value.message
    assert choice in caught.value.message
    assert "@ $" not in caught.value.message


def test_a_flag_is_not_text() -> None:
    with pytest.raises(rules_oracle.BadOptions, match="start_player_rejects"):
        rules_oracle.load("pillars", {"start_player_rejects": "no"})  # was taken as true


def test_an_unknown_option_lists_the_known_ones() -> None:
    with pytest.raises(rules_oracle.BadOptions, match="moode.*mode, icon_match"):
        rules_oracle.load("palmyra", {"moode": "solo"})


# Item 6: one documented report shape.


def test_reports_share_field_names_and_carry_version_and_summary(tmp_path: Path) -> None:
    log = forgot_first_chance_event(tmp_path)
    _, validated = report("validate", str(log), str(ROOT / "examples" / "palmyra.jsonl"))
    one = ROOT / "scenarios" / "pillars" / "PIL-MARKET-04-metal-is-never-bought.yaml"
    _, ran = report("scenarios", str(one))
    for data, command in ((validated, "validate"), (ran, "scenarios")):
        assert (data["format"], data["version"], data["command"]) == (
            "rules-oracle-report",
            1,
            command,
        )
        for result in data["results"]:  # type: ignore[attr-defined]
            assert {"file", "status", "message", "game", "line", "placeholders"} <= set(result)
            assert not {"kind", "log", "path", "reason"} & set(result)
    assert validated["summary"] == {
        "total": 2,
        "passed": 1,
        "failed": 1,
        "by_status": {
            "valid": 1,
            "incomplete": 0,
            "malformed": 0,
            "illegal": 1,
            "divergent": 0,
            "internal_error": 0,
        },
    }
    assert ran["summary"]["by_status"]["pass"] == 1  # type: ignore[index]


def test_events_counts_the_events_before_the_verdicts_event(tmp_path: Path) -> None:
    lines = example("palmyra")
    header = json.loads(lines[0])
    setup = rules_oracle.load("palmyra", header["options"]).setup(header["players"])
    number = next(p for p, v in setup.paths().items() if type(v) is int)
    record = json.loads(lines[3])
    record["state"] = {number: -1000}
    divergent = rules_oracle.validate_log(write(tmp_path, [*lines[:3], json.dumps(record)]))
    illegal = rules_oracle.validate_log(write(tmp_path, [*lines[:3], lines[2]], "b.jsonl"))
    assert (divergent.kind, divergent.event_index, divergent.events) == ("divergent", 2, 2)
    assert (illegal.kind, illegal.event_index, illegal.events) == ("illegal", 2, 2)
    assert divergent.message == "1 claimed value differs from the reference"


def test_a_bad_option_verdict_still_names_the_game(tmp_path: Path) -> None:
    lines = example("municipium")
    header = json.loads(lines[0])
    header["options"] = {"end_mode": "first_to_five"}
    verdict = rules_oracle.validate_log(write(tmp_path, [json.dumps(header), *lines[1:]]))
    assert (verdict.kind, verdict.game, verdict.line) == ("malformed", "municipium", 1)
    assert "end_mode" in verdict.message


def test_placeholders_are_data_keys_in_every_verdict(tmp_path: Path) -> None:
    log = forgot_first_chance_event(tmp_path)
    illegal = rules_oracle.validate_log(log)
    valid = rules_oracle.validate_log(ROOT / "examples" / "milestones.jsonl")
    milestones = rules_oracle.load("milestones", json.loads(example("milestones")[0])["options"])
    assert set(valid.placeholders) == set(milestones.placeholders())
    pillars_keys = set(rules_oracle.load("pillars").placeholders())
    assert set(illegal.placeholders) <= pillars_keys
    assert all(" " not in key for key in (*illegal.placeholders, *valid.placeholders))


# Item 7: what would have been legal.


def test_a_forgotten_chance_event_lists_the_outcomes_that_were_due(tmp_path: Path) -> None:
    verdict = rules_oracle.validate_log(forgot_first_chance_event(tmp_path))
    setup = rules_oracle.load("pillars").setup(["red", "blue"])
    outcomes = [event for event, _ in setup.chance_outcomes()]
    assert (verdict.kind, verdict.to_act) == ("illegal", rules_oracle.CHANCE)
    assert verdict.legal_count == len(outcomes) > 12
    assert len(verdict.legal) == 12  # a sample when long
    assert all(event in outcomes for event in verdict.legal)
    assert verdict.rule_status == "rulebook"


def test_a_short_list_of_legal_events_is_given_whole() -> None:
    rules = rules_oracle.load("pillars")
    position = rules.setup(["red", "blue"])
    events = []
    while position.to_act == rules_oracle.CHANCE:
        events.append(position.legal()[0])
        position = position.apply(events[-1])
    legal = position.legal()
    wrong_player = "blue" if position.to_act == "red" else "red"
    bad = dict(legal[0], player=wrong_player)
    verdict = rules_oracle.validate_events("pillars", ["red", "blue"], [*events, bad])
    assert verdict.kind == "illegal"
    if len(legal) <= 12:
        assert list(verdict.legal) == legal
    assert verdict.legal_count == len(legal)


def events_with_a_rejected_builder() -> list[dict[str, object]]:
    """A game under option start_player_rejects, up to the start player's rejection."""
    position = rules_oracle.load("pillars", {"start_player_rejects": True}).setup(["red", "blue"])
    events = []
    while True:
        legal = position.legal()
        rejects = [e for e in legal if e["type"] == "review_drawn_builder" and e["reject"]]
        events.append(rejects[0] if rejects else legal[0])
        position = position.apply(events[-1])
        if rejects:
            return events


def test_an_illegal_verdict_under_an_option_says_which_value_allows_it() -> None:
    events = events_with_a_rejected_builder()
    verdict = rules_oracle.validate_events("pillars", ["red", "blue"], events)
    # PIL-BUILD-08 (SAULEN only): rejecting a drawn builder needs the option.
    assert (verdict.kind, verdict.rule_id) == ("illegal", "PIL-BUILD-08")
    assert verdict.rule_status == "secondary"
    assert verdict.legal_under == {"start_player_rejects": True}
    assert verdict.legal_count is not None and verdict.legal_count > 0


def test_no_option_is_offered_when_none_allows_the_event(tmp_path: Path) -> None:
    verdict = rules_oracle.validate_log(forgot_first_chance_event(tmp_path))
    assert verdict.legal_under is None


def test_the_text_verdict_teaches(tmp_path: Path) -> None:
    text = runner.invoke(app, ["validate", str(forgot_first_chance_event(tmp_path))]).stdout
    assert "rule status: rulebook" in text
    assert "chance outcomes due there: " in text
    assert '"type": "reveal_advantages"' in text
