"""The move and end-of-turn handlers make their changes in one copy of the state, and the
goods and coins are counted in one pass over the players: expectations worked out by hand."""

from __future__ import annotations

import attrs
from milestones_fixture import PROFILE, at, give, standard

from reference.core.game import step
from reference.milestones.engine import MilestonesGame
from reference.milestones.events import EndTurn, HireWorkerTile, Move


def hired_at_trading_house(moves_made: int) -> tuple[object, object]:
    """b (GG1 GG2 SW3 QM4, 1 coin) at the Trading House with 3 more coins, 2 wood; hires T06
    (CO2 CO3) over W2 and W3 for two coins: 2 coins and 2 wood left, display 4 of 5."""
    game, state = standard()
    state = give(at(state, "b", "trading_house", moves_made), "b", coin=3, wood=2)
    state = step(game, state, HireWorkerTile("b", "T06", "W2"))
    assert state.hired and len(state.display) == 4 and state.draw_pile
    assert state.players["b"].coins == 2
    return game, state


def test_move_off_the_trading_house_onto_the_castle_in_one_step() -> None:
    """Leaving after a hire (MIL-TRADE-04), landing (no worker on the Castle: no product)
    and the Castle tax (MIL-CASTLE-02/03) all land in the one new state."""
    game, state = hired_at_trading_house(1)
    after = step(game, state, Move("b", 3))
    b = after.players["b"]
    assert b.position == "castle" and after.moves_made == 2
    assert not after.hired and after.refill_due  # display 4 < 5, the pile holds T11..T14
    assert (b.coins, b.goods["wood"]) == (2, 2)
    assert after.returns_due == 1  # 4 goods and coins, keep 3
    assert after.cover_due  # GG1 CO2 CO3 QM4 uncovered: more than two
    assert after.supply == state.supply
    assert state.hired and state.moves_made == 1  # the old state is untouched


def test_castle_tax_counts_goods_and_coins_together() -> None:
    """a at the Mill landing on the Castle (MIL-CASTLE-02): with 1 coin and 2 stone a keeps
    all three and owes nothing; with a sand more a owes one piece."""
    game, state = standard()
    state = give(at(state, "a", "mill", 0), "a", stone=2)  # 1 coin + 2 stone = 3
    assert step(game, state, Move("a", 1)).returns_due == 0
    state = give(state, "a", sand=1)
    after = step(game, state, Move("a", 1))
    assert after.returns_due == 1 and after.cover_due and after.moves_made == 1


def test_end_turn_after_a_hire_starts_the_refill() -> None:
    game, state = hired_at_trading_house(2)
    after = step(game, state, EndTurn("b"))
    assert (after.current, after.moves_made) == ("a", 0)
    assert not after.hired and after.refill_due
    assert game.to_act(after) == "chance"


def test_end_turn_that_ends_the_game_drops_the_refill() -> None:
    """a triggered the end, so b's turn is the last (MIL-END-03): no refill, final scoring.
    a: LJ2 QM3 LJ5 SW6, b: GG1 CO2 CO3 QM4 -> LJ a 5, SW a 5, GG b 5, coiner b 5, QM tie 2."""
    game, state = hired_at_trading_house(2)
    state = attrs.evolve(state, end_trigger="a")
    after = step(game, state, EndTurn("b"))
    assert game.is_over(after)
    assert not after.hired and not after.refill_due and after.current == ""
    assert after.majority_vp == {"a": 12, "b": 12}
    assert {n: p.vp for n, p in after.players.items()} == {"a": 12, "b": 12}


def test_goods_and_coins_conservation_reads_every_player() -> None:
    game, state = standard()
    cubes, coins = game.tables.cubes_per_good["wood"], game.tables.coins  # each good alike
    players = dict(state.players)
    b = players["b"]
    # Only the second player is off: 2 sand and a coin from nowhere.
    players["b"] = attrs.evolve(b, goods={**b.goods, "sand": 2}, coins=b.coins + 1)
    state = attrs.evolve(state, players=players)
    assert game.invariant_failures(state) == [
        f"sand: {cubes + 2} cubes in play, the game has {cubes}",
        f"coins: {coins + 1} in play, the game has {coins}",
    ]
    # A stone taken from the supply by a and a wood put back by nobody: stone conserved.
    state = give(state, "a", stone=1)
    state = attrs.evolve(state, supply={**state.supply, "wood": state.supply["wood"] - 1})
    assert game.invariant_failures(state) == [
        f"wood: {cubes - 1} cubes in play, the game has {cubes}",
        f"sand: {cubes + 2} cubes in play, the game has {cubes}",
        f"coins: {coins + 1} in play, the game has {coins}",
    ]


