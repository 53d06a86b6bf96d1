"""The public library API (rules_oracle), used as a user would: nothing private imported."""

from __future__ import annotations

import importlib
import json
from importlib import metadata
from pathlib import Path

import pytest

import rules_oracle
from rules_oracle import CHANCE, BadOptions, Illegal, Malformed, UnknownPath

ROOT = Path(__file__).resolve().parents[2]
MARKET = {  # PIL-MARKET-04's scenario position: the market stage, a to act
    "phase": "actions",
    "stage": "market",
    "queue": ["a", "b"],
    "spaces": {
        "market_1": "a",
        "market_2": "b",
        "priory_1": "a",
        "priory_2": "b",
        "kings_court_1": "a",
        "kings_court_2": "b",
    },
}


def test_every_public_name_resolves_and_the_package_is_typed() -> None:
    for name in rules_oracle.__all__:
        assert hasattr(rules_oracle, name), name
    assert (Path(rules_oracle.__file__).parent / "py.typed").is_file()
    assert rules_oracle.__version__ == metadata.version("rules-oracle")
    assert set(rules_oracle.GAMES) == {"pillars", "milestones", "palmyra", "municipium"}


def test_load_refuses_an_unknown_game_option_or_data_key() -> None:
    with pytest.raises(BadOptions, match="unknown game 'chess'"):
        rules_oracle.load("chess")
    with pytest.raises(BadOptions):
        rules_oracle.load("pillars", {"no_such_option": True})
    with pytest.raises(BadOptions, match="no.such"):
        rules_oracle.load("pillars", profile={"no.such": 1})
    assert rules_oracle.UsageError is BadOptions


def test_rules_describe_the_game() -> None:
    rules = rules_oracle.load("pillars")
    assert (rules.name, rules.min_players, rules.max_players) == ("pillars", 2, 4)
    rule = rules.rule("PIL-MARKET-04")
    assert rule is not None and rule.title
    assert rules.rule("CORE-END-01") is not None  # the shared rules too
    assert rules.rule("PIL-NOPE-99") is None
    assert "buy_resources" in rules.event_types
    # RB p.3: seats start with 20, 21, 22, 23 gold.
    assert rules.data("setup.gold_by_seat") == [20, 21, 22, 23]


def test_a_profile_changes_the_data_in_force() -> None:
    rules = rules_oracle.load("pillars", profile={"setup.gold_by_seat": [30, 31, 32, 33]})
    assert rules.setup(["red", "blue"])["players.blue.gold"] == 31


def test_setup_follows_the_rulebook_and_refuses_bad_players() -> None:
    rules = rules_oracle.load("pillars")
    position = rules.setup(["red", "blue"])
    # RB p.3: the start player 20 gold, the next 21; each begins with 2 VP.
    assert position["players.red.gold"] == 20
    assert position["players.blue.gold"] == 21
    assert position.get("players.red.vp") == 2
    assert position.to_act == CHANCE  # the round's cards are revealed first
    assert not position.is_over
    with pytest.raises(BadOptions):
        rules.setup(["red"])
    with pytest.raises(BadOptions):
        rules.setup(["red", "red"])


def test_paths_are_the_whole_position_and_read_back() -> None:
    position = rules_oracle.load("palmyra").setup(["red", "blue"])
    leaves = position.paths()
    assert leaves, "a position has values"
    for path, value in leaves.items():
        assert position[path] == value, path
    assert json.loads(json.dumps(position.to_json())) == position.to_json()


def test_unknown_paths() -> None:
    position = rules_oracle.load("pillars").setup(["red", "blue"])
    with pytest.raises(UnknownPath):
        position["players.green.gold"]
    assert position.get("players.green.gold", "none") == "none"
    with pytest.raises(UnknownPath):
        position.with_values({"players.red.silver": 1})
    with pytest.raises(Malformed):
        position.with_values({"players.red.gold": "lots"})


def test_apply_steps_immutably_until_the_end() -> None:
    position = rules_oracle.load("milestones").setup(["red", "blue"])
    start = position.to_json()
    after = position.apply(position.legal()[0])
    assert position.to_json() == start
    assert after != position
    again = position.apply(position.legal()[0])
    assert again == after and hash(again) == hash(after)
    assert len({position, after, again}) == 2
    steps = 0
    while not after.is_over:
        if after.to_act == CHANCE:
            outcomes = after.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            after = after.apply(outcomes[0][0])
        else:
            after = after.apply(after.legal()[0])
        steps += 1
        assert steps < 10_000
    result = after.result()
    assert set(result.scores) == {"red", "blue"}
    assert set(result.winners) <= {"red", "blue"}
    with pytest.raises(Illegal) as caught:  # CORE-END-01: nothing after the end
        after.apply({"type": "end_turn", "player": "red"})
    assert caught.value.rule_id == "CORE-END-01"


