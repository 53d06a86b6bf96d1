"""Who acts next, every legal event, and chance outcomes with their probabilities."""

from __future__ import annotations

from typing import Any

from reference.core.errors import RuleViolation
from reference.core.game import CHANCE
from reference.palmyra.common import position
from reference.palmyra.draws import chance_draws
from reference.palmyra.events import (
    ChooseExtraTile,
    CollectTaxes,
    Conquer,
    EndAction,
    FlipTile,
    MovePiece,
    PlaceTile,
    Reorganise,
)
from reference.palmyra.rules_chain import (
    can_place,
    check_can_end,
    flip_tile,
    holds_emperor,
    placements,
)
from reference.palmyra.rules_reorg import move_targets
from reference.palmyra.state import (
    CENSOR,
    CHAIN,
    CHOOSE,
    DRAW,
    LEGION,
    OVER,
    SETUP,
    TAX,
    TURN,
    State,
)
from reference.palmyra.tables import Config
from reference.palmyra.tiles import LARGE, STACK_SIZES


def to_act(cfg: Config, state: State) -> str:
    """The player to act, or CHANCE while tiles are being drawn."""
    if state.phase in (SETUP, DRAW):
        return CHANCE
    return state.current


def chance_outcomes(cfg: Config, state: State) -> list[tuple[Any, float]]:
    """Each tile the next draw may turn up, weighted by how many are in the stack."""
    if state.phase not in (SETUP, DRAW):
        return []
    return list(chance_draws(state))


def legal_events(cfg: Config, state: State) -> list[Any]:
    """Every legal event here, in a stable order."""
    phase = state.phase
    if phase in (SETUP, DRAW):
        return [event for event, _ in chance_draws(state)]
    if phase == OVER:
        return []
    name = state.current
    if phase == TURN:
        return _action_choices(cfg, state, name)
    if phase == CHAIN:
        return _chain_choices(cfg, state, name)
    if phase == CHOOSE:
        return [ChooseExtraTile(name, size) for size in STACK_SIZES]
    found: list[Any] = []
    for piece in (LEGION, CENSOR):
        found += [MovePiece(name, piece, to) for to in move_targets(state, name, piece)]
    return [*found, EndAction(name)]


def _action_choices(cfg: Config, state: State, name: str) -> list[Any]:
    player = state.players[name]
    emperor = holds_emperor(state, name)
    found: list[Any] = []
    for cls, own in ((Conquer, LEGION), (CollectTaxes, CENSOR)):
        for piece in (LEGION, CENSOR):
            if (piece == own or emperor) and can_place(
                cfg, state, player.supply, position(player, piece)
            ):
                found.append(cls(name, piece))
    stacks = [s for s in STACK_SIZES if any(_stack(state, s).values())]
    buy = [False]
    if cfg.advanced and not emperor and player.coins >= cfg.tables.emperor_price:
        buy.append(True)
    for s in stacks or list(STACK_SIZES):
        found += [Reorganise(name, s, take) for take in buy]
    return found


def _stack(state: State, size: str) -> dict[str, int]:
    return state.large_stack if size == LARGE else state.small_stack


def _chain_choices(cfg: Config, state: State, name: str) -> list[Any]:
    player = state.players[name]
    action = state.action
    pos = position(player, action.piece)
    found: list[Any] = []
    if not action.closed:
        found += [
            PlaceTile(name, code, cell) for code, cell in placements(cfg, state, player.supply, pos)
        ]
    if action.kind == TAX and not action.flipped:
        for code in sorted(set(player.supply)):
            if _applies(cfg, state, FlipTile(name, code)):
                found.append(FlipTile(name, code))
    try:
        check_can_end(cfg, state)
        found.append(EndAction(name))
    except RuleViolation:
        pass
    return found


def _applies(cfg: Config, state: State, event: FlipTile) -> bool:
    try:
        flip_tile(cfg, state, event)
    except RuleViolation:
        return False
    return True
