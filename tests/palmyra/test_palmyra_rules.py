"""Palmyra rule tests named after catalogue ids, and the bad-input guarantees."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import CHANCE, step
from reference.palmyra import PACKAGE_DIR, make
from reference.palmyra.draws import plan_draws
from reference.palmyra.engine import HANDLERS, PalmyraGame
from reference.palmyra.events import (
    EVENT_TYPES,
    CollectTaxes,
    Conquer,
    DrawTile,
    EndAction,
    MovePiece,
    PlaceTile,
    Reorganise,
)
from reference.palmyra.lattice import neighbours
from reference.palmyra.state import Draw, PlayerState, State

MIX = {"L:D": 5, "L:H": 2, "L:M": 2, "S:D": 3, "S:M": 2}


def position(game: PalmyraGame, **changes: Any) -> State:
    """A two-player position at a's turn start; ``changes`` are State fields."""
    state = game.new_game(["a", "b"])
    base = attrs.evolve(
        state,
        phase="turn",
        draws_due=(),
        city=("20,0", "21,0", "19,0"),
        players={
            "a": PlayerState(coins=0, supply=("L:D",), legion="0,0"),
            "b": PlayerState(coins=2),
        },
        board={"0,0": "L:D", "2,0": "L:D", "1,0": "S:D"},
        large_stack={"L:D": 2, "L:H": 2, "L:M": 2},
        small_stack={"S:D": 2, "S:M": 2},
    )
    return attrs.evolve(base, **changes)


def rule_of(game: PalmyraGame, state: State, *events: Any) -> str:
    """The rule id the last event breaks (the earlier ones must apply)."""
    for event in events[:-1]:
        state = step(game, state, event)
    with pytest.raises(RuleViolation) as info:
        game.apply(state, events[-1])
    return info.value.rule_id


@pytest.fixture
def game() -> PalmyraGame:
    return make({"profile": {"tiles.mix": MIX}})


def test_palmyra_fixture_position_is_sound(game: PalmyraGame) -> None:
    assert game.invariant_failures(position(game)) == []


def test_PAL_GEO_03_lattice_neighbours() -> None:
    assert set(neighbours("0,0")) == {"1,1", "1,-1", "-1,1", "-1,-1", "1,0", "-1,0", "0,1", "0,-1"}
    assert set(neighbours("1,0")) == {"0,0", "2,0", "1,1", "1,-1"}
    assert "0,1" not in neighbours("1,0")


def test_PAL_GEO_01_small_tile_needs_square_cell(game: PalmyraGame) -> None:
    state = position(
        game,
        players={"a": PlayerState(0, ("S:D",), legion="0,0"), "b": PlayerState(2)},
        large_stack={"L:D": 3, "L:H": 2, "L:M": 2},
        small_stack={"S:D": 1, "S:M": 2},
    )
    # one L:D moved to the large stack, one S:D taken from the small one: the mix holds
    assert (
        rule_of(game, state, Conquer("a", "legion"), PlaceTile("a", "S:D", "1,1")) == "PAL-GEO-01"
    )


def test_PAL_MATCH_01_landscape_matches_earn_tiles(game: PalmyraGame) -> None:
    state = position(game)
    state = step(game, state, Conquer("a", "legion"))
    state = step(game, state, PlaceTile("a", "L:D", "1,1"))
    assert state.action.earned == 2  # 2,0 and 1,0; 0,0 is occupied


def test_PAL_CONQ_03_balanced_plan(game: PalmyraGame) -> None:
    state = position(game)
    assert plan_draws(state, 4, None) == (2, 2, False)
    assert plan_draws(state, 3, "small") == (1, 2, False)
    short = attrs.evolve(state, small_stack={"S:D": 1})
    assert plan_draws(short, 4, None) == (3, 1, False)
    empty = attrs.evolve(state, large_stack={}, small_stack={"S:D": 1})
    assert plan_draws(empty, 2, None) == (0, 1, True)


