"""Palmyra's invariants, checked after every event: tiles and coins conserved, the lattice
sound, pieces on tiles or in the centre, the turn bookkeeping consistent.

``invariant_failures`` counts every law in full. The rule set checks through a ``Memo``,
which gives the same answer with two shortcuts, each kept because it buys more than 5% of
a validation's CPU (shortcuts for the coins and the pieces bought less and were removed):
the tile count and the lattice. Counting every tile of the mix against the stacks, the
board and every hand, and fitting every tile on the board to its cell, are the costliest
checks of the game, and an event moves a few tiles at most. States are immutable and an
event changes a few of their parts, sharing the others with the state before
(reference/core/evolve.py), so once a state's tiles and lattice are found sound the next
state's are checked on what changed since: a holder that is the very same object needs no
second look, the tiles that moved between holders must balance, and each tile added to the
board must fit its cell. Whatever a shortcut cannot vouch for is counted in full, so a
fault reads the same either way. A contract test compares the memo with
``invariant_failures`` after every event of seeded play-outs and on states broken in each
part the shortcuts key on (tests/contract/test_invariant_shortcuts.py).
"""

from __future__ import annotations

from collections import Counter
from operator import attrgetter

from reference.palmyra.lattice import CENTRE, kind_of
from reference.palmyra.state import CHAIN, CHOOSE, DRAW, MOVE, OVER, SETUP, TURN, State
from reference.palmyra.tables import Config
from reference.palmyra.tiles import TILES

_ACTION_OF_PHASE = {
    CHAIN: ("conquer", "collect_taxes"),
    CHOOSE: ("conquer",),
    MOVE: ("reorganise",),
}


def invariant_failures(cfg: Config, state: State) -> list[str]:
    """Every broken invariant (an empty list when the state is sound), counted in full."""
    return failures(cfg, state, Memo())


def failures(cfg: Config, state: State, memo: Memo) -> list[str]:
    """Every broken invariant (an empty list when the state is sound), the tiles and the
    lattice checked on what changed since the last state ``memo`` found them sound."""
    found = [*_coins(cfg, state), *_tiles_and_lattice(cfg, state, memo), *_pieces(state)]
    players = state.players
    if state.current not in players:
        found.append(f"current player {state.current!r} is not a player")
    if state.emperor and (state.emperor not in players or not cfg.advanced):
        found.append(f"emperor held by {state.emperor!r} outside the advanced game or players")
    due = bool(state.draws_due)
    if due != (state.phase in (SETUP, DRAW)):
        found.append(f"phase {state.phase} with {len(state.draws_due)} draws due")
    if due and not players.keys() >= set(map(_DRAWER, state.draws_due)):
        found.append("a draw is due to someone who is not a player")
    kinds = _ACTION_OF_PHASE.get(state.phase)
    if kinds is not None and state.action.kind not in kinds:
        found.append(f"phase {state.phase} with action {state.action.kind!r}")
    if state.phase == TURN and state.action.kind:
        found.append("an action is recorded before one was chosen")
    if state.phase == OVER and not state.end:
        found.append("the game is over without a reason")
    # PAL-END-01 (tiles_end=stacks_empty): empty stacks end the game at once.
    if (
        cfg.options.tiles_end == "stacks_empty"
        and state.phase != OVER
        and not any(state.large_stack.values())
        and not any(state.small_stack.values())
    ):
        found.append("both stacks are empty but the game goes on (tiles_end=stacks_empty)")
    return found


class Memo:
    """The last state whose tiles and lattice were found sound, kept by one engine (never
    shared between rule sets: its tile mix is the one counted against); a new one checks
    them in full."""

    def __init__(self) -> None:
        self.sound: State | None = None
        """The last state whose tiles and lattice were both sound (an unsound state checked
        since leaves it in place: the next is compared with this one)."""


