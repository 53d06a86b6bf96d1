"""A Milestones profile can make any supply unlimited (null): the goods cubes
(``supply.cubes_per_good``, one count for all four goods), the coins (``supply.coins``) and
each piece stock (``supply.road_pieces``, ``milestones``, ``houses``, ``marketplaces``,
``flour_sacks``, ``cover_tiles``); reference/core/stock.py is the one mechanism.

What the rules make of it, worked out from the catalogue (reference/milestones/data/
rules.yaml), not from the engine:

- MIL-SUPPLY-01 caps production, the order bonus and the flour coin at what the supply
  still holds, and makes buying a good the supply lacks or selling with no coin left
  illegal: an unlimited supply always holds it, so production is given in full and both
  trades stay legal.
- MIL-BUILD-02: no build once its pieces are gone; an unlimited stock is never gone.
- MIL-CASTLE-05: no cover once the cover tiles are gone; unlimited, a worker is covered.
- Returning to an unlimited supply (the Castle tax, MIL-CASTLE-02; paying a cost; a built-
  over cover tile, MIL-TRADE-08) changes nothing: the count stays null.

The positions are the rulebook fixture's (tests/milestones/milestones_fixture.py, map T1):
a has W1 lumberjack 2, W2 quarryman 3, W3 lumberjack 5, W4 sand worker 6; b has W1 grain
grower 1, W2 grain grower 2, W3 sand worker 3, W4 quarryman 4; both pawns on the Castle,
one coin each.
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest
from milestones_fixture import PROFILE

import rules_oracle
from oracle.play import PLAYER_NAMES, choose
from reference.milestones import invariants
from reference.milestones.names import GOODS, ITEMS, PIECES
from reference.registry import make_game
from rules_oracle import BadOptions, Illegal, Malformed, Position

COUNTS = ("supply.cubes_per_good", "supply.coins", *(f"supply.{p}" for p in PIECES))
"""Every supply count of a Milestones profile."""
UNLIMITED: dict[str, Any] = dict.fromkeys(COUNTS)
"""A profile with every supply unlimited."""
MIXED: dict[str, Any] = {
    "supply.cubes_per_good": None,
    "supply.road_pieces": None,
    "supply.houses": None,
    "supply.cover_tiles": None,
}
"""Goods and some pieces unlimited; coins, milestones, marketplaces and flour sacks as
printed."""
SUPPLY_PATHS = tuple(f"supply.{item}" for item in (*ITEMS, *PIECES))
"""The supply's state paths: goods, ``coin`` and the pieces."""

SETUP_EVENTS: tuple[dict[str, Any], ...] = (
    {"type": "reveal_bonus_tile", "triangle": "U1,0", "kind": "lumberjack"},
    {"type": "reveal_bonus_tile", "triangle": "D2,1", "kind": "quarryman"},
    *({"type": "draw_worker_tile", "tile": f"T{n:02}"} for n in (6, 7, 8, 9, 10, 1, 2, 3, 4, 5)),
    {"type": "draft_worker_tile", "player": "b", "tile": "T04", "space": "W1"},
    {"type": "draft_worker_tile", "player": "b", "tile": "T05", "space": "W3"},
    {"type": "draft_worker_tile", "player": "a", "tile": "T01", "space": "W1"},
    {"type": "draft_worker_tile", "player": "a", "tile": "T02", "space": "W3"},
)
"""The fixture's setup: the bonus tiles, display T06-T10, pool T01-T05, the draft."""


def fixture(supply: dict[str, Any], values: dict[str, Any] | None = None) -> Position:
    """The fixture position, drafted, under the fixture profile with these supply counts,
    then with ``values`` set by state path."""
    position = rules_oracle.load("milestones", {"profile": {**PROFILE, **supply}}).setup(["a", "b"])
    for event in SETUP_EVENTS:
        position = position.apply(event)
    return position.with_values(values or {})