def test_PAL_END_02_bank_pays_what_it_has(game: PalmyraGame) -> None:
    state = position(
        game,
        bank=1,
        players={"a": PlayerState(coins=117, supply=("L:D",), censor="0,0"), "b": PlayerState(2)},
    )
    for event in (CollectTaxes("a", "censor"), PlaceTile("a", "L:D", "1,1"), EndAction("a")):
        state = step(game, state, event)
    assert state.bank == 0 and game.is_over(state)
    assert game.result(state).winners == ("a",)


def test_PAL_TURN_01_wrong_actor_and_chance(game: PalmyraGame) -> None:
    state = position(game)
    assert rule_of(game, state, Reorganise("b", "large")) == "PAL-TURN-01"
    assert rule_of(game, state, DrawTile("L:D")) == "PAL-TURN-01"
    drawing = step(game, state, Reorganise("a", "large"))
    assert game.to_act(drawing) == CHANCE
    assert rule_of(game, drawing, MovePiece("a", "legion", "centre")) == "PAL-TURN-01"


def test_palmyra_game_over_refuses_events(game: PalmyraGame) -> None:
    state = position(game, phase="over", end="tiles")
    assert rule_of(game, state, Reorganise("a", "large")) == "CORE-END-01"


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "options",
    [
        {"mode": "expert"},
        {"icon_match": 3},
        {"colour": "red"},
        {"profile": {"tiles.mix": [1, 2]}},
        {"profile": {"tiles.mix": {"L:X": 3}}},
        {"profile": {"tiles.mix": {"L:D": -1}}},
        {"profile": {"city.layouts": {"2": ["0;0"]}}},
        {"profile": {"city.layouts": {"3": ["0,0"]}}},
        {"profile": {"setup.kits": [{"large": 1}]}},
        {"profile": {"bank.total": "lots"}},
        {"profile": {"bank.denominations": [0]}},
        {"profile": {"solo.kit_seat": 9}},
        {"profile": {"no.such_key": 1}},
        {"profile": 5},
    ],
)
def test_palmyra_bad_options_are_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(BadOptions):
        make(options)


def test_palmyra_bad_player_lists() -> None:
    with pytest.raises(BadOptions):
        make({}).new_game(["a"])
    with pytest.raises(BadOptions):
        make({}).new_game(["a", "b", "c", "d", "e", "f"])
    with pytest.raises(BadOptions):
        make({"mode": "solo"}).new_game(["a", "b"])
    with pytest.raises(BadOptions):
        make({"profile": {"tiles.mix": {"L:D": 1}}}).new_game(["a", "b"])


@pytest.mark.parametrize(
    "events",
    [
        [Conquer("a", "emperor")],
        [Conquer("a", "legion"), PlaceTile("a", "L:Q", "1,1")],
        [Conquer("a", "legion"), PlaceTile("a", "L:D", "one,one")],
        [Conquer("a", "legion"), PlaceTile("a", "L:D", "01,1")],
        [Reorganise("a", "medium")],
        [Reorganise("a", "large"), DrawTile("mystery")],
        [Reorganise("a", "large"), DrawTile("L:D"), MovePiece("a", "legion", "nowhere")],
    ],
)
def test_palmyra_malformed_fields(game: PalmyraGame, events: list[Any]) -> None:
    state = position(game)
    for event in events[:-1]:
        state = step(game, state, event)
    with pytest.raises(MalformedEvent):
        game.apply(state, events[-1])


def test_palmyra_unknown_event_class(game: PalmyraGame) -> None:
    @attrs.frozen
    class Dance:
        player: str

    with pytest.raises(MalformedEvent):
        game.apply(position(game), Dance("a"))


def test_palmyra_dispatch_complete() -> None:
    assert set(HANDLERS) == set(EVENT_TYPES)
    assert len({cls.type for cls in EVENT_TYPES}) == len(EVENT_TYPES)


def test_palmyra_every_raised_rule_is_catalogued() -> None:
    game = make({})
    source = "".join(p.read_text() for p in PACKAGE_DIR.glob("*.py"))
    raised = set(re.findall(r'"(PAL-[A-Z]+-\d\d)"', source))
    assert raised
    catalogued = set(game.catalogue.ids())
    assert raised <= catalogued | {"CORE-END-01"}


