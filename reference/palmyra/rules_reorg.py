"""Reorganise: draw one tile, buy the emperor if wanted, move or swap one's pieces."""

from __future__ import annotations

from reference.core.errors import RuleViolation
from reference.core.stock import put_back
from reference.palmyra.common import (
    coins_and_bank,
    evolve,
    finish,
    move_to,
    noted,
    occupied,
    position,
    stands_on,
    with_player,
)
from reference.palmyra.draws import stack
from reference.palmyra.events import EndAction, MovePiece, Reorganise
from reference.palmyra.lattice import CENTRE
from reference.palmyra.state import (
    CENSOR,
    DRAW,
    LEGION,
    MOVE,
    REORGANISE,
    STARTED,
    TURN,
    Draw,
    State,
)
from reference.palmyra.tables import Config
from reference.palmyra.tiles import LARGE, SMALL
from reference.palmyra.turns import end_turn


def reorganise(cfg: Config, state: State, event: Reorganise) -> State:
    """Start Reorganise: the emperor purchase (advanced game), then a draw is due."""
    # PAL-TURN-02: an action is chosen only at the start of one's turn.
    if state.phase != TURN:
        raise RuleViolation("PAL-TURN-02", f"{event.player} is in the middle of an action")
    other = SMALL if event.stack == LARGE else LARGE
    # PAL-REORG-01: the tile comes from a stack that still has tiles.
    has_tiles = any(stack(state, event.stack).values())
    if not has_tiles and any(stack(state, other).values()):
        raise RuleViolation(
            "PAL-REORG-01", f"the {event.stack} stack is empty; draw from the other"
        )
    if event.take_emperor:
        state = take_emperor(cfg, state, event.player)  # the stacks stay as they are
    if not has_tiles:
        # PAL-END-01 (tiles_end=draw_fails; by default empty stacks have ended the game
        # already): both stacks are empty, so the tile cannot be drawn: the game ends.
        return finish(state, "tiles", cfg)
    # One tile is due from the chosen stack (a chance draw; then the pieces move).
    return evolve(
        state,
        action=STARTED[REORGANISE, ""],
        phase=DRAW,
        draws_due=(Draw(event.player, event.stack),),
        short=False,
    )


def take_emperor(cfg: Config, state: State, name: str) -> State:
    """PAL-EMP-02/03: pay the bank and take the emperor from wherever it is."""
    # PAL-EMP-01: the emperor is in play only in the advanced game.
    if not cfg.advanced:
        raise RuleViolation("PAL-EMP-01", "the emperor is used only in the advanced game")
    # PAL-EMP-03: one takes the emperor from the supply or another player, not from oneself.
    if state.emperor == name:
        raise RuleViolation("PAL-EMP-03", f"{name} already holds the emperor")
    player = state.players[name]
    price = cfg.tables.emperor_price
    # PAL-EMP-02: the emperor costs one coin, paid to the bank.
    if player.coins < price:
        raise RuleViolation("PAL-EMP-02", f"{name} cannot pay {price} coin(s) for the emperor")
    new_player = evolve(player, coins=player.coins - price)
    if cfg.recorder is not None:
        paid = with_player(state, name, new_player, bank=put_back(state.bank, price))
        noted(cfg, "PAL-EMP-02", paid, coins_and_bank(name), f"the emperor costs {price}")
        noted(cfg, "PAL-EMP-03", evolve(paid, emperor=name), ("emperor",))
    return with_player(state, name, new_player, emperor=name, bank=put_back(state.bank, price))


def move_targets(state: State, name: str, piece: str) -> list[str]:
    """Every legal destination for ``piece`` this Reorganise, in a stable order."""
    if piece in state.action.moved:
        return []
    player = state.players[name]
    here = position(player, piece)
    other_piece = CENSOR if piece == LEGION else LEGION
    there = position(player, other_piece)
    taken = occupied(state)
    found = [CENTRE] if here != CENTRE else []
    for cell in sorted(state.board):
        if cell not in taken or (
            cell == there and cell != here and other_piece not in state.action.moved
        ):
            found.append(cell)
    return found


def move_piece(cfg: Config, state: State, event: MovePiece) -> State:
    """Move one piece to an empty land tile or the centre, or swap it with the other."""
    # PAL-TURN-02: pieces are moved only during Reorganise, after its draw.
    if state.phase != MOVE:
        raise RuleViolation("PAL-TURN-02", "pieces are moved only during Reorganise")
    moved = state.action.moved
    # PAL-REORG-03: each piece moves at most once per Reorganise.
    if event.piece in moved:
        raise RuleViolation("PAL-REORG-03", f"the {event.piece} has moved already")
    player = state.players[event.player]
    other_piece = CENSOR if event.piece == LEGION else LEGION
    here, there = position(player, event.piece), position(player, other_piece)
    swap = event.to == there and there != CENTRE
    if swap and other_piece in moved:
        raise RuleViolation("PAL-REORG-03", f"the {other_piece} has moved already; no swap")
    # PAL-REORG-02: a piece goes to the centre, to an empty land tile, or swaps with the other.
    if event.to == here:
        raise RuleViolation("PAL-REORG-02", f"the {event.piece} stands at {here} already")
    if event.to != CENTRE and not swap:
        if event.to not in state.board:
            raise RuleViolation("PAL-REORG-02", f"no land tile lies at {event.to}")
        if stands_on(state, event.to):
            raise RuleViolation("PAL-REORG-02", f"the tile at {event.to} is occupied")
    done = (*moved, event.piece)
    if swap:
        # The two pieces change places.
        new_player = evolve(player, legion=player.censor, censor=player.legion)
        done = (*done, other_piece)
    else:
        new_player = move_to(player, event.piece, event.to)
    new_action = evolve(state.action, moved=done)
    return with_player(state, event.player, new_player, action=new_action)


def end_moves(cfg: Config, state: State, event: EndAction) -> State:
    """Finish Reorganise."""
    return end_turn(cfg, state)