def played(players: int, seed: int, profile: dict[str, Any]) -> tuple[list[str], list[Any]]:
    """A seeded game under ``profile``, every state path claimed after each event: its
    player names and its events (the result line last)."""
    lines = rules_oracle.play_log(
        "milestones", players, seed=seed, options={"profile": profile}, full=True
    )
    return json.loads(lines[0])["players"], [json.loads(line) for line in lines[1:]]


# -- the profile ---------------------------------------------------------------------------


def test_every_supply_count_takes_null_and_the_state_keeps_it() -> None:
    position = rules_oracle.load("milestones", profile=UNLIMITED).setup(["red", "blue"])
    assert {path: position[path] for path in SUPPLY_PATHS} == dict.fromkeys(SUPPLY_PATHS)
    # MIL-SETUP-03: the players' start coins come from nowhere, one each, as ever.
    assert [position["players.red.coins"], position["players.blue.coins"]] == [1, 1]


def test_limited_counts_stay_as_printed_beside_unlimited_ones() -> None:
    position = rules_oracle.load("milestones", profile=MIXED).setup(["red", "blue"])
    assert [position[f"supply.{good}"] for good in GOODS] == [None] * 4
    # MIL-COMP-02: 24 coins, one to each player (MIL-SETUP-03); MIL-SETUP-01: one of the
    # 12 marketplaces stands on the market tent.
    assert position["supply.coin"] == 22
    assert position["supply.marketplaces"] == 11
    assert position["supply.milestones"] == 24
    assert position["supply.road_pieces"] is None


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("supply.cubes_per_good", 5000, "a whole number 0..999 or null (unlimited), got 5000"),
        ("supply.coins", -1, "a whole number 0..999 or null (unlimited), got -1"),
        ("supply.houses", 1000, "a whole number 0..999 or null (unlimited), got 1000"),
        ("supply.cover_tiles", "lots", "a whole number 0..999 or null (unlimited), got 'lots'"),
        ("supply.marketplaces", True, "a whole number 0..999 or null (unlimited), got True"),
    ],
)
def test_a_count_out_of_range_names_null(key: str, value: Any, expected: str) -> None:
    with pytest.raises(BadOptions) as refused:
        rules_oracle.load("milestones", profile={key: value})
    assert refused.value.message == f"data key {key}: expected {expected}"


def test_the_rules_own_lower_bounds_still_hold_and_null_passes_them() -> None:
    """MIL-COMP-02 with MIL-BUILD-01: a cost of 2 stone (the marketplace) can never be paid
    from 1 stone cube; an unlimited supply pays any cost. MIL-SETUP-01: the start
    marketplace needs one marketplace; an unlimited stock has it."""
    with pytest.raises(BadOptions, match="supply.cubes_per_good: expected at least 2"):
        rules_oracle.load("milestones", profile={"supply.cubes_per_good": 1})
    with pytest.raises(BadOptions, match="supply.marketplaces: expected at least 1"):
        rules_oracle.load("milestones", profile={"supply.marketplaces": 0})
    with pytest.raises(BadOptions, match="setup.start_coins: expected at most a quarter"):
        rules_oracle.load("milestones", profile={"supply.coins": 3})
    rules_oracle.load("milestones", profile={**UNLIMITED, "setup.start_coins": 200})


# -- seeded play-outs ----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_a_play_out_with_every_supply_unlimited_validates_claiming_null(
    players: int, seed: int
) -> None:
    names, events = played(players, seed, UNLIMITED)
    verdict = rules_oracle.validate_events("milestones", names, events, profile=UNLIMITED)
    assert verdict.kind == "valid", verdict.message
    claims = [e["state"] for e in events if "state" in e]
    assert claims and all(c[path] is None for c in claims for path in SUPPLY_PATHS)