def test_palmyra_no_random_in_engine() -> None:
    for path in Path(PACKAGE_DIR).glob("*.py"):
        assert not re.search(r"^\s*(import|from)\s+random\b", path.read_text(), re.M), path


def test_palmyra_every_dispute_option_exists() -> None:
    game = make({})
    names = {f.name for f in attrs.fields(type(game.options))}
    for rule in game.catalogue.rules:
        if rule.dispute is not None and rule.dispute.option is not None:
            assert rule.dispute.option in names, rule.id


def test_palmyra_rule_data_keys_exist() -> None:
    game = make({})
    for rule in game.catalogue.rules:
        for key in rule.data:
            assert key in game.data.entries, (rule.id, key)


def test_palmyra_placeholders_are_the_unsourced_tables() -> None:
    assert set(make({}).data.placeholders()) == {"tiles.mix", "city.layouts", "bank.denominations"}


def test_palmyra_invariants_follow_the_game_mix(game: PalmyraGame) -> None:
    state = position(game)
    assert game.invariant_failures(state) == []
    other = make({"profile": {"tiles.mix": {**MIX, "L:D": 6}}})
    assert any("not conserved" in f for f in other.invariant_failures(state))
    assert game.invariant_failures(state) == []


def test_palmyra_invariants_catch_a_tile_on_the_wrong_cell(game: PalmyraGame) -> None:
    """A small tile on an octagon cell would touch small tiles (PAL-GEO-01/02)."""
    state = position(game)
    sound = attrs.evolve(
        state, board={**state.board, "2,1": "S:D"}, small_stack={"S:D": 1, "S:M": 2}
    )
    assert game.invariant_failures(sound) == []
    unsound = attrs.evolve(sound, board={**state.board, "1,1": "S:D"})
    assert any("does not fit" in f for f in game.invariant_failures(unsound))


# ------------------------------------------------------------------ review fixes


def test_PAL_END_01_setup_that_empties_the_stacks_ends_the_game() -> None:
    # Default tiles_end=stacks_empty: the mix is exactly the two kits (2 large + 2 small),
    # so the last starting draw empties both stacks and no tile can ever be drawn again.
    game = make({"profile": {"tiles.mix": {"L:D": 2, "S:D": 2}}})
    state = game.new_game(["a", "b"])
    for code in ("L:D", "S:D", "L:D", "S:D"):
        state = step(game, state, DrawTile(code))
    assert game.is_over(state) and state.end == "tiles"
    # With tiles_end=draw_fails play goes on until a draw is due.
    game = make({"tiles_end": "draw_fails", "profile": {"tiles.mix": {"L:D": 2, "S:D": 2}}})
    state = game.new_game(["a", "b"])
    for code in ("L:D", "S:D", "L:D", "S:D"):
        state = step(game, state, DrawTile(code))
    assert not game.is_over(state)


def test_PAL_END_01_no_tiles_at_all_is_over_at_once() -> None:
    kits = [{"large": 0, "small": 0, "coins": 0}] * 5
    game = make({"profile": {"tiles.mix": {}, "setup.kits": kits}})
    state = game.new_game(["a", "b"])
    assert game.is_over(state) and state.end == "tiles"
    assert game.invariant_failures(state) == []


def test_PAL_END_01_invariant_empty_stacks_mean_the_end() -> None:
    # Both stacks empty (their tiles in b's supply, so tiles are conserved) while play goes
    # on: unsound by default, sound with tiles_end=draw_fails.
    changes: dict[str, Any] = {
        "large_stack": {},
        "small_stack": {},
        "players": {
            "a": PlayerState(coins=0, supply=("L:D",), legion="0,0"),
            "b": PlayerState(
                coins=2,
                supply=("L:D", "L:D", "L:H", "L:H", "L:M", "L:M") + ("S:D", "S:D", "S:M", "S:M"),
            ),
        },
    }
    default = make({"profile": {"tiles.mix": MIX}})
    found = default.invariant_failures(position(default, **changes))
    assert found == ["both stacks are empty but the game goes on (tiles_end=stacks_empty)"]
    draw_fails = make({"tiles_end": "draw_fails", "profile": {"tiles.mix": MIX}})
    assert draw_fails.invariant_failures(position(draw_fails, **changes)) == []


