"""What a scenario checks and how it says a miss: a state value with its line and JSON
values, a legal count with the reference's events, a copied file keeping its own check,
illegal by any of several rules, lists compared unordered, an unsound hand-written position."""

from __future__ import annotations

from pathlib import Path

import yaml
from cli_invoke import ROOT

import rules_oracle

MARKET = ROOT / "scenarios" / "pillars" / "PIL-MARKET-04-metal-is-never-bought.yaml"


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