def _tiles_and_lattice(cfg: Config, state: State, memo: Memo) -> list[str]:
    """What is wrong with the tiles and the lattice: in full, or, after a sound state
    (``memo.sound``) with the same city, only where this state differs from it. Each
    shortcut answers only "still sound"; a law it cannot vouch for is checked in full, so
    a fault is always named as the full check names it."""
    last = memo.sound
    if last is None or last.city is not state.city:
        found = _tiles(cfg, state) + _lattice(state)
    else:
        same_board = state.board is last.board
        added = {} if same_board else _tiles_added(last.board, state.board)
        same_stacks = (
            state.large_stack is last.large_stack and state.small_stack is last.small_stack
        )
        found = []
        # Tiles: the same holders hold the same tiles; else the tiles that moved balance.
        holders_changed = _hands_changed(last, state) or not (same_board and same_stacks)
        if holders_changed and not _tiles_moved_within(last, state, added):
            found += _tiles(cfg, state)
        # The lattice: the same board, or the sound one with only fitting tiles added.
        if not (same_board or _added_tiles_fit(added, state)):
            found += _lattice(state)
    if not found:
        memo.sound = state
    return found


def _coins(cfg: Config, state: State) -> list[str]:
    """Coins are conserved: the bank, the coins out of play and the players' coins (not
    counted when a profile makes the bank unlimited: it is so exactly when the game's is)."""
    if state.bank is None or cfg.tables.bank_total is None:
        if state.bank is None and cfg.tables.bank_total is None:
            return []
        return ["the bank is unlimited only when the game's is"]
    coins = state.bank + state.removed + sum(map(_COINS, state.players.values()))
    if coins != cfg.tables.bank_total:
        return [f"coins not conserved: {coins} in play, the game has {cfg.tables.bank_total}"]
    return []


def _hands_changed(last: State, state: State) -> bool:
    """Whether any player's tiles in hand (supply, face down) are not the very same tuples
    as in ``last``; True when the seats are not the same."""
    if state.players is last.players:
        return False
    before = last.players
    if state.players.keys() != before.keys():
        return True
    for name, p in state.players.items():
        q = before[name]
        if p is not q and (p.supply is not q.supply or p.face_down is not q.face_down):
            return True
    return False


_COINS = attrgetter("coins")
"""A player's coins."""

_DRAWER = attrgetter("player")
"""The player a due draw is for."""


def _tiles_moved_within(last: State, state: State, added: dict[str, str] | None) -> bool:
    """Whether the tiles of ``state`` are conserved, given that those of the sound state
    ``last`` were: every tile that came into a holder (a stack, the board, a supply, a
    face-down pile) left another, and every stack count that changed is a sound one.
    ``added``: the tiles added to the board since (``_tiles_added``). False when that
    cannot be shown (the full count then says what is wrong)."""
    came: list[str] = []
    went: list[str] = []
    if state.large_stack is not last.large_stack and not _stack_moves(
        last.large_stack, state.large_stack, "L", came, went
    ):
        return False
    if state.small_stack is not last.small_stack and not _stack_moves(
        last.small_stack, state.small_stack, "S", came, went
    ):
        return False
    if added is None:
        return False  # a tile left the board or changed: count in full
    came += added.values()
    if state.players is not last.players:
        before = last.players
        if state.players.keys() != before.keys():
            return False
        for name, p in state.players.items():
            q = before[name]
            if p is not q:
                if p.supply is not q.supply:
                    came += p.supply
                    went += q.supply
                if p.face_down is not q.face_down:
                    came += p.face_down
                    went += q.face_down
    return sorted(came) == sorted(went)


def _stack_moves(
    old: dict[str, int], new: dict[str, int], size: str, came: list[str], went: list[str]
) -> bool:
    """Note the tiles that left or came into a stack (``old`` became ``new``); False when
    a changed count is no sound one (negative, or no tile of the stack's size)."""
    for code, n in new.items():
        was = old.get(code)
        if was is None or n != was:
            if n < 0 or code not in TILES or TILES[code].size != size:
                return False
            was = was or 0
            if n > was:
                came += [code] * (n - was)
            else:
                went += [code] * (was - n)
    for code, was in old.items():
        if code not in new:
            went += [code] * was
    return True


