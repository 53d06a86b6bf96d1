"""Palmyra's invariants, checked after every event: tiles and coins conserved, the lattice
sound, pieces on tiles or in the centre, the turn bookkeeping consistent."""

from __future__ import annotations

from collections import Counter

from reference.palmyra.lattice import CENTRE, kind_of
from reference.palmyra.state import CHAIN, CHOOSE, DRAW, MOVE, OVER, SETUP, TURN, State
from reference.palmyra.tables import Config
from reference.palmyra.tiles import TILES

_ACTION_OF_PHASE = {
    CHAIN: ("conquer", "collect_taxes"),
    CHOOSE: ("conquer",),
    MOVE: ("reorganise",),
}


def failures(cfg: Config, state: State, memo: Memo) -> list[str]:
    """Every broken invariant (an empty list when the state is sound)."""
    found: list[str] = []
    players = state.players
    coins = state.bank + state.removed + sum(p.coins for p in players.values())
    if coins != cfg.tables.bank_total:
        found.append(f"coins not conserved: {coins} in play, the game has {cfg.tables.bank_total}")
    found += _tiles(cfg, state, memo)
    found += _lattice(state, memo)
    found += _pieces(state)
    if state.current not in players:
        found.append(f"current player {state.current!r} is not a player")
    if state.emperor and (state.emperor not in players or not cfg.advanced):
        found.append(f"emperor held by {state.emperor!r} outside the advanced game or players")
    due = bool(state.draws_due)
    if due != (state.phase in (SETUP, DRAW)):
        found.append(f"phase {state.phase} with {len(state.draws_due)} draws due")
    if any(d.player not in players for d in state.draws_due):
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
    """What the last check found, kept by one engine (never shared between rule sets).

    States are immutable and most events leave the stacks and the board as they were, so
    when the very same objects come back the earlier answer still holds. A memo serves one
    stage of the game (``stage_of``); a fresh one checks everything in full.
    """

    def __init__(self, stage: str = "") -> None:
        self.stage = stage
        """The stage of the game (``stage_of``) this memo serves: a new one starts empty."""
        self.stacks: (
            tuple[dict[str, int], dict[str, int], dict[str, int], dict[str, int], list[str]] | None
        ) = None
        """(mix, large stack, small stack, tiles expected outside, stack faults)."""
        self.sound_board: dict[str, str] | None = None
        """The last board found sound."""
        self.tiles: tuple[tuple[object, ...], list[str]] | None = None
        """(the tile holders last counted: expected counts, board, each player's supply and
        face-down tiles; what the count found)."""


def stage_of(state: State) -> str:
    """The phase of play, or "over": the memo starts empty, so everything is checked in full,
    when the game ends (and when play leaves or reaches the setup draws). Every round would
    be stricter, at about a tenth of the engine's time; the test suite checks every state
    in full (``full_checks``)."""
    return OVER if state.phase == OVER else SETUP if state.phase == SETUP else TURN


def _outside_stacks(cfg: Config, state: State, memo: Memo) -> tuple[dict[str, int], list[str]]:
    """How many tiles of each code must lie outside the stacks, and any fault in the stacks."""
    if memo.stacks is not None:
        mix, large, small, expected, faults = memo.stacks
        if mix is cfg.tables.mix and large is state.large_stack and small is state.small_stack:
            return expected, faults
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
    expected = dict(+rest)
    memo.stacks = (cfg.tables.mix, state.large_stack, state.small_stack, expected, faults)
    return expected, faults


def _tiles(cfg: Config, state: State, memo: Memo) -> list[str]:
    expected, faults = _outside_stacks(cfg, state, memo)
    holders: tuple[object, ...] = (expected, state.board)
    for p in state.players.values():
        holders += (p.supply, p.face_down)
    if memo.tiles is not None:
        last, found = memo.tiles
        if len(last) == len(holders) and all(a is b for a, b in zip(last, holders, strict=True)):
            return found
    found = _tile_count(state, expected, faults)
    memo.tiles = (holders, found)
    return found


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


def _lattice(state: State, memo: Memo) -> list[str]:
    found: list[str] = []
    if memo.sound_board is state.board:
        return _city(state)
    for cell, code in state.board.items():
        # PAL-GEO-01/02: large tiles on octagon cells, small on square cells, so two small
        # tiles never touch; no land tile on the city centre.
        kind = kind_of(cell)
        if code not in TILES or TILES[code].size != kind:
            found.append(f"cell {cell!r} holds {code!r}, which does not fit it")
    if not found:
        memo.sound_board = state.board
    return found + _city(state)


def _city(state: State) -> list[str]:
    found: list[str] = []
    for cell in state.city:
        if cell in state.board:
            found.append(f"city-centre cell {cell} also holds a land tile")
    return found


def _pieces(state: State) -> list[str]:
    board = state.board
    standing: set[str] = set()
    for p in state.players.values():
        for pos in (p.legion, p.censor):
            if pos != CENTRE:
                if pos not in board or pos in standing:
                    return _piece_faults(state)
                standing.add(pos)
    return []  # every piece in the centre or alone on a land tile


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