def test_a_play_out_with_some_supplies_unlimited_validates() -> None:
    names, events = played(3, 4, MIXED)
    verdict = rules_oracle.validate_events("milestones", names, events, profile=MIXED)
    assert verdict.kind == "valid", verdict.message
    last = events[-2]["state"]
    assert [last[f"supply.{good}"] for good in GOODS] == [None] * 4
    assert last["supply.road_pieces"] is None and last["supply.houses"] is None
    assert isinstance(last["supply.coin"], int) and isinstance(last["supply.milestones"], int)


def test_a_claimed_number_for_an_unlimited_supply_is_a_divergence() -> None:
    names, events = played(2, 1, UNLIMITED)
    claimed = [dict(e) for e in events]
    index = next(i for i, e in enumerate(claimed) if "state" in e and e.get("type") == "move")
    claimed[index]["state"] = {**claimed[index]["state"], "supply.stone": 12}
    verdict = rules_oracle.validate_events("milestones", names, claimed, profile=UNLIMITED)
    assert verdict.kind == "divergent", verdict.message
    assert verdict.event_index == index
    assert [(d.path, d.claimed, d.reference) for d in verdict.divergences] == [
        ("supply.stone", 12, None)
    ]


def test_a_claimed_null_for_a_limited_supply_is_a_divergence() -> None:
    names, events = played(2, 1, {})
    claimed = [dict(e) for e in events]
    index = next(i for i, e in enumerate(claimed) if "state" in e and e.get("type") == "move")
    claimed[index]["state"] = {**claimed[index]["state"], "supply.coin": None}
    verdict = rules_oracle.validate_events("milestones", names, claimed)
    assert verdict.kind == "divergent", verdict.message
    assert [(d.path, d.claimed) for d in verdict.divergences] == [("supply.coin", None)]


def test_a_given_number_for_an_unlimited_supply_is_unsound() -> None:
    """A position (a scenario's given state) cannot count what the game does not."""
    with pytest.raises(Malformed, match="stone: the supply is unlimited only when"):
        fixture(UNLIMITED, {"supply.stone": 3})


# -- where the limited supply runs out -----------------------------------------------------


def test_production_is_capped_by_a_limited_supply_and_full_from_an_unlimited_one() -> None:
    """MIL-PROD-01: a moves 3 from the Castle, passing the lumberjack on W1 and landing on
    the lumberjack on W3: 2 wood. b holds 11 of the 12 wood cubes: MIL-SUPPLY-01 gives a
    the 1 left; an unlimited supply gives both."""
    move = {"type": "move", "player": "a", "steps": 3}
    limited = fixture({}, {"players.b.goods.wood": 11, "supply.wood": 1}).apply(move)
    assert (limited["players.a.goods.wood"], limited["supply.wood"]) == (1, 0)
    unlimited = fixture(UNLIMITED, {"players.b.goods.wood": 11}).apply(move)
    assert (unlimited["players.a.goods.wood"], unlimited["supply.wood"]) == (2, None)


def test_the_order_bonus_coin_comes_from_an_unlimited_supply_with_none_printed_left() -> None:
    """MIL-TRADE-01: b's workers read 1, 2, 3, 4 (never falling): arriving at the Trading
    House (9 spaces from the Castle) b takes a coin. With a holding the other 23 coins,
    MIL-SUPPLY-01 gives nothing; unlimited coins give the coin."""
    to_house = {"type": "move", "player": "b", "steps": 9}
    b_to_act = {"current": "b", "players.a.coins": 23}
    limited = fixture({}, {**b_to_act, "supply.coin": 0}).apply(to_house)
    assert (limited["players.b.coins"], limited["supply.coin"]) == (1, 0)
    unlimited = fixture(UNLIMITED, b_to_act).apply(to_house)
    assert (unlimited["players.b.coins"], unlimited["supply.coin"]) == (2, None)