def test_PAL_CHAIN_04_lone_icon_needs_room_for_a_partner() -> None:
    # Profile max_tiles=1 with lone_icon=forbidden: an icon tile could never get its plain
    # partner, so it may not be placed (it used to be listed and then left no legal event).
    game = make(
        {
            "lone_icon": "forbidden",
            "profile": {
                "tiles.mix": {"L:D": 2, "L:H+W": 1, "L:M": 2, "S:D": 3, "S:M": 2},
                "actions.max_tiles": 1,
            },
        }
    )
    state = position(
        game,
        players={
            "a": PlayerState(coins=0, supply=("L:H+W", "S:D"), legion="0,0"),
            "b": PlayerState(coins=2),
        },
        board={"0,0": "L:D"},
        large_stack={"L:D": 1, "L:M": 2},
        small_stack={"S:D": 2, "S:M": 2},
    )
    assert game.invariant_failures(state) == []
    chain = step(game, state, Conquer("a", "legion"))
    placed = {e.tile for e in game.legal_events(chain) if isinstance(e, PlaceTile)}
    assert placed == {"S:D"}
    assert rule_of(game, state, Conquer("a", "legion"), PlaceTile("a", "L:H+W", "1,1")) == (
        "PAL-CHAIN-04"
    )


# ------------------------------------------- invariant checks after a sound state (the memo warm)


def test_palmyra_coins_are_counted_after_a_sound_state() -> None:
    """After a sound state, a change of the bank alone (the players dict the same object),
    of the coins out of play alone, and of one player's coins in a new players dict is
    reported."""
    game = PalmyraGame({"profile": {"tiles.mix": MIX}})
    state = position(game)
    assert game.invariant_failures(state) == []
    bank_off = attrs.evolve(state, bank=state.bank + 1)
    assert bank_off.players is state.players
    assert any("coins not conserved" in f for f in game.invariant_failures(bank_off))
    removed_off = attrs.evolve(state, removed=state.removed + 1)
    assert any("coins not conserved" in f for f in game.invariant_failures(removed_off))
    richer = {**state.players, "b": attrs.evolve(state.players["b"], coins=3)}
    assert any(
        "coins not conserved" in f
        for f in game.invariant_failures(attrs.evolve(state, players=richer))
    )
    # One coin moved from the bank to b: sound again, with b's new coins counted.
    paid = attrs.evolve(state, players=richer, bank=state.bank - 1)
    assert game.invariant_failures(paid) == []


def test_palmyra_pieces_are_checked_after_a_sound_state() -> None:
    """After a sound state, a piece left off the board when only the board changes, and two
    pieces on one tile, or a piece moved off the board, when only the players change, are
    reported."""
    game = PalmyraGame({"profile": {"tiles.mix": MIX}})
    state = position(game)
    assert game.invariant_failures(state) == []
    # a's legion stands on 0,0: the same players on a board where its tile is elsewhere.
    board = {"4,0": "L:D", "2,0": "L:D", "1,0": "S:D"}
    moved_board = attrs.evolve(state, board=board)
    assert moved_board.players is state.players
    assert "a's legion stands at '0,0', which is no land tile" in game.invariant_failures(
        moved_board
    )
    # b's censor joins a's legion on 0,0, the board as it was.
    crowded = {**state.players, "b": attrs.evolve(state.players["b"], censor="0,0")}
    assert "two pieces stand on the tile at 0,0" in game.invariant_failures(
        attrs.evolve(state, players=crowded)
    )
    # a's legion moved off the board, the board as it was.
    astray = {**state.players, "a": attrs.evolve(state.players["a"], legion="4,4")}
    assert "a's legion stands at '4,4', which is no land tile" in game.invariant_failures(
        attrs.evolve(state, players=astray)
    )