def test_piece_stocks_are_rechecked_when_only_the_supply_changes() -> None:
    """Every change to a piece stock is counted, the board and the workers the same
    objects as in a sound state just checked."""
    game, state = standard(MilestonesGame({"profile": PROFILE}))
    assert game.invariant_failures(state) == []
    roads = state.supply["road_pieces"]
    covers = state.supply["cover_tiles"]
    short = attrs.evolve(state, supply={**state.supply, "road_pieces": roads - 1})
    assert short.board is state.board
    assert game.invariant_failures(short) == [f"road_pieces: 0 placed + {roads - 1} in supply"]
    extra = attrs.evolve(short, supply={**short.supply, "cover_tiles": covers + 2})
    assert game.invariant_failures(extra) == [
        f"road_pieces: 0 placed + {roads - 1} in supply",
        f"cover_tiles: 0 placed + {covers + 2} in supply",
    ]
    assert game.invariant_failures(state) == []
    # A covered worker (same board, new workers) with the tile still in the supply: caught.
    a = state.players["a"]
    w1 = a.workers["W1"]
    assert w1 is not None
    covered = {**a.workers, "W1": attrs.evolve(w1, covered=True)}
    players = {**state.players, "a": attrs.evolve(a, workers=covered)}
    assert game.invariant_failures(attrs.evolve(state, players=players)) == [
        f"cover_tiles: 1 placed + {covers} in supply"
    ]


def test_goods_and_coins_from_nowhere_are_reported_after_a_sound_state() -> None:
    """After a sound state, a player given a cube or a coin from nowhere (the supply the
    same object) is reported, and so is a supply short of a cube while every player stays
    the same object."""
    game, state = standard(MilestonesGame({"profile": PROFILE}))
    cubes, coins = game.tables.cubes_per_good["wood"], game.tables.coins  # each good alike
    assert game.invariant_failures(state) == []
    a = state.players["a"]
    richer = {**state.players, "a": attrs.evolve(a, goods={**a.goods, "wood": a.goods["wood"] + 1})}
    assert game.invariant_failures(attrs.evolve(state, players=richer)) == [
        f"wood: {cubes + 1} cubes in play, the game has {cubes}"
    ]
    assert game.invariant_failures(state) == []
    # Only the coins change: the goods stay the same object.
    paid = {**state.players, "a": attrs.evolve(a, coins=a.coins + 1)}
    assert game.invariant_failures(attrs.evolve(state, players=paid)) == [
        f"coins: {coins + 1} in play, the game has {coins}"
    ]
    assert game.invariant_failures(state) == []
    short = attrs.evolve(state, supply={**state.supply, "grain": state.supply["grain"] - 1})
    assert short.players is state.players
    assert game.invariant_failures(short) == [
        f"grain: {cubes - 1} cubes in play, the game has {cubes}"
    ]


def test_board_checks_follow_the_board_through_the_memo() -> None:
    """The worker-tile shortcut checks the board's own laws again when a tile place
    changes: a road off the map is reported once the memo is warm, and still reported
    when afterwards only a worker tile place changes (the same broken board)."""
    game, state = standard(MilestonesGame({"profile": PROFILE}))
    assert game.invariant_failures(state) == []
    roads = state.supply["road_pieces"]
    off_map = attrs.evolve(
        state,
        board=attrs.evolve(state.board, roads=("X1|X2",)),
        supply={**state.supply, "road_pieces": roads - 1},
    )
    off = "road 'X1|X2' is not an edge of the map"
    assert off in game.invariant_failures(off_map)
    later = attrs.evolve(off_map, display=off_map.display[1:])
    assert later.board is off_map.board
    assert off in game.invariant_failures(later)
    assert game.invariant_failures(state) == []