def test_the_flour_coin_comes_from_an_unlimited_supply_with_none_printed_left() -> None:
    """MIL-MILL-03: a, at the Mill with 1 grain (the flour's cost, MIL-MILL-01), delivers a
    sack to the start marketplace 0,0, scoring its two uncovered neighbours 1,0 (2) and
    0,1 (1), and earns a coin; with b holding the other 23 coins, MIL-SUPPLY-01 gives none.
    Unlimited, the coin comes, and the sack too (MIL-BUILD-02)."""
    at_mill = {
        "players.a.position": "mill",
        "moves_made": 1,
        "current": "a",
        "players.a.goods.grain": 1,
        "players.b.coins": 23,
    }
    flour = {
        "type": "deliver_flour",
        "player": "a",
        "marketplace": "0,0",
        "numbers": ["0,1", "1,0"],
    }
    limited = fixture({}, {**at_mill, "supply.grain": 11, "supply.coin": 0}).apply(flour)
    assert (limited["players.a.vp"], limited["players.a.coins"], limited["supply.coin"]) == (
        3,
        1,
        0,
    )
    unlimited = fixture(UNLIMITED, at_mill).apply(flour)
    assert (unlimited["players.a.vp"], unlimited["players.a.coins"]) == (3, 2)
    assert (unlimited["supply.coin"], unlimited["supply.flour_sacks"]) == (None, None)
    assert unlimited["board.flour"] == ["0,0"]


def test_buying_a_good_the_limited_supply_lacks_is_illegal_and_unlimited_legal() -> None:
    """MIL-SUPPLY-01: b holds all 12 stone; a (4 coins, and 1 more on arrival: a's workers
    read 2, 3, 5, 6, MIL-TRADE-01) at the Trading House cannot buy stone. Unlimited, a buys
    one for 2 coins (MIL-TRADE-05), 3 left; the supply stays null."""
    to_house = {"type": "move", "player": "a", "steps": 9}
    buy = {"type": "buy_good", "player": "a", "good": "stone"}
    given = {"players.a.coins": 4, "players.b.goods.stone": 12}
    limited = fixture({}, {**given, "supply.stone": 0, "supply.coin": 19}).apply(to_house)
    assert buy not in limited.legal()
    with pytest.raises(Illegal) as refused:
        limited.apply(buy)
    assert refused.value.rule_id == "MIL-SUPPLY-01"
    unlimited = fixture(UNLIMITED, given).apply(to_house)
    assert buy in unlimited.legal()
    bought = unlimited.apply(buy)
    assert (bought["players.a.goods.stone"], bought["players.a.coins"]) == (1, 3)
    assert (bought["supply.stone"], bought["supply.coin"]) == (None, None)


def test_selling_with_no_coin_left_is_illegal_and_unlimited_legal() -> None:
    """MIL-TRADE-06: two goods sell for a coin; MIL-SUPPLY-01: not when no coin is left
    (b holds the other 23; a's order bonus on arrival, MIL-TRADE-01, finds none either).
    Unlimited, a takes the order bonus (1 + 1 coins) and sells 2 wood for a third coin."""
    to_house = {"type": "move", "player": "a", "steps": 9}
    sell = {"type": "sell_goods", "player": "a", "goods": ["wood", "wood"]}
    given = {"players.a.goods.wood": 2, "players.b.coins": 23}
    limited = fixture({}, {**given, "supply.wood": 10, "supply.coin": 0}).apply(to_house)
    assert sell not in limited.legal()
    with pytest.raises(Illegal) as refused:
        limited.apply(sell)
    assert refused.value.rule_id == "MIL-SUPPLY-01"
    unlimited = fixture(UNLIMITED, given).apply(to_house)
    assert sell in unlimited.legal()
    sold = unlimited.apply(sell)
    assert (sold["players.a.coins"], sold["players.a.goods.wood"]) == (3, 0)
    assert (sold["supply.wood"], sold["supply.coin"]) == (None, None)


HOUSE_ROAD: dict[str, Any] = {
    "board.roads": ["0,0|1,0", "1,0|2,0"],
    "board.milestones": ["1,0"],
    "board.road_ends": {"2,0": "0,0"},
    "players.b.position": "board_of_works",
    "moves_made": 1,
    "current": "b",
    "players.b.goods.stone": 6,
    "players.b.goods.sand": 6,
    "players.b.goods.wood": 3,
}
"""b at the Board of Works beside a road from the start marketplace with its milestone on
1,0, holding enough for a house (wood, stone, sand)."""


