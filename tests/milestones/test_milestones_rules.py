"""Rule tests for Milestones, named after catalogue ids; expectations worked out by hand."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest
from milestones_fixture import PROFILE, at, give, set_up, standard, t1_game

from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import CHANCE, step
from reference.milestones import make
from reference.milestones.engine import HANDLERS
from reference.milestones.events import (
    EVENT_TYPES,
    BuildHouse,
    BuildMarketplace,
    BuildRoad,
    BuyGood,
    ClaimBonus,
    CoverWorker,
    DeliverFlour,
    DrawWorkerTile,
    EndTurn,
    HireWorkerTile,
    Move,
    ReturnToSupply,
    SellGoods,
)

PACKAGE = Path(__file__).resolve().parents[2] / "reference" / "milestones"


def violation(game: object, state: object, event: object) -> str:
    with pytest.raises(RuleViolation) as info:
        step(game, state, event)  # type: ignore[arg-type]
    return info.value.rule_id


# ---------------------------------------------------------------- the package itself
def test_every_raised_rule_id_is_in_the_catalogue() -> None:
    ids = set(make({}).catalogue.ids())
    used: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        used |= set(re.findall(r"MIL-[A-Z]+-\d\d", path.read_text()))
    assert used <= ids, used - ids


def test_no_random_in_the_engine() -> None:
    for path in PACKAGE.glob("*.py"):
        assert not re.search(r"^\s*(import|from) random", path.read_text(), re.M), path


def test_every_event_has_one_handler() -> None:
    assert set(HANDLERS) == set(EVENT_TYPES)
    assert len({cls.type for cls in EVENT_TYPES}) == len(EVENT_TYPES)


def test_unknown_event_is_malformed() -> None:
    game, state = standard()

    @attrs.frozen
    class Dance:
        player: str

    with pytest.raises(MalformedEvent):
        game.apply(state, Dance("a"))


@pytest.mark.parametrize(
    "profile",
    [
        {"prices.road": {"gold": 1}},
        {"prices.road": "cheap"},
        {"scoring.end_vp": {2: 10}},
        {"board.map": {"rows": ["1 2"], "bushes": []}},
        {"board.map": {"rows": ["M 2 3"], "bushes": ["U5,5"]}},
        {"board.map": {"rows": ["M \u00b2 3"], "bushes": []}},
        {"tiles.bonus_tiles": {"lumberjack": 99}},
        {"tiles.worker_tiles": {"T01": [["baker", 1], ["coiner", 2]]}},
        {"supply.coins": -1},
        {"setup.draft_take": 4},
        {"setup.draft_pool": {2: 3, 3: 7, 4: 9}},
        {"no.such_key": 1},
    ],
)
def test_bad_profile_is_bad_options(profile: dict[str, object]) -> None:
    with pytest.raises(BadOptions):
        make({"profile": profile})


def test_bad_option_is_bad_options() -> None:
    with pytest.raises(BadOptions):
        make({"tie_break": "coin_flip"})
    with pytest.raises(BadOptions):
        make({"speed": 3})


def test_placeholders_are_reported() -> None:
    placeholders = set(make({}).data.placeholders())
    assert {"prices.road", "scoring.end_vp", "board.map", "tiles.worker_tiles"} <= placeholders
    assert "prices.road" not in make({"profile": PROFILE}).data.placeholders()


# ---------------------------------------------------------------- setup
def test_MIL_SETUP_05_draft_order_and_leftover() -> None:
    game = t1_game()
    state = set_up(
        game,
        ("a", "b", "c"),
        ("T06", "T07", "T08", "T09", "T10"),
        ("T01", "T02", "T03", "T04", "T05", "T11", "T12"),
        (),
    )
    order = []
    for space in ("W1", "W3", "W1", "W3", "W1", "W3"):
        order.append(game.to_act(state))
        tile = state.draft_pool[0]
        from reference.milestones.events import DraftWorkerTile

        state = step(game, state, DraftWorkerTile(game.to_act(state), tile, space))
    assert order == ["c", "c", "b", "b", "a", "a"]
    assert state.removed_tiles == ("T12",)
    assert len(state.display) == 5
    assert game.to_act(state) == "a"
    assert all(
        p.coins == 1 and p.position == "castle" and p.vp == 0 for p in state.players.values()
    )


def test_MIL_SETUP_04_draw_only_from_the_pile() -> None:
    game = t1_game()
    state = set_up(game, ("a", "b"), (), (), ())
    assert game.to_act(state) == CHANCE
    assert violation(game, state, DrawWorkerTile("T99")) == "MIL-SETUP-04"


# ---------------------------------------------------------------- moves and production
def test_MIL_PROD_01_passed_workers_of_the_same_kind() -> None:
    game, state = standard()
    state = step(game, state, Move("a", 3))  # Castle -> W3 (LJ5); passes W1 LJ2
    assert state.players["a"].goods["wood"] == 2
    assert state.players["a"].goods["stone"] == 0


def test_MIL_PROD_01_start_space_not_counted() -> None:
    game, state = standard()
    state = step(game, state, Move("a", 1))  # W1: +1 wood
    state = step(game, state, Move("a", 2))  # W3: W2 QM passed, W1 was the start
    assert state.players["a"].goods["wood"] == 2


def test_MIL_PROD_02_bonus_worker_doubles() -> None:
    game, state = standard()
    players = dict(state.players)
    workers = dict(players["a"].workers)
    w1 = workers["W1"]
    assert w1 is not None
    workers["W1"] = attrs.evolve(w1, bonus=True)
    players["a"] = attrs.evolve(players["a"], workers=workers)
    state = attrs.evolve(
        state, players=players, board=attrs.evolve(state.board, bonus_tiles={"D2,1": "quarryman"})
    )
    state = step(game, state, Move("a", 3))
    assert state.players["a"].goods["wood"] == 3


def test_MIL_MOVE_02_never_past_the_castle() -> None:
    game, state = standard()
    assert [e.steps for e in game.legal_events(state)] == list(range(1, 12))
    assert violation(game, state, Move("a", 12)) == "MIL-MOVE-02"
    state = at(state, "a", "mill")
    assert violation(game, state, Move("a", 2)) == "MIL-MOVE-02"
    assert violation(game, state, Move("a", 0)) == "MIL-MOVE-01"


def test_MIL_TURN_02_two_moves() -> None:
    game, state = standard()
    assert violation(game, state, EndTurn("a")) == "MIL-TURN-02"
    state = step(game, state, Move("a", 1))
    state = step(game, state, Move("a", 1))
    assert violation(game, state, Move("a", 1)) == "MIL-TURN-02"
    state = step(game, state, EndTurn("a"))
    assert game.to_act(state) == "b"
    assert violation(game, state, Move("a", 1)) == "MIL-TURN-01"


# ---------------------------------------------------------------- castle
def test_MIL_CASTLE_tax() -> None:
    game, state = standard()
    state = give(at(state, "a", "mill"), "a", stone=2, wood=1, coin=1)  # 5 items, 4 workers
    state = step(game, state, Move("a", 1))
    assert state.returns_due == 2 and state.cover_due
    assert violation(game, state, EndTurn("a")) == "MIL-CASTLE-04"
    assert violation(game, state, ReturnToSupply("a", "sand")) == "MIL-CASTLE-02"
    state = step(game, state, ReturnToSupply("a", "stone"))
    state = step(game, state, ReturnToSupply("a", "coin"))
    assert violation(game, state, ReturnToSupply("a", "wood")) == "MIL-CASTLE-02"
    state = step(game, state, CoverWorker("a", "W2"))
    assert violation(game, state, CoverWorker("a", "W3")) == "MIL-CASTLE-03"
    player = state.players["a"]
    assert player.coins + sum(player.goods.values()) == 3
    assert state.supply["cover_tiles"] == 20
    assert [s for s, w in player.workers.items() if w and w.covered] == ["W2"]


# ---------------------------------------------------------------- trading house
def test_MIL_TRADE_01_order_bonus() -> None:
    game, state = standard()  # a: 2,3,5,6 ascending
    state = at(state, "a", "W4", 1)
    state = step(game, state, Move("a", 5))
    assert state.players["a"].coins == 2


def test_MIL_TRADE_hire_refill_and_over_building() -> None:
    game, state = standard()
    state = give(at(state, "b", "W4", 0), "b", coin=3)  # b: GG1 GG2 SW3 QM4 ascending
    state = step(game, state, Move("b", 5))  # Trading House, +1 coin -> 5
    assert state.players["b"].coins == 5
    state = step(game, state, HireWorkerTile("b", "T06", "W2"))
    workers = state.players["b"].workers
    assert workers["W2"] is not None and workers["W2"].tile == "T06"
    assert state.discarded_workers == ("T04.right", "T05.left")
    assert len(state.display) == 4
    state = step(game, state, Move("b", 1))
    assert game.to_act(state) == CHANCE
    assert [e.tile for e in game.legal_events(state)] == ["T11", "T12", "T13", "T14"]
    state = step(game, state, DrawWorkerTile("T13"))
    assert len(state.display) == 5 and game.to_act(state) == "b"


def test_MIL_TRADE_05_06_buy_and_sell() -> None:
    game, state = standard()
    state = give(at(state, "b", "trading_house"), "b", coin=3, wood=2)
    state = step(game, state, BuyGood("b", "stone"))
    state = step(game, state, SellGoods("b", ("wood", "wood")))
    player = state.players["b"]
    assert (player.coins, player.goods["stone"], player.goods["wood"]) == (3, 1, 0)
    assert violation(game, state, SellGoods("b", ("stone",))) == "MIL-TRADE-06"
    one_to_one = t1_game(profile={**PROFILE, "prices.sell_goods_per_coin": 1})
    assert SellGoods("b", ("stone",)) in one_to_one.legal_events(state)


def test_MIL_TRADE_06_MILL_03_choices_in_any_order_are_one_event() -> None:
    """A sale and a delivery are choices, not sequences: every order is the listed event."""
    game, state = standard()
    state = give(at(state, "b", "trading_house"), "b", stone=1, wood=1)
    assert SellGoods("b", ("wood", "stone")) == SellGoods("b", ("stone", "wood"))
    listed = game.legal_events(state)
    assert SellGoods("b", ("wood", "stone")) in listed
    assert sum(isinstance(e, SellGoods) for e in listed) == 1
    assert DeliverFlour("b", "2,0", ("2,1", "1,1")) == DeliverFlour("b", "2,0", ("1,1", "2,1"))


def test_MIL_END_02_last_tile_ends_after_a_round() -> None:
    game, state = standard()
    state = attrs.evolve(
        state,
        draw_pile=(),
        display=("T06",),
        removed_tiles=(
            *state.removed_tiles,
            "T07",
            "T08",
            "T09",
            "T10",
            "T11",
            "T12",
            "T13",
            "T14",
        ),
    )
    state = give(at(state, "a", "trading_house"), "a", coin=1)
    state = step(game, state, HireWorkerTile("a", "T06", "W5"))
    assert state.end_trigger == "a"
    state = step(game, state, Move("a", 1))
    state = step(game, state, EndTurn("a"))
    assert game.to_act(state) == "b"
    state = step(game, state, Move("b", 1))
    state = step(game, state, Move("b", 1))
    state = step(game, state, EndTurn("b"))
    assert game.is_over(state)
    assert violation(game, state, Move("a", 1)) == "CORE-END-01"


# ---------------------------------------------------------------- main board
def road_state() -> tuple[object, object]:
    game, state = standard()
    state = give(at(state, "a", "board_of_works"), "a", stone=6, sand=6, wood=3)
    return game, state


def test_MIL_ROAD_and_bonus_claim() -> None:
    game, state = road_state()
    state = step(game, state, BuildRoad("a", "0,0", "1,0", "2,0"))  # +2
    assert state.players["a"].vp == 2
    assert state.pending_bonus == ("U1,0",)
    assert violation(game, state, BuildRoad("a", "2,0", "3,0", "4,0")) == "MIL-BONUS-04"
    assert [e.space for e in game.legal_events(state)] == ["W1", "W3"]
    state = step(game, state, ClaimBonus("a", "U1,0", "W3"))
    assert state.players["a"].vp == 3 and state.players["a"].workers["W3"].bonus
    assert state.board.road_ends == {"2,0": "0,0"}
    assert violation(game, state, BuildRoad("a", "1,0", "1,1", "0,2")) == "MIL-ROAD-01"
    assert violation(game, state, BuildRoad("a", "0,1", "1,1", "2,1")) == "MIL-ROAD-01"
    state = step(game, state, BuildRoad("a", "2,0", "3,0", "4,0"))  # +1
    assert state.players["a"].vp == 4


def test_MIL_ROAD_04_back_to_its_marketplace() -> None:
    game, state = road_state()
    state = step(game, state, BuildRoad("a", "0,0", "1,0", "1,1"))
    state = step(game, state, ClaimBonus("a", "U1,0", "W1"))
    assert violation(game, state, BuildRoad("a", "1,1", "0,1", "0,0")) == "MIL-ROAD-04"


def test_MIL_ROAD_03_no_joining() -> None:
    game, state = road_state()
    state = step(game, state, BuildRoad("a", "0,0", "1,0", "2,0"))
    state = step(game, state, ClaimBonus("a", "U1,0", "W1"))
    state = step(game, state, BuildRoad("a", "0,0", "0,1", "0,2"))
    assert state.players["a"].vp == 2 + 1 + 1
    assert violation(game, state, BuildRoad("a", "0,2", "1,1", "2,0")) == "MIL-ROAD-03"


def test_MIL_HOUSE_and_MARKET_and_MILL() -> None:
    game, state = road_state()
    state = step(game, state, BuildRoad("a", "0,0", "1,0", "2,0"))
    state = step(game, state, ClaimBonus("a", "U1,0", "W1"))
    state = step(game, state, BuildRoad("a", "2,0", "3,0", "4,0"))
    vp = state.players["a"].vp  # 2 + 1 + 1 = 4
    assert violation(game, state, BuildHouse("a", "D0,0")) == "MIL-HOUSE-01"
    state = step(game, state, BuildHouse("a", "U0,0"))  # corners M(-), 1,0 covered, 0,1 = 1
    assert state.players["a"].vp == vp + 1
    assert violation(game, state, BuildHouse("a", "U0,0")) == "MIL-HOUSE-02"
    assert violation(game, state, BuildMarketplace("a", "3,0")) == "MIL-MARKET-01"
    assert violation(game, state, BuildMarketplace("a", "2,1")) == "MIL-MARKET-01"
    state = step(game, state, BuildMarketplace("a", "2,0"))  # +3
    assert state.players["a"].vp == vp + 1 + 3
    state = at(give(state, "a", grain=1), "a", "mill")
    coins = state.players["a"].coins
    assert violation(game, state, DeliverFlour("a", "2,0", ("1,1",))) == "MIL-MILL-03"
    state = step(game, state, DeliverFlour("a", "2,0", ("2,1", "1,1")))  # 2 + 5
    assert state.players["a"].vp == vp + 1 + 3 + 7
    assert state.players["a"].coins == coins + 1
    assert violation(game, state, DeliverFlour("a", "2,0", ("2,1", "1,1"))) == "MIL-MILL-02"


def test_MIL_END_04_majorities() -> None:
    from reference.milestones.rules_turn import final_scoring

    game, state = standard()
    # a: LJ2 QM3 LJ5 SW6; b: GG1 GG2 SW3 QM4
    over = final_scoring(game.tables, state)
    # LJ: a 2 -> +5; QM: 1-1 tie -> +2 each; SW: tie -> +2 each; GG: b -> +5; coiner: nobody
    assert over.majority_vp == {"a": 9, "b": 9}
    assert game.result(over).winners == ("a", "b")


def test_invariants_catch_unsound_positions() -> None:
    game, state = standard()
    assert game.invariant_failures(state) == []
    off_map = attrs.evolve(state, board=attrs.evolve(state.board, marketplaces=("0,0", "9,9")))
    assert game.invariant_failures(off_map)
    stolen = attrs.evolve(state, supply={**state.supply, "stone": 11})
    assert any("stone" in f for f in game.invariant_failures(stolen))
    workers = dict(state.players["a"].workers)
    w1 = workers["W1"]
    assert w1 is not None
    workers["W1"] = attrs.evolve(w1, number=8)
    players = {**state.players, "a": attrs.evolve(state.players["a"], workers=workers)}
    assert game.invariant_failures(attrs.evolve(state, players=players))
    missing = attrs.evolve(state, supply={k: v for k, v in state.supply.items() if k != "coin"})
    assert game.invariant_failures(missing)