def test_palmyra_tile_memo_sees_board_and_supply_changes() -> None:
    """The tile-count shortcut: a tile more on the board (the players dict the same
    object), or in a new players dict, is caught, and a rebuilt players dict holding the
    same tiles, or a tile drawn into a supply, is sound."""
    game = PalmyraGame({"profile": {"tiles.mix": MIX}})
    state = position(game)
    assert game.invariant_failures(state) == []
    extra_tile = attrs.evolve(state, board={**state.board, "4,0": "L:M"})
    assert extra_tile.players is state.players
    assert any("tiles not conserved" in f for f in game.invariant_failures(extra_tile))
    assert game.invariant_failures(state) == []
    more = attrs.evolve(state.players["b"], supply=("L:M",))
    gained = attrs.evolve(state, players={**state.players, "b": more})
    assert any("tiles not conserved" in f for f in game.invariant_failures(gained))
    # The same tiles in a new dict, and one taken from the stack into b's supply: sound.
    assert game.invariant_failures(attrs.evolve(state, players=dict(state.players))) == []
    drawn = attrs.evolve(gained, large_stack={"L:D": 2, "L:H": 2, "L:M": 1})
    assert game.invariant_failures(drawn) == []


def shortcut_game(state_of: Any = position) -> tuple[PalmyraGame, State]:
    """A rule set and the fixture position, found sound once: the memo now holds it, so
    the tiles and the lattice of what follows are checked on the changes."""
    game = PalmyraGame({"profile": {"tiles.mix": MIX}})
    state = state_of(game)
    assert game.invariant_failures(state) == []
    return game, state


def with_hand(state: State, name: str, **hand: Any) -> dict[str, PlayerState]:
    """The players of ``state`` with ``name``'s supply or face-down tiles replaced."""
    return {**state.players, name: attrs.evolve(state.players[name], **hand)}


def test_palmyra_tile_shortcut_sees_unsound_stack_counts() -> None:
    """A changed stack count is checked as the full count checks it: a negative count, a
    tile of the other size, a code that is no tile (even with a count of 0), each with the
    tiles that moved balanced, is reported; a draw from the stack is sound."""
    game, state = shortcut_game()
    drawn = attrs.evolve(
        state,
        large_stack={**state.large_stack, "L:D": 1},
        players=with_hand(state, "a", supply=("L:D", "L:D")),
    )
    assert game.invariant_failures(drawn) == []
    overdrawn = attrs.evolve(
        drawn,
        large_stack={**state.large_stack, "L:D": -1},
        players=with_hand(state, "a", supply=("L:D",) * 4),
    )
    assert "large stack holds -1 x 'L:D'" in game.invariant_failures(overdrawn)
    wrong_size = attrs.evolve(
        drawn, large_stack={**drawn.large_stack, "S:M": 1}, small_stack={"S:D": 2, "S:M": 1}
    )
    assert "large stack holds 1 x 'S:M'" in game.invariant_failures(wrong_size)
    no_tile = attrs.evolve(drawn, small_stack={**drawn.small_stack, "X:Y": 0})
    assert game.invariant_failures(no_tile) == ["small stack holds 0 x 'X:Y'"]
    # A tile more or less in the stack, or both L:H gone with their count, and no tile
    # anywhere else to make up for it.
    for large in ({"L:D": 2, "L:H": 2, "L:M": 2}, {"L:D": 0, "L:H": 2, "L:M": 2}, {"L:D": 1}):
        lost = attrs.evolve(drawn, large_stack={**large, "L:M": 2})
        assert any("tiles not conserved" in f for f in game.invariant_failures(lost)), large


def test_palmyra_tile_shortcut_sees_a_board_tile_changed() -> None:
    """A tile on the board turned into another is not conserved (the shortcut counts added
    tiles only when the earlier board is still all there); swapped with one from the stack
    it is sound."""
    game, state = shortcut_game()
    changed = attrs.evolve(state, board={**state.board, "0,0": "L:M"})
    assert any("tiles not conserved" in f for f in game.invariant_failures(changed))
    swapped = attrs.evolve(changed, large_stack={"L:D": 3, "L:H": 2, "L:M": 1})
    assert game.invariant_failures(swapped) == []


