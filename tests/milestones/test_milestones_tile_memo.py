"""The worker-tile shortcut (reference/milestones/invariants.py ``InvariantChecker``) reads
each player's workers again only when they are a new dict, and checks the tile laws again
only when a player's workers or a place they read (the board, the draw pile, display,
draft pool, removed tiles, workers and bonus tiles out of play, the face-down bonus tiles)
is a new object. A sound state fills the memo; each hand-broken state after it, broken in
one part while the others stay the same objects, must still be reported (and a sound one
after it found sound). tests/contract/test_invariant_shortcuts.py compares the checker
with the full count over whole play-outs."""

from __future__ import annotations

import attrs
from milestones_fixture import PROFILE, standard

from reference.milestones.engine import MilestonesGame
from reference.milestones.state import State, Worker


def incremental() -> tuple[MilestonesGame, State]:
    """The standard two-player position with the memo filled by a sound check."""
    game, state = standard(MilestonesGame({"profile": PROFILE}))
    assert game.invariant_failures(state) == []
    return game, state


def with_worker(state: State, name: str, space: str, worker: Worker | None) -> State:
    """The state with one worker space of one player replaced (a new workers dict)."""
    player = state.players[name]
    workers = {**player.workers, space: worker}
    return attrs.evolve(
        state, players={**state.players, name: attrs.evolve(player, workers=workers)}
    )


def worker(state: State, name: str, space: str) -> Worker:
    """The worker on a space (there must be one)."""
    found = state.players[name].workers[space]
    assert found is not None
    return found


def test_a_misprinted_worker_stays_reported_while_another_player_covers() -> None:
    """a's W1 printed with another number is reported; b then covers a worker (b's workers
    new, a's the same object, a cover tile taken from the supply): a's failure is kept and
    b's cover is counted (no cover-tile failure); b's cover with the tile left in the
    supply is caught."""
    game, state = incremental()
    w1 = worker(state, "a", "W1")
    broken = with_worker(state, "a", "W1", attrs.evolve(w1, number=w1.number + 1))
    misprinted = f"worker T01.left is not as printed: ('lumberjack', {w1.number})"
    assert game.invariant_failures(broken) == [misprinted]
    covers = state.supply["cover_tiles"]
    covered = with_worker(broken, "b", "W2", attrs.evolve(worker(state, "b", "W2"), covered=True))
    assert covered.players["a"] is broken.players["a"]
    assert game.invariant_failures(covered) == [
        misprinted,
        f"cover_tiles: 1 placed + {covers} in supply",
    ]
    paid = attrs.evolve(covered, supply={**covered.supply, "cover_tiles": covers - 1})
    assert game.invariant_failures(paid) == [misprinted]
    assert game.invariant_failures(state) == []


def test_a_bonus_tile_from_nowhere_on_a_worker_is_reported() -> None:
    """b's W4 (a quarryman) given a bonus tile while the board still shows both: one
    quarryman bonus tile too many, though nothing but b's workers changed."""
    game, state = incremental()
    bonus = with_worker(state, "b", "W4", attrs.evolve(worker(state, "b", "W4"), bonus=True))
    assert bonus.board is state.board and bonus.bonus_pool is state.bonus_pool
    assert game.invariant_failures(bonus) == ["quarryman bonus tiles: 2, the game has 1"]
    assert game.invariant_failures(state) == []


def test_a_worker_lost_from_a_board_is_reported() -> None:
    """a's W4 emptied (its tile's other half still on W3): a worker missing, with the loose
    tiles the same objects."""
    game, state = incremental()
    lost = with_worker(state, "a", "W4", None)
    assert lost.draw_pile is state.draw_pile and lost.display is state.display
    assert game.invariant_failures(lost) == ["7 workers on boards or out of play, 10 tiles loose"]
    assert game.invariant_failures(state) == []