def test_result_of_an_unfinished_game_is_a_usage_error() -> None:
    with pytest.raises(BadOptions, match="not over"):
        rules_oracle.load("pillars").setup(["red", "blue"]).result()


def test_an_illegal_event_names_the_rule_with_its_title_status_and_source() -> None:
    position = rules_oracle.load("pillars").setup(["a", "b"]).with_values(MARKET)
    assert position.to_act == "a"
    metal = {"type": "buy_resources", "player": "a", "resource": "metal", "count": 1}
    with pytest.raises(Illegal) as caught:
        position.apply(metal)
    illegal = caught.value
    assert illegal.rule_id == "PIL-MARKET-04"  # RB p.7: metal is only ever sold
    assert illegal.status == "rulebook"
    assert "RB p.7" in illegal.citation
    assert illegal.rule_title
    assert isinstance(illegal, rules_oracle.Error)
    assert not position.is_legal(metal)
    assert metal not in position.legal()
    assert position.is_legal({"type": "pass_market", "player": "a"})


def test_a_malformed_event_is_not_illegal() -> None:
    position = rules_oracle.load("pillars").setup(["a", "b"]).with_values(MARKET)
    with pytest.raises(Malformed):
        position.apply({"type": "fly", "player": "a"})
    with pytest.raises(Malformed):
        position.apply({"type": "buy_resources", "player": "a", "buy": {"wood": 2}})


def _game_events(game: str, players: list[str]) -> list[dict[str, object]]:
    position = rules_oracle.load(game).setup(players)
    events = []
    while not position.is_over:
        event = position.legal()[-1]
        events.append(event)
        position = position.apply(event)
    return events


def test_validate_events_valid_divergent_illegal_malformed() -> None:
    events = _game_events("palmyra", ["red", "blue"])
    valid = rules_oracle.validate_events("palmyra", ["red", "blue"], events)
    assert (valid.kind, valid.events) == ("valid", len(events))

    incomplete = rules_oracle.validate_events("palmyra", ["red", "blue"], events[:3])
    assert incomplete.kind == "incomplete"

    claimed = [dict(events[0], state={"players.red.nonsense": 1}), *events[1:]]
    unknown = rules_oracle.validate_events("palmyra", ["red", "blue"], claimed)
    assert (unknown.kind, unknown.line, unknown.event_index) == ("malformed", 2, 0)

    not_an_object = rules_oracle.validate_events("palmyra", ["red", "blue"], [events[0], 7])
    assert (not_an_object.kind, not_an_object.line) == ("malformed", 3)

    twice = rules_oracle.validate_events("palmyra", ["red", "blue"], [*events, events[-1]])
    assert (twice.kind, twice.rule_id) == ("illegal", "CORE-END-01")


def test_validate_log_on_the_bundled_examples(tmp_path: Path) -> None:
    for log in sorted((ROOT / "examples").glob("*.jsonl")):
        verdict = rules_oracle.validate_log(log)
        assert verdict.kind == "valid", (log, verdict.message)
    missing = rules_oracle.validate_log(tmp_path / "none.jsonl")
    assert missing.kind == "malformed"


def test_validate_log_at_gives_the_reference_position() -> None:
    verdict = rules_oracle.validate_log(ROOT / "examples" / "pillars.jsonl", at=0)
    setup = rules_oracle.load("pillars").setup(verdict.state_at["seats"])
    assert verdict.state_at == setup.to_json()


def test_run_scenarios_on_files_and_the_bundled_suite() -> None:
    one = ROOT / "scenarios" / "pillars" / "PIL-MARKET-04-metal-is-never-bought.yaml"
    [result] = rules_oracle.run_scenarios([one])
    assert (result.status, result.id, result.game) == (
        "pass",
        "PIL-MARKET-04-metal-is-never-bought",
        "pillars",
    )
    assert rules_oracle.SCENARIOS_DIR.is_dir()


def test_the_lazy_name_table_matches_the_modules_and_the_public_list() -> None:
    """The package lists each public name three times (``__all__``, the table that loads a
    name on first use, the home module's own ``__all__``); the three must agree, or a name
    is public but fails to load, or loads but is not listed."""
    homes: dict[str, str] = vars(rules_oracle)["_HOMES"]
    assert set(homes) | {"GAMES", "__version__"} == set(rules_oracle.__all__)
    for module_name in {home for home in homes.values() if home.startswith("rules_oracle.")}:
        module = importlib.import_module(module_name)
        defined = {name for name, home in homes.items() if home == module_name}
        assert all(hasattr(module, name) for name in defined), module_name
        if hasattr(module, "__all__"):  # a module that lists its public names lists these
            assert defined == set(module.__all__), module_name