def test_palmyra_tile_shortcut_sees_face_down_tiles() -> None:
    """A tile turned face down from the supply is sound; a face-down tile more (the supply
    as it was), or one face down that never left the supply, is reported."""
    game, state = shortcut_game()
    flipped = attrs.evolve(state, players=with_hand(state, "a", supply=(), face_down=("L:D",)))
    assert game.invariant_failures(flipped) == []
    assert game.invariant_failures(flipped) == []
    doubled = attrs.evolve(flipped, players=with_hand(flipped, "a", face_down=("L:D", "L:D")))
    assert any("tiles not conserved" in f for f in game.invariant_failures(doubled))
    still_up = attrs.evolve(state, players=with_hand(state, "a", face_down=("L:D",)))
    assert any("tiles not conserved" in f for f in game.invariant_failures(still_up))


def test_palmyra_lattice_shortcut_checks_the_tiles_added() -> None:
    """PAL-GEO-01/02 on the tiles an event adds (each from a's supply, so tiles balance):
    a large tile on a square cell, or any tile on the city centre, is reported; a large
    tile on an octagon cell is sound. A tile replaced by one that does not fit is reported."""
    game, state = shortcut_game()
    emptied = with_hand(state, "a", supply=())
    misfit = attrs.evolve(state, board={**state.board, "0,1": "L:D"}, players=emptied)
    assert game.invariant_failures(misfit) == ["cell '0,1' holds 'L:D', which does not fit it"]
    on_city = attrs.evolve(state, board={**state.board, "20,0": "L:D"}, players=emptied)
    assert game.invariant_failures(on_city) == ["city-centre cell 20,0 also holds a land tile"]
    placed = attrs.evolve(state, board={**state.board, "1,1": "L:D"}, players=emptied)
    assert game.invariant_failures(placed) == []
    # A tile of the board swapped for a small one from the stack: the tiles balance, the
    # cell does not fit (the earlier board is no longer all there: checked in full).
    swapped = attrs.evolve(
        state,
        board={**state.board, "0,0": "S:M"},
        large_stack={**state.large_stack, "L:D": 3},
        small_stack={"S:D": 2, "S:M": 1},
    )
    assert game.invariant_failures(swapped) == ["cell '0,0' holds 'S:M', which does not fit it"]


def test_palmyra_shortcuts_see_a_seat_more() -> None:
    """A player more (the others as they were) is checked in full: their coins, or their
    tile or piece, are reported."""
    game, state = shortcut_game()
    for newcomer, fault in (
        (PlayerState(coins=1), "coins not conserved"),
        (PlayerState(coins=0, supply=("L:M",)), "tiles not conserved"),
        (PlayerState(coins=0, legion="4,4"), "c's legion stands at '4,4', which is no land tile"),
    ):
        more = attrs.evolve(state, players={**state.players, "c": newcomer})
        assert any(fault in f for f in game.invariant_failures(more)), fault


def test_palmyra_pieces_law_piece_by_piece() -> None:
    """Every legion and every censor is checked (a's legion stands on 0,0): a legion or a
    censor on a cell with no tile, or a piece on a tile another piece stands on, whichever
    of the two it is, is reported."""
    game, state = shortcut_game()
    a = state.players["a"]
    b = state.players["b"]
    for players, fault in (
        ({"a": a, "b": attrs.evolve(b, legion="0,0")}, "two pieces stand on the tile at 0,0"),
        (
            {"a": attrs.evolve(a, censor="2,0"), "b": attrs.evolve(b, legion="2,0")},
            "two pieces stand on the tile at 2,0",
        ),
        (
            {"a": a, "b": attrs.evolve(b, censor="4,4")},
            "b's censor stands at '4,4', which is no land tile",
        ),
    ):
        assert fault in game.invariant_failures(attrs.evolve(state, players=players)), fault


def test_palmyra_draws_due_to_players_only() -> None:
    """A draw due to someone who is not a player is reported (checked on every state),
    among draws due to players; draws due to players are sound."""
    game, state = shortcut_game()
    drawing = attrs.evolve(state, phase="draw", draws_due=(Draw("a", "large"), Draw("b", "small")))
    assert game.invariant_failures(drawing) == []
    stranger = attrs.evolve(drawing, draws_due=(Draw("a", "large"), Draw("zed", "small")))
    assert game.invariant_failures(stranger) == ["a draw is due to someone who is not a player"]
