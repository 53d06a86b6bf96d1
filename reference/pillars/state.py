"""The Pillars position: frozen attrs classes named with the rulebook's nouns.

Paths a log or scenario can read or set, for example:
``players.red.gold``, ``players.red.resources.stone``, ``market.wood``, ``spaces.priory_1``,
``round``, ``phase``, ``stage``, ``start_player``, ``cost``.
"""

from __future__ import annotations

from typing import Literal, get_args

import attrs

from reference.core.evolve import evolve as evolve
from reference.core.state import counts_not_negative, not_negative
from reference.core.stock import Stock

Phase = Literal["prepare", "cards", "builders", "actions", "over"]
"""Round phases: preparation (reveals), Phase I, Phase II, Phase III, and game over."""
PHASES: tuple[Phase, ...] = get_args(Phase)
Stage = Literal[
    "advantages",
    "craftsmen",
    "resource_cards",
    "choose",
    "draw",
    "review",
    "decide",
    "place_passed",
    "event",
    "thomas",
    "division",
    "archbishop",
    "bishop",
    "tax",
    "tax_exemption",
    "shiring",
    "market",
    "cathedral",
    "over",
]
"""The step inside a phase awaiting an event (docs/games/pillars.md)."""


@attrs.frozen(slots=False)
class PlayerState:
    """One player's holdings and per-round marks."""

    gold: int = attrs.field(validator=not_negative)
    vp: int
    workers: int = attrs.field(validator=not_negative)
    """Own workers (12; 13 with Otto's black worker)."""
    grey_workers: int = attrs.field(validator=not_negative)
    """Grey workers from Shiring Castle usable in this round's Phase I."""
    grey_workers_next: int = attrs.field(validator=not_negative)
    """Grey workers taken at step 11, usable next round."""
    workers_placed: int = attrs.field(validator=not_negative)
    """Workers standing on resource areas this round (the rest are in the wool mill)."""
    resource_cards: tuple[str, ...]
    craftsmen: tuple[str, ...]
    resources: dict[str, int] = attrs.field(validator=counts_not_negative)
    owed: dict[str, int] = attrs.field(validator=counts_not_negative)
    """Cubes due from an empty supply, delivered at later production steps."""
    advantages: tuple[str, ...]
    """Permanent and unplayed one-shot advantage cards held."""
    master_builders: int = attrs.field(validator=not_negative)
    """Master builders this player owns this round (2 after an unprotected city wall)."""
    builders_next_round: int = attrs.field(validator=not_negative)
    passed_cards: bool
    bought: tuple[str, ...]
    """Resource types bought at the market this round."""
    sold: tuple[str, ...]
    craftsman_uses: dict[str, int] = attrs.field(validator=counts_not_negative)
    """Times each craftsman has been used at this round's step 13."""
    bonus_craftsman: str | None
    """Craftsman given +1 use by the archbishop event this round."""
    protected: bool
    """Protected from this round's negative event (Bishop's seat or Thomas)."""
    reject_used: bool
    """The start player's once-per-round rejection of a drawn builder has been used."""

    def available_workers(self) -> int:
        """Workers for this round's Phase I (own plus grey)."""
        return self.workers + self.grey_workers

    def wool_mill(self) -> int:
        """Workers not placed on resource cards: they earn gold at the wool mill."""
        return self.available_workers() - self.workers_placed


@attrs.frozen(slots=False)
class State:
    """The whole position between two events (its counts are checked by the invariants)."""

    seats: tuple[str, ...]
    """Player names in seat (clockwise) order."""
    players: dict[str, PlayerState]
    round: int
    phase: Phase
    stage: Stage
    """The step inside the phase awaiting an event (see docs/games/pillars.md)."""
    start_player: str
    queue: tuple[str, ...]
    """Players still to act in this stage, the next first."""
    supply: dict[str, Stock]
    """The general supply on the quarry, forest, gravel pit (and metal); a kind's count is
    null when a profile makes that supply unlimited (reference/core/stock.py)."""
    market: dict[str, int]
    kings_court_metal: int
    castle_workers: Stock
    """Grey workers standing on Shiring Castle."""
    advantage_deck: tuple[str, ...]
    """Ordinary advantage cards not yet seen (the last-round cards are kept apart)."""
    advantages_out: tuple[str, ...]
    """Advantage cards that have left play (used, discarded, unclaimed)."""
    kingsbridge: dict[str, str]
    """Kingsbridge space -> the advantage card lying there."""
    events_unseen: tuple[str, ...]
    event: str | None
    """This round's event, once revealed."""
    events_seen: tuple[str, ...]
    craftsman_deck: tuple[str, ...]
    """Round craftsman cards not yet dealt."""
    shiring: dict[str, str]
    """Shiring space -> the craftsman lying there."""
    card_supply: tuple[str, ...]
    """Phase I supply: revealed resource cards and the 2 craftsmen for sale."""
    craftsmen_out: tuple[str, ...]
    """Craftsman cards removed from the game."""
    bag: dict[str, int]
    """Master builders in the bag, by owner."""
    drawn: str | None
    """Owner of the builder just drawn, awaiting place or pass."""
    draws: int
    cost: int
    passed_builders: tuple[str, ...]
    """Owners of passed builders, in pass order (placed free in this order)."""
    spaces: dict[str, str]
    """Master-builder space (e.g. ``priory_1``) -> owner."""
    tax: int | None
    returning: bool
    """The head of the step-13 queue has ended conversions and must return excess cubes."""