def test_building_when_the_limited_pieces_are_gone_is_illegal_and_unlimited_legal() -> None:
    """MIL-BUILD-02: no house left in the supply, no house. Unlimited houses: b builds on
    U0,0 (a side on the road, MIL-HOUSE-01) and pays wood, stone and sand (MIL-BUILD-01),
    which go back to the unlimited supply without changing it."""
    house = {"type": "build_house", "player": "b", "triangle": "U0,0"}
    limited_supply = {"supply.road_pieces": 46, "supply.milestones": 23}
    goods_left = {"supply.stone": 6, "supply.wood": 9, "supply.sand": 6}
    limited = fixture({"supply.houses": 0}, {**HOUSE_ROAD, **limited_supply, **goods_left})
    assert house not in limited.legal()
    with pytest.raises(Illegal) as refused:
        limited.apply(house)
    assert refused.value.rule_id == "MIL-BUILD-02"
    unlimited = fixture(UNLIMITED, HOUSE_ROAD)
    assert house in unlimited.legal()
    built = unlimited.apply(house)
    assert built["board.houses"] == ["U0,0"]
    assert [built[f"players.b.goods.{g}"] for g in ("wood", "stone", "sand")] == [2, 5, 5]
    assert [built[f"supply.{item}"] for item in ("houses", "wood", "stone", "sand")] == [None] * 4


def test_a_worker_is_covered_from_an_unlimited_stock_of_cover_tiles() -> None:
    """MIL-CASTLE-03: a, with 4 uncovered workers, lands on the Castle and covers one;
    MIL-CASTLE-05: not with no cover tile left. Unlimited, a covers one and the stock stays
    null."""
    to_castle = {"type": "move", "player": "a", "steps": 1}
    at_mill = {"players.a.position": "mill", "moves_made": 1, "current": "a"}
    limited = fixture({"supply.cover_tiles": 0}, at_mill).apply(to_castle)
    assert limited["cover_due"] is False
    unlimited = fixture(UNLIMITED, at_mill).apply(to_castle)
    assert unlimited["cover_due"] is True
    covered = unlimited.apply({"type": "cover_worker", "player": "a", "space": "W2"})
    assert covered["players.a.workers.W2.covered"] is True
    assert covered["supply.cover_tiles"] is None


def test_the_castle_tax_returns_to_an_unlimited_supply_without_changing_it() -> None:
    """MIL-CASTLE-02: a lands on the Castle with 1 coin and 4 stone, keeps 3 and gives back
    2; giving back a stone and a coin leaves the unlimited supply null."""
    at_mill = {"players.a.position": "mill", "moves_made": 1, "current": "a"}
    taxed = fixture(UNLIMITED, {**at_mill, "players.a.goods.stone": 4})
    taxed = taxed.apply({"type": "move", "player": "a", "steps": 1})
    assert taxed["returns_due"] == 2
    for item in ("stone", "coin"):
        taxed = taxed.apply({"type": "return_to_supply", "player": "a", "item": item})
    assert (taxed["players.a.goods.stone"], taxed["players.a.coins"]) == (3, 0)
    assert (taxed["supply.stone"], taxed["supply.coin"]) == (None, None)


