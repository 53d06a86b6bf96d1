"""Every action and chance outcome of Milestones, one small frozen class each."""

from __future__ import annotations

from typing import ClassVar

import attrs

from reference.core.game import Event
from reference.milestones.names import GOODS


def goods_in_order(goods: tuple[str, ...]) -> tuple[str, ...]:
    """The cubes of a sale in one canonical order (stone, wood, sand, grain, then others).

    A sale is a choice of cubes, not a sequence: naming them in another order is the same
    event, so `legal_events` lists each choice once and any order given in a log equals it.
    """
    return tuple(
        sorted(goods, key=lambda g: (GOODS.index(g) if g in GOODS else len(GOODS), str(g)))
    )


def points_in_order(points: tuple[str, ...]) -> tuple[str, ...]:
    """The scored points of a flour delivery in one canonical (sorted) order."""
    return tuple(sorted(points, key=str))


# --- chance outcomes -------------------------------------------------------------------
@attrs.frozen
class RevealBonusTile:
    """Setup: the next bush triangle (in map order) gets a face-up bonus tile of `kind`."""

    type: ClassVar[str] = "reveal_bonus_tile"
    triangle: str
    kind: str


@attrs.frozen
class DrawWorkerTile:
    """A worker tile is drawn from the face-down pile: to the display or the draft pool."""

    type: ClassVar[str] = "draw_worker_tile"
    tile: str


# --- player actions -------------------------------------------------------------------
@attrs.frozen
class DraftWorkerTile:
    """Setup draft: take `tile` from the draft pool and lay it on `space` and the next one."""

    type: ClassVar[str] = "draft_worker_tile"
    player: str
    tile: str
    space: str


@attrs.frozen
class Move:
    """Move the pawn `steps` spaces clockwise around the player board."""

    type: ClassVar[str] = "move"
    player: str
    steps: int


@attrs.frozen
class HireWorkerTile:
    """Trading House: pay for `tile` from the display and lay it on `space` and the next."""

    type: ClassVar[str] = "hire_worker_tile"
    player: str
    tile: str
    space: str


@attrs.frozen
class BuyGood:
    """Trading House: buy one `good` for coins."""

    type: ClassVar[str] = "buy_good"
    player: str
    good: str


@attrs.frozen
class SellGoods:
    """Trading House: sell `goods` (as many cubes as the rate asks) for one coin."""

    type: ClassVar[str] = "sell_goods"
    player: str
    goods: tuple[str, ...] = attrs.field(converter=goods_in_order)
    """The cubes sold; their order does not matter (kept in a canonical order)."""


@attrs.frozen
class BuildRoad:
    """Board of Works: a road from `start` through the milestone on `milestone` to `end`."""

    type: ClassVar[str] = "build_road"
    player: str
    start: str
    milestone: str
    end: str


@attrs.frozen
class BuildHouse:
    """Board of Works: a house on `triangle`."""

    type: ClassVar[str] = "build_house"
    player: str
    triangle: str


@attrs.frozen
class BuildMarketplace:
    """Board of Works: a marketplace on point `point`."""

    type: ClassVar[str] = "build_marketplace"
    player: str
    point: str


@attrs.frozen
class DeliverFlour:
    """Mill: a flour sack onto `marketplace`, scoring the uncovered neighbours `numbers`."""

    type: ClassVar[str] = "deliver_flour"
    player: str
    marketplace: str
    numbers: tuple[str, ...] = attrs.field(converter=points_in_order)
    """The uncovered neighbouring points scored; their order does not matter (kept sorted)."""


@attrs.frozen
class ClaimBonus:
    """Take the bonus tile from `triangle` and lay it on the worker on `space`."""

    type: ClassVar[str] = "claim_bonus"
    player: str
    triangle: str
    space: str


@attrs.frozen
class ReturnToSupply:
    """Castle tax: give one `item` (a good or `coin`) back to the supply."""

    type: ClassVar[str] = "return_to_supply"
    player: str
    item: str


@attrs.frozen
class CoverWorker:
    """Castle tax: lay a cover tile on the worker on `space`."""

    type: ClassVar[str] = "cover_worker"
    player: str
    space: str


@attrs.frozen
class EndTurn:
    """End the turn after both moves (and whatever the last space allowed)."""

    type: ClassVar[str] = "end_turn"
    player: str


CHANCE_EVENTS: tuple[type, ...] = (RevealBonusTile, DrawWorkerTile)
ACTIONS: tuple[type, ...] = (
    DraftWorkerTile,
    Move,
    HireWorkerTile,
    BuyGood,
    SellGoods,
    BuildRoad,
    BuildHouse,
    BuildMarketplace,
    DeliverFlour,
    ClaimBonus,
    ReturnToSupply,
    CoverWorker,
    EndTurn,
)
EVENT_TYPES: tuple[type[Event], ...] = CHANCE_EVENTS + ACTIONS
