"""Pillars events: one frozen class per player action or chance outcome."""

from __future__ import annotations

from typing import ClassVar

import attrs

from reference.core.game import Event

# --- chance outcomes -------------------------------------------------------------------


@attrs.frozen
class RevealAdvantages:
    """Round preparation: the top advantage cards go to Kingsbridge spaces 1, 2, ..."""

    type: ClassVar[str] = "reveal_advantages"
    cards: tuple[str, ...]


@attrs.frozen
class RevealCraftsmen:
    """Round preparation: which of the round's craftsmen go to Shiring spaces 1, 2."""

    type: ClassVar[str] = "reveal_craftsmen"
    shiring: tuple[str, ...]


@attrs.frozen
class RevealResourceCards:
    """Round preparation: the resource cards set aside unused (the rest are revealed)."""

    type: ClassVar[str] = "reveal_resource_cards"
    set_aside: tuple[str, ...]


@attrs.frozen
class DrawMasterBuilder:
    """Phase II: a master builder of this owner comes out of the bag."""

    type: ClassVar[str] = "draw_master_builder"
    owner: str


@attrs.frozen
class RevealEvent:
    """Phase III step 1: this round's event card."""

    type: ClassVar[str] = "reveal_event"
    event: str


@attrs.frozen
class RollTax:
    """Phase III step 9: the tax die shows this many gold."""

    type: ClassVar[str] = "roll_tax"
    tax: int


# --- Phase I ---------------------------------------------------------------------------


@attrs.frozen
class TakeResourceCard:
    """Phase I: take a building resource card, placing the workers it needs."""

    type: ClassVar[str] = "take_resource_card"
    player: str
    card: str


@attrs.frozen
class TakeCraftsman:
    """Phase I: buy a craftsman card from the supply for its printed cost."""

    type: ClassVar[str] = "take_craftsman"
    player: str
    card: str


@attrs.frozen
class PassCards:
    """Phase I: take no more cards this round."""

    type: ClassVar[str] = "pass_cards"
    player: str


@attrs.frozen
class DiscardCraftsman:
    """Discard one of one's craftsmen (over the limit, or the division event)."""

    type: ClassVar[str] = "discard_craftsman"
    player: str
    craftsman: str


# --- Phase II --------------------------------------------------------------------------


@attrs.frozen
class PlaceMasterBuilder:
    """Phase II: put the drawn (or passed) builder on a space, paying the cost."""

    type: ClassVar[str] = "place_master_builder"
    player: str
    space: str
    remigius: bool = False
    """Play the Remigius card to place this drawn builder for free."""


@attrs.frozen
class PassMasterBuilder:
    """Phase II: leave the drawn builder on the cost track at the declined cost."""

    type: ClassVar[str] = "pass_master_builder"
    player: str


@attrs.frozen
class ReviewDrawnBuilder:
    """Phase II (option start_player_rejects): the start player keeps (``reject`` false) or
    returns to the bag (``reject`` true) the builder just drawn."""

    type: ClassVar[str] = "review_drawn_builder"
    player: str
    reject: bool


# --- Phase III -------------------------------------------------------------------------


@attrs.frozen
class PlayAdvantage:
    """Decide whether to play a one-shot card now (Thomas after a negative event is
    revealed, tax exemption after the tax roll)."""

    type: ClassVar[str] = "play_advantage"
    player: str
    card: str
    play: bool


@attrs.frozen
class ChooseArchbishopCraftsman:
    """Archbishop event: the craftsman that gets one extra use this round."""

    type: ClassVar[str] = "choose_archbishop_craftsman"
    player: str
    craftsman: str


@attrs.frozen
class TakeBishopResource:
    """Step 2: the Bishop's seat occupant takes a free cube from the market."""

    type: ClassVar[str] = "take_bishop_resource"
    player: str
    resource: str


@attrs.frozen
class BuyResources:
    """Step 12: buy ``count`` cubes of one type from the market."""

    type: ClassVar[str] = "buy_resources"
    player: str
    resource: str
    count: int


@attrs.frozen
class SellResources:
    """Step 12: sell ``count`` cubes of one type to the general supply."""

    type: ClassVar[str] = "sell_resources"
    player: str
    resource: str
    count: int


@attrs.frozen
class PassMarket:
    """Step 12: trade no more this round."""

    type: ClassVar[str] = "pass_market"
    player: str


@attrs.frozen
class UseCraftsman:
    """Step 13: apply a craftsman's conversion ``times`` times."""

    type: ClassVar[str] = "use_craftsman"
    player: str
    craftsman: str
    times: int


@attrs.frozen
class EndCathedral:
    """Step 13: convert nothing more this round."""

    type: ClassVar[str] = "end_cathedral"
    player: str


@attrs.frozen
class ReturnResources:
    """Step 13: return the cubes over the resource limit to the board."""

    type: ClassVar[str] = "return_resources"
    player: str
    sand: int = 0
    wood: int = 0
    stone: int = 0
    metal: int = 0


EVENT_TYPES: tuple[type[Event], ...] = (
    RevealAdvantages,
    RevealCraftsmen,
    RevealResourceCards,
    DrawMasterBuilder,
    RevealEvent,
    RollTax,
    TakeResourceCard,
    TakeCraftsman,
    PassCards,
    DiscardCraftsman,
    PlaceMasterBuilder,
    PassMasterBuilder,
    ReviewDrawnBuilder,
    PlayAdvantage,
    ChooseArchbishopCraftsman,
    TakeBishopResource,
    BuyResources,
    SellResources,
    PassMarket,
    UseCraftsman,
    EndCathedral,
    ReturnResources,
)