def test_a_built_over_cover_tile_returns_to_an_unlimited_stock_without_changing_it() -> None:
    """MIL-TRADE-08: a hires T06 (2 coins: 1, and 1 more on arrival, a's uncovered workers
    reading 3, 5, 6, MIL-TRADE-01) onto W1-W2, over the covered lumberjack on W1: its cover
    tile goes back to the supply, 20 to 21; to an unlimited stock, which stays null."""
    to_house = {"type": "move", "player": "a", "steps": 9}
    hire = {"type": "hire_worker_tile", "player": "a", "tile": "T06", "space": "W1"}
    covered = {"players.a.workers.W1.covered": True}
    limited = fixture({}, {**covered, "supply.cover_tiles": 20}).apply(to_house).apply(hire)
    assert (limited["supply.cover_tiles"], limited["players.a.coins"]) == (21, 0)
    unlimited = fixture(UNLIMITED, covered).apply(to_house).apply(hire)
    assert (unlimited["supply.cover_tiles"], unlimited["players.a.coins"]) == (None, 0)
    assert unlimited["players.a.workers.W1.tile"] == "T06"


# -- the invariant shortcuts ---------------------------------------------------------------


@pytest.mark.parametrize("profile", [UNLIMITED, MIXED], ids=["unlimited", "mixed"])
def test_the_invariant_shortcut_gives_the_full_count_along_a_play_out(
    profile: dict[str, Any],
) -> None:
    """After every event, the checker (shortcuts: ``supply_due`` by ``WEALTH_OF``) and the
    full count agree: sound states sound; a supply claiming a number where the game's is
    unlimited, a limited item from nowhere, a supply claiming null where the game's is
    limited: unsound, alike."""
    game = make_game("milestones", {"profile": profile})
    rng = random.Random(7)
    state = game.new_game(PLAYER_NAMES[:3])
    tables = game.tables
    checked = 0
    while True:
        assert game.invariant_failures(state) == invariants.invariant_failures(tables, state) == []
        if checked % 25 == 0 or game.is_over(state):
            for bad in _broken(state):
                expected = invariants.invariant_failures(tables, bad)
                assert expected
                assert game.invariant_failures(bad) == expected
                assert game.invariant_failures(state) == []
        if game.is_over(state):
            break
        state = game.apply(state, choose(game, state, rng))
        checked += 1
    assert checked > 100


def _broken(state: Any) -> list[Any]:
    """The state broken in the supply, one item at a time: a number for an unlimited item,
    null for a limited one; and a player given a limited good or coin from nowhere."""
    out = []
    for item, n in state.supply.items():
        out.append(attrs.evolve(state, supply={**state.supply, item: 0 if n is None else None}))
    name, p = next(iter(state.players.items()))
    for good in GOODS:
        if state.supply[good] is not None:
            record = attrs.evolve(p, goods={**p.goods, good: p.goods[good] + 1})
            out.append(attrs.evolve(state, players={**state.players, name: record}))
    if state.supply["coin"] is not None:
        record = attrs.evolve(p, coins=p.coins + 1)
        out.append(attrs.evolve(state, players={**state.players, name: record}))
    return out


def test_supply_due_is_null_at_an_unlimited_supply() -> None:
    """The shortcut's own count: 12 cubes of each good less what two players hold, the
    coins unlimited; a player holding more than the game has leaves nothing due."""
    wealth = [(1, 2, 3, 4, 5), (0, 0, 1, 0, 9)]
    assert invariants.supply_due((12, 12, 12, 12, None), wealth) == (11, 10, 8, 8, None)
    assert invariants.supply_due((None, None, None, None, 24), wealth) == (
        None,
        None,
        None,
        None,
        10,
    )
    assert invariants.supply_due((3, 12, 12, 12, None), [(4, 0, 0, 0, 0)]) is None


# -- a count per good ----------------------------------------------------------------------

PER_GOOD_WOOD_UNLIMITED = {
    "supply.cubes_per_good": {"stone": 12, "wood": None, "sand": 12, "grain": 12}
}
PER_GOOD_STONE_UNLIMITED = {
    "supply.cubes_per_good": {"stone": None, "wood": 12, "sand": 12, "grain": 12}
}


def test_a_count_per_good_sets_each_goods_supply() -> None:
    profile = {"supply.cubes_per_good": {"stone": None, "wood": 7, "sand": 5, "grain": None}}
    position = rules_oracle.load("milestones", profile=profile).setup(["red", "blue"])
    assert [position[f"supply.{good}"] for good in GOODS] == [None, 7, 5, None]


