"""Palmyra positions: the board of land tiles, the two stacks, the bank and the players."""

from __future__ import annotations

from typing import Final, Literal

import attrs
from attrs import validators as v

from reference.core.stock import Stock
from reference.palmyra.lattice import CENTRE

# Phases of play, in the order a turn goes through them.
SETUP: Final = "setup"  # chance deals the starting tiles (draws_due)
TURN: Final = "turn"  # the player to act chooses Conquer, Collect taxes or Reorganise
CHAIN: Final = "chain"  # Conquer / Collect taxes: tiles are placed one by one
CHOOSE: Final = "choose"  # an odd number of earned tiles: the player names the size of the extra
DRAW: Final = "draw"  # chance draws earned tiles (after Conquer) or the Reorganise tile
MOVE: Final = "move"  # Reorganise: the player moves pieces, then ends the action
OVER: Final = "over"
Phase = Literal["setup", "turn", "chain", "choose", "draw", "move", "over"]
PHASES: tuple[Phase, ...] = (SETUP, TURN, CHAIN, CHOOSE, DRAW, MOVE, OVER)

CONQUER = "conquer"
TAX = "collect_taxes"
REORGANISE = "reorganise"
LEGION = "legion"
CENSOR = "censor"
PIECES = (LEGION, CENSOR)

_nonneg = v.ge(0)


@attrs.frozen(slots=False)
class PlayerState:
    """One player's holdings and pieces.

    ``supply``: face-up tiles in front of the player (sorted tile codes), placeable.
    ``face_down``: tiles turned face down for good (sorted codes); they raise the tax yield.
    ``legion`` / ``censor``: where each piece stands, a cell ``"x,y"`` or ``"centre"``.
    """

    coins: int = attrs.field(validator=_nonneg)
    supply: tuple[str, ...] = ()
    face_down: tuple[str, ...] = ()
    legion: str = CENTRE
    censor: str = CENTRE


@attrs.frozen(slots=False)
class Draw:
    """A tile the given player must draw from the named stack ('large' or 'small')."""

    player: str
    size: str = attrs.field(validator=v.in_(("large", "small")))


@attrs.frozen(slots=False)
class Action:
    """The action in progress this turn (``kind`` '' between turns).

    ``placed``: cells tiled this action, in order. ``earned``: matches so far (tiles for
    Conquer, coins for Collect taxes). ``flipped``: a tile was turned face down this action.
    ``closed``: no more placements (a flip after the chain closes it). ``moved``: pieces
    moved this Reorganise. ``tiles_due``: earned tiles awaiting the size choice.
    """

    kind: str = attrs.field(
        default="", validator=v.in_(("", "conquer", "collect_taxes", "reorganise"))
    )
    piece: str = attrs.field(default="", validator=v.in_(("", "legion", "censor")))
    placed: tuple[str, ...] = ()
    earned: int = attrs.field(default=0, validator=_nonneg)
    flipped: bool = False
    closed: bool = False
    moved: tuple[str, ...] = ()
    tiles_due: int = attrs.field(default=0, validator=_nonneg)


NO_ACTION = Action()
"""No action in progress (between turns, and once the game is over); frozen, so shared."""

STARTED: dict[tuple[str, str], Action] = {
    (kind, piece): Action(kind=kind, piece=piece)
    for kind in (CONQUER, TAX, REORGANISE)
    for piece in ("", *PIECES)
}
"""An action just chosen, by (kind, acting piece; '' for Reorganise): frozen, so shared."""


@attrs.frozen(slots=False)
class State:
    """A Palmyra position.

    ``board``: land tiles by cell (city-centre cells are in ``city``, not here).
    ``large_stack`` / ``small_stack``: face-down stacks as counts by tile code.
    ``bank``: coin value left in the bank; ``removed``: coins taken out of play (solo).
    ``emperor``: the player holding the emperor ('' while nobody does; advanced game).
    ``draws_due``: draws chance still has to make, in order; ``short``: the draw in
    progress could not be fully met (the game ends when it is done).
    ``turn``: turns completed; ``end``: why the game ended ('' while it goes on).
    """

    players: dict[str, PlayerState]
    current: str
    phase: Phase = attrs.field(validator=v.in_(PHASES))
    board: dict[str, str]
    city: tuple[str, ...]
    large_stack: dict[str, int]
    small_stack: dict[str, int]
    bank: Stock = attrs.field(validator=v.optional(_nonneg))
    removed: int = attrs.field(validator=_nonneg)
    emperor: str = ""
    draws_due: tuple[Draw, ...] = ()
    action: Action = NO_ACTION
    short: bool = False
    turn: int = attrs.field(default=0, validator=_nonneg)
    end: str = ""
