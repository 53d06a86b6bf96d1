"""Pillars rule tests named after catalogue ids, plus options, profiles and data checks."""

from __future__ import annotations

import attrs
import pytest

from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import CHANCE, step
from reference.pillars import make
from reference.pillars.events import (
    BuyResources,
    DrawMasterBuilder,
    PassCards,
    PassMasterBuilder,
    PlaceMasterBuilder,
    RevealAdvantages,
    RevealCraftsmen,
    RevealResourceCards,
    RollTax,
)
from reference.pillars.state import State

ROUND1 = [
    RevealAdvantages(("madonna", "wool_fair")),
    RevealCraftsmen(("mason_1", "tool_maker_1")),
    RevealResourceCards(("gravel_large", "quarry_small")),
]


def _phase_two(options: dict[str, object] | None = None) -> tuple[object, State]:
    game = make(options or {})
    state = game.new_game(["a", "b"])
    for event in [*ROUND1, PassCards("a"), PassCards("b")]:
        state = step(game, state, event)
    return game, state


def test_PIL_SETUP_01_gold_by_seat() -> None:
    # RB p.2: 20, 21, 22, 23 from the start player.
    state = make({}).new_game(["a", "b", "c", "d"])
    assert [state.players[n].gold for n in "abcd"] == [20, 21, 22, 23]
    assert all(p.vp == 2 for p in state.players.values())


def test_PIL_BUILD_03_costs_fall_by_one_per_draw_two_players() -> None:
    # RB p.5: 7, 6, 5, 4, 3, 2 for 6 builders, each placed at once.
    game, state = _phase_two()
    spaces = ["kings_court_1", "kings_court_2", "market_1", "market_2", "priory_1", "priory_2"]
    paid = []
    for i, space in enumerate(spaces):
        owner = "ab"[i % 2]
        before = state.players[owner].gold
        state = step(game, state, DrawMasterBuilder(owner))
        state = step(game, state, PlaceMasterBuilder(owner, space))
        paid.append(before - state.players[owner].gold)
    assert paid == [7, 6, 5, 4, 3, 2]
    assert game.to_act(state) == CHANCE and state.phase == "actions"


def test_PIL_BUILD_05_passed_builders_follow_pass_order() -> None:
    game, state = _phase_two()
    for owner in ["b", "a", "b", "a", "b", "a"]:
        state = step(game, state, DrawMasterBuilder(owner))
        state = step(game, state, PassMasterBuilder(owner))
    assert state.passed_builders == ("b", "a", "b", "a", "b", "a")
    assert state.cost == 0 and game.to_act(state) == "b"


def test_PIL_MARKET_04_metal_cannot_be_bought() -> None:
    game = make({})
    state = attrs.evolve(game.new_game(["a", "b"]), phase="actions", stage="market", queue=("a",))
    with pytest.raises(RuleViolation) as err:
        game.apply(state, BuyResources("a", "metal", 1))
    assert err.value.rule_id == "PIL-MARKET-04"
    assert all(
        getattr(e, "resource", None) != "metal" or e.type != "buy_resources"
        for e in game.legal_events(state)
    )


def test_PIL_TURN_02_action_outside_its_step() -> None:
    game, state = _phase_two()
    state = step(game, state, DrawMasterBuilder("a"))
    with pytest.raises(RuleViolation) as err:
        game.apply(state, BuyResources("a", "sand", 1))
    assert err.value.rule_id == "PIL-TURN-02"


def test_PIL_TAX_01_chance_outcomes_follow_the_die() -> None:
    game = make({})
    state = game.new_game(["a", "b"])
    tax_state = _evolve_stage(state, "tax")
    outcomes = dict((e.tax, p) for e, p in game.chance_outcomes(tax_state))
    assert outcomes == pytest.approx({2: 1 / 6, 3: 2 / 6, 4: 2 / 6, 5: 1 / 6})
    assert [e for e, _ in game.chance_outcomes(tax_state)] == game.legal_events(tax_state)
    assert RollTax(3) in game.legal_events(tax_state)


def _evolve_stage(state: State, stage: str) -> State:
    return attrs.evolve(state, phase="actions", stage=stage)


def test_PIL_ROUND_03_resource_card_reveals_are_uniform() -> None:
    game = make({})
    state = game.new_game(["a", "b"])
    for event in ROUND1[:2]:
        state = step(game, state, event)
    outcomes = game.chance_outcomes(state)
    assert len(outcomes) == 36  # C(9, 2) ways to set 2 cards aside
    assert sum(p for _, p in outcomes) == pytest.approx(1)


def test_options_reject_unknown_values() -> None:
    with pytest.raises(BadOptions):
        make({"resale_ban": "never"})
    with pytest.raises(BadOptions):
        make({"no_such_option": True})


def test_profile_replaces_values_and_checks_shapes() -> None:
    game = make({"profile": {"market.buy_prices": {"sand": 2, "wood": 3, "stone": 3}}})
    assert game.tables.t.buy_prices["stone"] == 3
    assert game.data.entries["market.buy_prices"].status == "profile"
    with pytest.raises(BadOptions):
        make({"profile": {"market.buy_prices": {"sand": 2, "wood": "three", "stone": 4}}})
    with pytest.raises(BadOptions):
        make({"profile": {"tax.die_faces": []}})
    with pytest.raises(BadOptions):
        make({"profile": {"board.capacity_shiring": 3}})
    with pytest.raises(BadOptions):
        make({"profile": {"no.such_key": 1}})


def test_PIL_PRIORY_01_profile_needs_a_vp_value_per_space() -> None:
    # A third Priory space without a third VP value used to crash step 5 (IndexError).
    with pytest.raises(BadOptions):
        make({"profile": {"board.capacity_priory": 3}})
    with pytest.raises(BadOptions):
        make({"profile": {"board.priory_vp": [2]}})
    game = make({"profile": {"board.capacity_priory": 3, "board.priory_vp": [3, 2, 1]}})
    assert game.tables.t.priory_vp == (3, 2, 1)


def test_placeholders_are_listed() -> None:
    game = make({})
    assert set(game.data.placeholders()) == {
        "board.capacity_bishop",
        "board.capacity_kings_court",
        "board.capacity_castle",
        "board.capacity_market",
    }


def test_unknown_event_is_malformed() -> None:
    game = make({})
    state = game.new_game(["a", "b"])
    with pytest.raises(MalformedEvent):
        game.apply(state, object())


def test_bad_player_names_are_rejected() -> None:
    with pytest.raises(BadOptions):
        make({}).new_game(["a"])
    with pytest.raises(BadOptions):
        make({}).new_game(["a", "a"])


def test_catalogue_options_exist_and_disputes_are_resolved() -> None:
    game = make({})
    fields = set(attrs.fields_dict(type(game.options)))
    disputes = [r for r in game.catalogue.rules if r.dispute is not None]
    assert len(disputes) >= 19
    for rule in disputes:
        assert rule.dispute is not None and rule.dispute.resolution
        assert rule.dispute.option is None or rule.dispute.option in fields, rule.id