def test_the_loose_tiles_are_counted_again_when_only_they_change() -> None:
    """A draw (pile to display) is sound; a tile dropped from the draw pile, a tile both in
    the pile and on display, and a tile on display that a player has hired are each caught
    while the players stay the same objects."""
    game, state = incremental()
    pile, display = state.draw_pile, state.display
    drawn = attrs.evolve(state, draw_pile=pile[1:], display=(*display, pile[0]))
    assert game.invariant_failures(drawn) == []
    dropped = attrs.evolve(drawn, draw_pile=pile[2:])
    assert dropped.players is drawn.players
    assert game.invariant_failures(dropped) == ["8 workers on boards or out of play, 9 tiles loose"]
    twice = attrs.evolve(drawn, draw_pile=pile)
    assert game.invariant_failures(twice) == ["a worker tile or a worker lies in two places"]
    hired = attrs.evolve(state, display=(*display, "T01"))
    assert game.invariant_failures(hired) == [
        "a worker tile is both loose and on a player board",
        "8 workers on boards or out of play, 11 tiles loose",
    ]
    unknown = attrs.evolve(state, removed_tiles=("T99",))
    assert game.invariant_failures(unknown) == ["worker tiles appear that the game does not have"]
    assert game.invariant_failures(state) == []


def test_the_workers_out_of_play_are_counted_again_when_only_they_change() -> None:
    """A worker discarded twice over (it is still on a's board), and a discarded worker of a
    loose tile, are caught while every player stays the same object."""
    game, state = incremental()
    twice = attrs.evolve(state, discarded_workers=("T01.left",))
    assert twice.players is state.players
    assert game.invariant_failures(twice) == [
        "a worker tile or a worker lies in two places",
        "9 workers on boards or out of play, 10 tiles loose",
    ]
    loose = attrs.evolve(state, discarded_workers=("T11.left", "T11.right"))
    assert game.invariant_failures(loose) == [
        "a worker tile is both loose and on a player board",
        "10 workers on boards or out of play, 10 tiles loose",
    ]
    assert game.invariant_failures(state) == []


def test_a_state_sharing_the_players_dict_keeps_their_counts() -> None:
    """The players are counted again only when the state has a new players' dict: a broken
    player (a coin from nowhere, a misprinted worker) stays reported through the states that
    share the broken dict (the end of a turn copies only the turn fields), and the sound
    players' dict after them is found sound."""
    game, state = incremental()
    coins = game.tables.coins
    w1 = worker(state, "a", "W1")
    broken = with_worker(state, "a", "W1", attrs.evolve(w1, number=w1.number + 1))
    a = broken.players["a"]
    broken = attrs.evolve(
        broken, players={**broken.players, "a": attrs.evolve(a, coins=a.coins + 1)}
    )
    failures = [
        f"coins: {coins + 1} in play, the game has {coins}",
        f"worker T01.left is not as printed: ('lumberjack', {w1.number})",
    ]
    assert game.invariant_failures(broken) == failures
    later = attrs.evolve(broken, moves_made=1)
    assert later.players is broken.players
    assert game.invariant_failures(later) == failures
    assert game.invariant_failures(attrs.evolve(state, moves_made=1)) == []


def test_a_state_sharing_a_broken_supply_keeps_its_failures() -> None:
    """The goods, coins and piece stocks of the supply are compared again only when the
    supply or the players' dict is a new object: a supply short of a cube and a road piece
    stays reported through a state sharing it and the players' dict (an end of turn), and
    the sound supply after it is found sound."""
    game, state = incremental()
    cubes, roads = game.tables.cubes_per_good["grain"], state.supply["road_pieces"]
    short = attrs.evolve(
        state,
        supply={**state.supply, "grain": state.supply["grain"] - 1, "road_pieces": roads - 1},
    )
    failures = [
        f"grain: {cubes - 1} cubes in play, the game has {cubes}",
        f"road_pieces: 0 placed + {roads - 1} in supply",
    ]
    assert game.invariant_failures(short) == failures
    later = attrs.evolve(short, moves_made=1)
    assert later.supply is short.supply and later.players is short.players
    assert game.invariant_failures(later) == failures
    assert game.invariant_failures(attrs.evolve(later, supply=state.supply)) == []
    bad = attrs.evolve(state, supply={k: n for k, n in state.supply.items() if k != "grain"})
    keys = game.invariant_failures(bad)
    assert len(keys) == 1 and keys[0].startswith("the supply must count exactly")
    assert game.invariant_failures(attrs.evolve(bad, moves_made=1)) == keys
