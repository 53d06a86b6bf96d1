"""The position of a game of Milestones: immutable attrs classes named after the rulebook."""

from __future__ import annotations

from typing import Any

import attrs

from reference.core.evolve import evolve as evolve
from reference.core.state import StateInvariantError, not_negative
from reference.core.stock import Stock
from reference.milestones.names import (
    GOODS,
    KINDS,
    LEFT,
    LOOP,
    PHASES,
    RIGHT,
    WORKER_SPACES,
    Phase,
)


def _goods_keys(_: Any, attribute: attrs.Attribute[Any], value: dict[str, int]) -> None:
    if tuple(value) != GOODS or any(n < 0 for n in value.values()):
        raise StateInvariantError(f"{attribute.name} must count {', '.join(GOODS)} (none negative)")


def _spaces_keys(_: Any, attribute: attrs.Attribute[Any], value: dict[str, Any]) -> None:
    if tuple(value) != WORKER_SPACES:
        raise StateInvariantError(
            f"{attribute.name} must have the spaces {', '.join(WORKER_SPACES)}"
        )


@attrs.frozen(slots=False)
class Worker:
    """One worker on a worker space: half of a worker tile."""

    kind: str = attrs.field(validator=attrs.validators.in_(KINDS))
    number: int
    tile: str
    """The worker tile it is printed on."""
    half: str = attrs.field(validator=attrs.validators.in_((LEFT, RIGHT)))
    bonus: bool = False
    """A bonus tile lies on it: it produces double and counts double in the majorities."""
    covered: bool = False
    """A cover tile lies on it (Castle tax): it no longer produces or counts."""


def no_goods() -> dict[str, int]:
    """A goods count of zero of each good."""
    return dict.fromkeys(GOODS, 0)


def no_workers() -> dict[str, Worker | None]:
    """Eight empty worker spaces."""
    return dict.fromkeys(WORKER_SPACES, None)


@attrs.frozen(slots=False)
class PlayerState:
    """One player's board, pawn, holdings and score."""

    position: str = attrs.field(validator=attrs.validators.in_(LOOP))
    """The space the pawn stands on: W1..W8, trading_house, board_of_works, mill, castle."""
    coins: int = attrs.field(validator=not_negative)
    goods: dict[str, int] = attrs.field(validator=_goods_keys)
    vp: int = attrs.field(validator=not_negative)
    """Victory points on the score track."""
    workers: dict[str, Worker | None] = attrs.field(validator=_spaces_keys)
    """Worker space W1..W8 (left to right) to the worker on it, or None if empty."""


@attrs.frozen(slots=False)
class MainBoard:
    """The shared main board: what stands on the lattice."""

    roads: tuple[str, ...] = ()
    """Edges ("a|b") carrying a road piece."""
    milestones: tuple[str, ...] = ()
    """Points carrying a milestone."""
    marketplaces: tuple[str, ...] = ()
    """Points carrying a marketplace (the start marketplace first)."""
    flour: tuple[str, ...] = ()
    """Marketplaces carrying a flour sack."""
    houses: tuple[str, ...] = ()
    """Triangles carrying a house."""
    bonus_tiles: dict[str, str] = attrs.field(factory=dict)
    """Bush triangle to the kind of the face-up bonus tile still lying on it."""
    road_ends: dict[str, str] = attrs.field(factory=dict)
    """Free end of a road to the marketplace that road started from."""


@attrs.frozen(slots=False)
class State:
    """A whole game position."""

    phase: Phase = attrs.field(validator=attrs.validators.in_(PHASES))
    """setup (chance lays out tiles), draft, turns, over."""
    players: dict[str, PlayerState]
    """By player name, in seat order (the first is the start player)."""
    current: str
    """The player whose draft pick or turn it is ("" during setup)."""
    board: MainBoard
    supply: dict[str, Stock]
    """The general supply: goods, coins and pieces not in play; an item's count is null
    when a profile makes its supply unlimited (reference/core/stock.py)."""
    bonus_pool: dict[str, int]
    """Face-down bonus tiles not yet revealed, by kind."""
    draw_pile: tuple[str, ...]
    """Face-down worker tiles (sorted ids: their order is unknown)."""
    display: tuple[str, ...]
    """The general worker display."""
    draft_pool: tuple[str, ...]
    removed_tiles: tuple[str, ...] = ()
    """Worker tiles out of the game (the tile left over from the draft)."""
    discarded_workers: tuple[str, ...] = ()
    """Workers ("T07.left") built over by a new tile, out of play."""
    discarded_bonus: tuple[str, ...] = ()
    """Kinds of bonus tiles that left play with a built-over worker."""
    picks: int = attrs.field(default=0, validator=not_negative)
    """Draft picks made so far."""
    moves_made: int = attrs.field(default=0, validator=not_negative)
    """Pawn moves made in the current turn."""
    returns_due: int = attrs.field(default=0, validator=not_negative)
    """Goods and coins the player at the Castle must still give back."""
    cover_due: bool = False
    """The player at the Castle must still cover a worker."""
    pending_bonus: tuple[str, ...] = ()
    """Bush triangles whose bonus tile the player must now claim."""
    hired: bool = False
    """The player hired a worker tile on this visit to the Trading House."""
    refill_due: bool = False
    """The display is being refilled from the draw pile (chance draws)."""
    end_trigger: str | None = None
    """The player whose turn triggered the end of the game."""
    majority_vp: dict[str, int] = attrs.field(factory=dict)
    """Final-scoring points for worker majorities (filled when the game ends)."""
