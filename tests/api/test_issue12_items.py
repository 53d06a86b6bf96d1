"""Issue 12, items 2, 4, 5, 8, 10, 11 and 12, each checked as a user meets it."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import rules_oracle
from rules_oracle_cli.cli import app

ROOT = Path(__file__).resolve().parents[2]
FORMATS = (ROOT / "docs" / "formats.md").read_text()
runner = CliRunner()
MARKET = ROOT / "scenarios" / "pillars" / "PIL-MARKET-04-metal-is-never-bought.yaml"


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


# Item 2: the documented examples are right.


def test_the_log_event_example_is_a_pillars_event_with_a_real_path() -> None:
    [line] = [ln for ln in FORMATS.splitlines() if ln.startswith('{"type": "buy_resources"')]
    event = json.loads(line)
    claims = event.pop("state")
    position = rules_oracle.load("pillars").setup(["red", "blue"])
    with pytest.raises(rules_oracle.Illegal):  # well formed: judged by the rules (chance acts)
        position.apply(event)
    for path in claims:
        position[path]  # names something


def test_the_scenario_example_runs_and_passes(tmp_path: Path) -> None:
    block = re.search(r"```yaml\n(id: PIL-MARKET-04.*?)```", FORMATS, re.S)
    assert block is not None
    path = tmp_path / "example.yaml"
    path.write_text(block.group(1))
    [result] = rules_oracle.run_scenarios([path])
    assert (result.status, result.message) == ("pass", "")


def test_formats_says_what_a_given_position_starts_from() -> None:
    assert "standard setup" in FORMATS and "given state unsound" in FORMATS
    assert "state_unordered" in FORMATS and "any_of" in FORMATS


# Item 4: a profile applies to the games it names data of.


def test_a_pillars_profile_leaves_the_other_games_alone(tmp_path: Path) -> None:
    code, out, _ = invoke(
        "validate", str(ROOT / "examples"), "--profile", str(ROOT / "profiles/pillars.yaml")
    )
    assert code == 0, out
    assert out.count(": valid (") == 4


def test_a_profile_still_changes_its_own_game() -> None:
    profile = {"setup.gold_by_seat": [5, 5, 5, 5]}
    verdict = rules_oracle.validate_log(ROOT / "examples/pillars.jsonl", profile=profile)
    assert verdict.kind in ("divergent", "illegal")  # the log follows the rulebook's 20/21 gold
    other = rules_oracle.validate_log(ROOT / "examples/palmyra.jsonl", profile=profile)
    assert other.kind == "valid"


def test_a_profile_of_no_game_is_refused() -> None:
    with pytest.raises(rules_oracle.BadOptions, match="no data key of any game"):
        rules_oracle.run_scenarios([MARKET], profile={"no.such_key": 1})


# Item 5: a profile that cannot make a setup is the user's error, not ours.


@pytest.mark.parametrize(
    ("game", "profile"), [("palmyra", "bank.total: 0\n"), ("palmyra", "tiles.mix: {}\n")]
)
def test_play_with_an_unusable_profile_is_a_usage_error(
    tmp_path: Path, game: str, profile: str
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(profile)
    code, _, err = invoke("play", "--game", game, "--players", "2", "--profile", str(path))
    assert code == 2
    assert "internal error" not in err and profile.split(".")[0] in err


# Item 8: an unknown name is malformed in every game.


@pytest.mark.parametrize(
    "event",
    [
        {"type": "place_member", "player": "a", "institution": "Temple"},
        {"type": "draw_citizen", "kind": "soldiers"},
    ],
)
def test_unknown_names_are_malformed_in_municipium(event: dict[str, object]) -> None:
    position = rules_oracle.load("municipium").setup(["a", "b"])
    with pytest.raises(rules_oracle.Malformed):  # whoever is to act: it names nothing
        position.apply(event)


def test_a_known_kind_missing_from_the_bag_is_still_illegal() -> None:
    position = rules_oracle.load("municipium").setup(["a", "b", "c"])
    assert position.to_act == rules_oracle.CHANCE
    empty = position.with_values({"bag.soldier": 0, "players.a.citizens.soldier": 13})
    with pytest.raises(rules_oracle.Illegal) as caught:
        empty.apply({"type": "draw_citizen", "kind": "soldier"})
    assert caught.value.rule_id == "MUN-BAG-01"


# Item 10: packaging.


def test_packaging_metadata() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    data = project["tool"]["setuptools"]["package-data"]
    assert {"py.typed", "schemas/*.json"} <= set(data["rules_oracle"])
    assert "scenario_suite/*/*.yaml" in data["oracle"]  # the bundled suite ships in oracle
    bundled = sorted(rules_oracle.SCENARIOS_DIR.glob("*/*.yaml"))
    assert bundled == sorted(rules_oracle.SCENARIOS_DIR.rglob("*.yaml"))  # the glob finds all
    assert len(bundled) == len(list((ROOT / "scenarios").rglob("*.yaml")))


def test_version_and_short_help() -> None:
    code, out, _ = invoke("--version")
    assert (code, out.strip()) == (0, f"rules-oracle {rules_oracle.__version__}")
    code, out, _ = invoke("-h")
    assert code == 0 and "validate" in out
    code, out, _ = invoke("validate", "-h")
    assert code == 0 and "<bool>" not in out


def test_scenarios_and_coverage_work_outside_the_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = invoke("scenarios", "--game", "palmyra")
    assert code == 0 and re.search(r"\d+ passed, 0 failed", out)
    code, out, _ = invoke("coverage", "--game", "palmyra")
    assert code == 0 and "palmyra:" in out


# Item 11: the smaller ones.


def write_variant(tmp_path: Path, name: str, change: dict[str, object]) -> Path:
    scenario = yaml.safe_load(MARKET.read_text())
    scenario["id"] = name
    scenario.update(change)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(scenario, sort_keys=False))
    return path


def test_a_state_mismatch_gives_its_line_and_json_values(tmp_path: Path) -> None:
    path = write_variant(
        tmp_path,
        "gold",
        {"steps": [], "expect": {"to_act": "a", "state": {"spaces": {}, "players.a.gold": 1}}},
    )
    [result] = rules_oracle.run_scenarios([path])
    assert result.status == "fail"
    lines = path.read_text().splitlines()
    assert lines[result.line - 1].strip().startswith("spaces:")  # type: ignore[operator]
    assert 'expected {}, ours {"market_1": "a"' in result.message


def test_a_legal_count_mismatch_lists_the_reference_events(tmp_path: Path) -> None:
    path = write_variant(tmp_path, "count", {"steps": [], "expect": {"legal": {"count": 99}}})
    [result] = rules_oracle.run_scenarios([path])
    assert result.status == "fail"
    assert 'ours lists 13: {"type": "buy_resources", "player": "a"' in result.message
    assert result.message.endswith(" and 1 more")  # 12 shown


def test_a_copied_scenario_keeps_its_own_check(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(MARKET.read_text())
    copy = MARKET.read_text().replace("rule: PIL-MARKET-04", "rule: PIL-MARKET-01")
    (tmp_path / "b.yaml").write_text(copy.replace("- PIL-MARKET-04", "- PIL-MARKET-01"))
    first, second = rules_oracle.run_scenarios([tmp_path])
    assert (first.status, second.status) == ("pass", "error")
    assert "also used by" in second.message
    assert "its own check: fail: step 0 broke PIL-MARKET-04" in second.message


def test_explain_any_case_and_suggestions() -> None:
    code, out, _ = invoke("explain", "pil-market-04")
    assert code == 0 and out.startswith("PIL-MARKET-04 (pillars)")
    code, _, err = invoke("explain", "PIL-MARKT-04")
    assert code == 2 and "did you mean PIL-MARKET-04" in err


def test_explain_and_coverage_take_scenario_paths_like_scenarios() -> None:
    code, out, _ = invoke("explain", "PIL-MARKET-04", str(MARKET))
    assert code == 0 and out.rstrip().endswith("scenarios: PIL-MARKET-04-metal-is-never-bought")
    code, out, _ = invoke("coverage", str(MARKET), "--game", "pillars", "--format", "json")
    assert json.loads(out)["pillars"]["PIL-MARKET-04"] == ["PIL-MARKET-04-metal-is-never-bought"]


def test_validate_options_plays_the_other_reading() -> None:
    # a value the game refuses is the user's option at fault, not the log (issue 28 item 10)
    code, out, err = invoke(
        "validate", str(ROOT / "examples/municipium.jsonl"), "--options", '{"end_mode": "x"}'
    )
    assert code == 2 and out == "" and "end_mode" in err and "finish_round" in err
    code, _, err = invoke("validate", str(ROOT / "examples"), "--options", "[1]")
    assert code == 2 and "--options must be a JSON object" in err


# Item 12: any_of, unordered lists, and unsound hand-written positions.


def test_illegal_by_any_of_several_rules(tmp_path: Path) -> None:
    path = write_variant(
        tmp_path,
        "any",
        {
            "rules": ["PIL-MARKET-04", "PIL-MARKET-01"],
            "expect": {"illegal": {"step": 0, "any_of": ["PIL-MARKET-01", "PIL-MARKET-04"]}},
        },
    )
    [result] = rules_oracle.run_scenarios([path])
    assert result.status == "pass", result.message
    other = write_variant(
        tmp_path,
        "other",
        {
            "rules": ["PIL-MARKET-01"],
            "expect": {"illegal": {"step": 0, "any_of": ["PIL-MARKET-01"]}},
        },
    )
    [result] = rules_oracle.run_scenarios([other])
    assert result.status == "fail" and "expected PIL-MARKET-01" in result.message


def test_state_unordered_ignores_list_order(tmp_path: Path) -> None:
    listed = ["b", "a"]  # the queue set by the given state is [a, b]
    ordered = write_variant(tmp_path, "o", {"steps": [], "expect": {"state": {"queue": listed}}})
    unordered = write_variant(
        tmp_path, "u", {"steps": [], "expect": {"state_unordered": {"queue": listed}}}
    )
    first, second = rules_oracle.run_scenarios([ordered, unordered])
    assert (first.status, second.status) == ("fail", "pass")


def test_a_mid_game_municipium_position_with_empty_fields_is_unsound(tmp_path: Path) -> None:
    scenario = {
        "id": "empty-fields",
        "game": "municipium",
        "rules": ["MUN-PREFECT-04"],
        "source": "test",
        "description": "every citizen field empty, the bag full, mid-game",
        "players": ["a", "b", "c"],
        "given": {"state": {"phase": "move", "round": 3, "current": "a"}},
        "expect": {"to_act": "a"},
    }
    path = tmp_path / "empty.yaml"
    path.write_text(yaml.safe_dump(scenario))
    [result] = rules_oracle.run_scenarios([path])
    assert result.status == "error"
    assert "citizen field is empty while the bag holds citizens" in result.message