def test_production_is_capped_per_good() -> None:
    """As test_production_is_capped_by_a_limited_supply_and_full_from_an_unlimited_one, the
    wood counted or not by its own count: with stone alone unlimited a gets the 1 wood left;
    with wood alone unlimited a gets both."""
    move = {"type": "move", "player": "a", "steps": 3}
    given = {"players.b.goods.wood": 11}
    capped = fixture(PER_GOOD_STONE_UNLIMITED, {**given, "supply.wood": 1}).apply(move)
    assert (capped["players.a.goods.wood"], capped["supply.wood"]) == (1, 0)
    assert capped["supply.stone"] is None
    full = fixture(PER_GOOD_WOOD_UNLIMITED, given).apply(move)
    assert (full["players.a.goods.wood"], full["supply.wood"]) == (2, None)
    assert full["supply.stone"] == 12


def test_buying_a_good_is_judged_by_that_goods_own_count() -> None:
    """As test_buying_a_good_the_limited_supply_lacks_is_illegal_and_unlimited_legal: b
    holds all 12 stone; with only wood unlimited a cannot buy stone (MIL-SUPPLY-01), with
    stone unlimited a can."""
    to_house = {"type": "move", "player": "a", "steps": 9}
    buy = {"type": "buy_good", "player": "a", "good": "stone"}
    given = {"players.a.coins": 4, "players.b.goods.stone": 12, "supply.coin": 19}
    lacking = fixture(PER_GOOD_WOOD_UNLIMITED, {**given, "supply.stone": 0}).apply(to_house)
    with pytest.raises(Illegal) as refused:
        lacking.apply(buy)
    assert refused.value.rule_id == "MIL-SUPPLY-01"
    endless = fixture(PER_GOOD_STONE_UNLIMITED, given).apply(to_house)
    bought = endless.apply(buy)
    assert (bought["players.a.goods.stone"], bought["supply.stone"]) == (1, None)


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        # the marketplace asks 2 stone (MIL-COMP-02, prices.marketplace)
        (
            {"stone": 1, "wood": 12, "sand": 12, "grain": 12},
            "supply.cubes_per_good.stone: expected at least 2 (the most of stone a cost "
            "asks: marketplace), got 1",
        ),
        # the flour asks 1 grain (prices.flour)
        (
            {"stone": 12, "wood": 12, "sand": 12, "grain": 0},
            "supply.cubes_per_good.grain: expected at least 1 (the most of grain a cost "
            "asks: flour), got 0",
        ),
        (
            {"stone": 12, "wood": 12},
            "supply.cubes_per_good: expected exactly the names stone, wood, sand, grain",
        ),
        (
            {"stone": 12, "wood": 12, "sand": 12, "grain": 12, "gold": 1},
            "supply.cubes_per_good: expected exactly the names stone, wood, sand, grain",
        ),
        (
            {"stone": 12, "wood": "many", "sand": 12, "grain": 12},
            "supply.cubes_per_good.wood: expected a whole number 0..999 or null",
        ),
    ],
)
def test_a_bad_count_per_good_names_the_good(counts: dict[str, Any], expected: str) -> None:
    with pytest.raises(BadOptions) as refused:
        rules_oracle.load("milestones", profile={"supply.cubes_per_good": counts})
    assert expected in str(refused.value)


def test_a_play_out_with_a_count_per_good_validates() -> None:
    profile = {"supply.cubes_per_good": {"stone": None, "wood": 6, "sand": 5, "grain": None}}
    lines = rules_oracle.play_log("milestones", 3, seed=8, options={"profile": profile}, full=True)
    verdict = rules_oracle.validate_events(
        "milestones",
        json.loads(lines[0])["players"],
        [json.loads(line) for line in lines[1:-1]],
        options={"profile": profile},
    )
    assert verdict.kind == "valid", rules_oracle.describe(verdict)
