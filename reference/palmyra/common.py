"""Small helpers the rule modules share: piece positions, occupancy, supplies, the end."""

from __future__ import annotations

from typing import Any

from reference.core.evolve import evolve as evolve
from reference.core.state import with_player as with_player
from reference.palmyra.lattice import CENTRE, kind_of, neighbours, touching
from reference.palmyra.state import LEGION, NO_ACTION, OVER, PlayerState, State
from reference.palmyra.tables import Config
from reference.palmyra.tiles import TILES


def noted(
    cfg: Config, rule_id: str, state: State, decided: tuple[str, ...] = (), why: str = ""
) -> State:
    """Trace point: ``state`` is the state once rule ``rule_id`` has done its work, which
    decided the paths ``decided`` (changed or not; ``why``: what it gave, in words); noted
    only while a value is being explained (reference/core/trace.py); returns ``state``."""
    if cfg.recorder is not None:
        cfg.recorder.note(rule_id, state, decided, why)
    return state


def coins_and_bank(name: str) -> tuple[str, ...]:
    """The paths a payment between player ``name`` and the bank decides."""
    return (f"players.{name}.coins", "bank")


def position(player: PlayerState, piece: str) -> str:
    """Where ``piece`` ('legion' or 'censor') of ``player`` stands."""
    return player.legion if piece == LEGION else player.censor


def occupied(state: State) -> set[str]:
    """Every land-tile cell a legion or censor stands on (the centre is not a cell)."""
    cells: set[str] = set()
    for p in state.players.values():
        if p.legion != CENTRE:
            cells.add(p.legion)
        if p.censor != CENTRE:
            cells.add(p.censor)
    return cells


def stands_on(state: State, cell: str) -> bool:
    """Whether a legion or censor stands on the land tile at ``cell`` (``occupied`` for one
    cell, without building the set)."""
    for p in state.players.values():  # noqa: SIM110 - a loop: no generator made per call
        if p.legion == cell or p.censor == cell:
            return True
    return False


def targets(state: State, pos: str) -> tuple[str, ...]:
    """Empty cells a tile may go on from a piece at ``pos`` (PAL-PLACE-02, PAL-PLACE-03;
    from the city centre any cell touching a city cell, PAL-PLACE-04)."""
    around = touching(state.city) if pos == CENTRE else neighbours(pos)
    return tuple(c for c in around if c not in state.board and c not in state.city)


def move_to(player: PlayerState, piece: str, cell: str, **changes: Any) -> PlayerState:
    """``player`` with ``piece`` standing at ``cell`` (and any other ``changes``)."""
    if piece == LEGION:
        return evolve(player, legion=cell, **changes)
    return evolve(player, censor=cell, **changes)


def without(tiles: tuple[str, ...], code: str) -> tuple[str, ...]:
    """``tiles`` with one copy of ``code`` taken out (it must be there)."""
    i = tiles.index(code)
    return tiles[:i] + tiles[i + 1 :]


def with_added(tiles: tuple[str, ...], *codes: str) -> tuple[str, ...]:
    """``tiles`` with ``codes`` added, kept sorted."""
    return tuple(sorted(tiles + codes))


def finish(state: State, reason: str, cfg: Config | None = None) -> State:
    """The game ends at once (PAL-END-01, PAL-END-02); ``reason`` is 'tiles' or 'bank'
    (with ``cfg``, a trace point notes the rule)."""
    over = evolve(state, phase=OVER, end=reason, draws_due=(), action=NO_ACTION)
    if cfg is not None and cfg.recorder is not None:
        rule = "PAL-END-02" if reason == "bank" else "PAL-END-01"
        why = "the bank is empty" if reason == "bank" else "no more tiles can be drawn"
        cfg.recorder.note(rule, over, ("phase", "end"), why)
    return over


def is_icon(code: str) -> bool:
    """Whether the tile carries an icon."""
    return TILES[code].icon != ""


def fits(code: str, cell: str) -> bool:
    """PAL-GEO-01: large tiles on octagon cells, small tiles on square cells."""
    return TILES[code].size == kind_of(cell)