def _tiles_added(old: dict[str, str], board: dict[str, str]) -> dict[str, str] | None:
    """The tiles ``board`` holds beyond the sound board ``old``, by cell; None when a tile
    of ``old`` is gone or another lies in its place."""
    if not old.items() <= board.items():
        return None
    return {cell: board[cell] for cell in board.keys() - old.keys()}


def _added_tiles_fit(added: dict[str, str] | None, state: State) -> bool:
    """Whether the board is a sound one with only ``added`` tiles more, each on a cell that
    fits it and off the city centre (PAL-GEO-01/02, as ``_lattice``)."""
    if added is None:
        return False
    for cell, code in added.items():
        if code not in TILES or TILES[code].size != kind_of(cell) or cell in state.city:
            return False
    return True


def _outside_stacks(cfg: Config, state: State) -> tuple[dict[str, int], list[str]]:
    """How many tiles of each code must lie outside the stacks, and any fault in the stacks."""
    rest: Counter[str] = Counter(cfg.tables.mix)
    faults = []
    for name, pile, size in (("large", state.large_stack, "L"), ("small", state.small_stack, "S")):
        for code, n in pile.items():
            if n < 0 or code not in TILES or TILES[code].size != size:
                faults.append(f"{name} stack holds {n} x {code!r}")
            else:
                rest[code] -= n
    if any(n < 0 for n in rest.values()):
        faults.append("the stacks hold more tiles than the tile mix")
    return dict(+rest), faults


def _tiles(cfg: Config, state: State) -> list[str]:
    """The stack faults, and whether the tiles outside the stacks are the ones expected."""
    expected, faults = _outside_stacks(cfg, state)
    return _tile_count(state, expected, faults)


def _tile_count(state: State, expected: dict[str, int], faults: list[str]) -> list[str]:
    """The stack faults, and whether the tiles outside the stacks are the ones expected."""
    held = list(state.board.values())
    for p in state.players.values():
        held += p.supply
        held += p.face_down
    count: Counter[str] = Counter(held)
    if dict.__eq__(count, expected):
        return faults
    diff = (count - Counter(expected)) + (Counter(expected) - count)
    return [*faults, f"tiles not conserved: {dict(diff)} differ from the tile mix"]


def _lattice(state: State) -> list[str]:
    found: list[str] = []
    for cell, code in state.board.items():
        # PAL-GEO-01/02: large tiles on octagon cells, small on square cells, so two small
        # tiles never touch; no land tile on the city centre.
        kind = kind_of(cell)
        if code not in TILES or TILES[code].size != kind:
            found.append(f"cell {cell!r} holds {code!r}, which does not fit it")
    return found + _city(state)


def _city(state: State) -> list[str]:
    found: list[str] = []
    for cell in state.city:
        if cell in state.board:
            found.append(f"city-centre cell {cell} also holds a land tile")
    return found


def _pieces(state: State) -> list[str]:
    """Every legion and censor stands in the city centre or alone on a land tile: the sound
    case checked piece by piece (the two pieces spelt out, no pair built per player), the
    faults named by ``_piece_faults``."""
    board = state.board
    standing: set[str] = set()
    for p in state.players.values():
        legion = p.legion
        if legion != CENTRE:
            if legion not in board or legion in standing:
                return _piece_faults(state)
            standing.add(legion)
        censor = p.censor
        if censor != CENTRE:
            if censor not in board or censor in standing:
                return _piece_faults(state)
            standing.add(censor)
    return []


def _piece_faults(state: State) -> list[str]:
    """What is wrong with the pieces' positions, piece by piece."""
    found: list[str] = []
    seen: set[str] = set()
    for name, p in state.players.items():
        for piece, pos in (("legion", p.legion), ("censor", p.censor)):
            if pos == CENTRE:
                continue
            if pos not in state.board:
                found.append(f"{name}'s {piece} stands at {pos!r}, which is no land tile")
            elif pos in seen:
                found.append(f"two pieces stand on the tile at {pos}")
            seen.add(pos)
    return found
