"""Why a player is not asked now, and what a player owes: the words a turn or step refusal
adds about the refused player (``why_not``), and the craftsman discard over the limit that
blocks the game until it is made (``owes``), which the oracle dates.

Each reason names the rule it rests on, in the game's words: a King's Court occupant pays no
tax, so is not asked about the tax exemption (PIL-ADV-08); a player who passed in Phase I
takes no more cards (PIL-CARDS-05).
"""

from __future__ import annotations

from typing import Any

from reference.pillars.events import (
    BuyResources,
    ChooseArchbishopCraftsman,
    DiscardCraftsman,
    EndCathedral,
    PassCards,
    PassMarket,
    PassMasterBuilder,
    PlaceMasterBuilder,
    PlayAdvantage,
    ReturnResources,
    SellResources,
    TakeCraftsman,
    TakeResourceCard,
    UseCraftsman,
)
from reference.pillars.flow import Ctx, craftsman_limit, occupants, over_own_limit
from reference.pillars.state import State
from reference.pillars.steps import archbishop_choices

STEP_OF_STAGE = {
    "event": 1,
    "thomas": 1,
    "division": 1,
    "archbishop": 1,
    "bishop": 2,
    "tax": 9,
    "tax_exemption": 9,
    "shiring": 10,
    "market": 12,
    "cathedral": 13,
}
"""The Phase III step each stage belongs to (docs/games/pillars.md, "How a round runs"; the
archbishop's choice is at step 13 under option archbishop_timing=cathedral)."""

CARD_EVENTS = (TakeResourceCard, TakeCraftsman, PassCards)
BUILDER_EVENTS = (PlaceMasterBuilder, PassMasterBuilder)
MARKET_EVENTS = (BuyResources, SellResources, PassMarket)
CATHEDRAL_EVENTS = (UseCraftsman, EndCathedral, ReturnResources)


def why_not(ctx: Ctx, state: State, event: Any) -> str:
    """Why the player of ``event`` is not asked for it now, with the rule id ("" when
    there is nothing to add to the refusal)."""
    name = getattr(event, "player", None)
    if not isinstance(name, str) or name not in state.players:
        return ""
    p = state.players[name]
    if isinstance(event, PlayAdvantage):
        return _why_not_card(ctx, state, name, event.card)
    if isinstance(event, CARD_EVENTS) and state.phase == "cards" and p.passed_cards:
        return f"{name} passed in Phase I and takes no more cards this round (PIL-CARDS-05)"
    if isinstance(event, BUILDER_EVENTS) and state.phase == "builders":
        waiting = state.bag.get(name, 0) or name in state.passed_builders or state.drawn == name
        if not waiting:
            return f"{name} has no master builder left to draw or place this round (PIL-BUILD-01)"
        return ""
    if isinstance(event, MARKET_EVENTS) and state.stage == "market":
        if name not in occupants(state, "market"):
            return f"{name} has no master builder on the market this round (PIL-MARKET-01)"
        if name not in state.queue:
            return f"{name} passed at the market and trades no more this round (PIL-MARKET-01)"
        return ""
    if isinstance(event, CATHEDRAL_EVENTS) and state.stage == "cathedral":
        if name not in state.queue:
            return f"{name} has had their step-13 turn this round (PIL-CATH-01)"
        return ""
    if isinstance(event, ChooseArchbishopCraftsman):
        return _why_not_archbishop(ctx, state, name)
    if isinstance(event, DiscardCraftsman):
        if over_own_limit(ctx, state, name):
            return ""
        if state.stage == "division" and name not in state.queue:
            return _why_not_division(ctx, state, name)
        if state.stage != "division":
            return (
                f"{name} holds {len(p.craftsmen)} craftsmen, within the limit of "
                f"{craftsman_limit(ctx, p)}: no discard is owed (PIL-CRAFT-01)"
            )
    return ""


def _why_not_division(ctx: Ctx, state: State, name: str) -> str:
    """Why ``name`` is not asked to discard under the division event (PIL-EVENT-03)."""
    p = state.players[name]
    if p.protected:
        if name in occupants(state, "bishop"):
            shield = "is on the Bishop's seat, protected from the event (PIL-BISHOP-01)"
        else:
            shield = "played Thomas and is protected from the event (PIL-ADV-09)"
        return f"{name} {shield}, so is not asked to discard a craftsman (PIL-EVENT-03)"
    if not p.craftsmen:
        return f"{name} holds no craftsman to discard (PIL-EVENT-03)"
    return f"{name} has already discarded a craftsman for the division event (PIL-EVENT-03)"


def _step(ctx: Ctx, state: State) -> int:
    """The Phase III step now (0 before Phase III; 14 once the game is over)."""
    if state.phase != "actions":
        return 14 if state.phase == "over" else 0
    if state.stage == "archbishop" and ctx.o.archbishop_timing == "cathedral":
        return 13
    return STEP_OF_STAGE.get(state.stage, 0)


def _why_not_card(ctx: Ctx, state: State, name: str, card: str) -> str:
    """Why ``name`` is not asked about playing advantage card ``card`` now."""
    spec = ctx.t.advantages.get(card)
    if spec is None:
        return ""
    p = state.players[name]
    if spec.effect == "tax_exemption":
        if name in occupants(state, "kings_court"):
            return (
                f"{name} has a builder at King's Court, pays no tax this round and so is "
                f"not asked about the tax exemption (PIL-TAX-01, PIL-ADV-08)"
            )
        if card not in p.advantages:
            return f"{name} holds no tax exemption to play (PIL-ADV-08)"
        if state.stage == "tax_exemption":
            return f"{name} has already decided on the tax exemption this round (PIL-ADV-08)"
        if _step(ctx, state) < 9:
            return "the tax exemption is played once the tax die is rolled, at step 9 (PIL-ADV-08)"
        return "the tax exemption is played right after the tax roll, at step 9 (PIL-ADV-08)"
    if spec.effect == "protection":
        negative = state.event is not None and ctx.t.events[state.event].sign == "negative"
        on_bishop = name in occupants(state, "bishop")
        if _step(ctx, state) == 1 and negative and p.protected and on_bishop:
            return (
                f"{name} is on the Bishop's seat, protected from this event, and so not asked "
                f"about Thomas (PIL-BISHOP-01, PIL-ADV-09)"
            )
        if card not in p.advantages:
            return f"{name} holds no Thomas to play (PIL-ADV-09)"
        if state.stage == "thomas":
            return f"{name} has already decided on Thomas this round (PIL-ADV-09)"
        return "Thomas is played right after a negative event is revealed, at step 1 (PIL-ADV-09)"
    return f"{card} is a {spec.kind.replace('_', '-')} card, never played (PIL-ADV-01)"


def _why_not_archbishop(ctx: Ctx, state: State, name: str) -> str:
    """Why ``name`` does not name the archbishop's craftsman now (PIL-EVENT-04)."""
    archbishop = state.event is not None and ctx.t.events[state.event].effect == (
        "craftsman_capacity"
    )
    if not archbishop or state.phase != "actions":
        return "the archbishop's extra use is named in the archbishop event's round (PIL-EVENT-04)"
    if state.stage == "archbishop":
        if not archbishop_choices(ctx, state, name):
            return f"{name} holds no craftsman that can take the extra use (PIL-EVENT-04)"
        return f"{name} has already named the archbishop's craftsman this round (PIL-EVENT-04)"
    timing = ctx.o.archbishop_timing
    when = "at the event, step 1" if timing == "event" else "when step 13 begins"
    return (
        f"the archbishop's craftsman is named {when} (PIL-EVENT-04, option "
        f"archbishop_timing={timing})"
    )


def owes(ctx: Ctx, state: State, name: str) -> str:
    """PIL-CRAFT-01: the discard ``name`` owes when over the craftsman limit, with where the
    newest craftsman came from and when the discard fell due ("" when none is owed)."""
    if not over_own_limit(ctx, state, name):
        return ""
    p = state.players[name]
    newest = p.craftsmen[-1]
    if state.stage == "shiring":
        came, due = "came from Shiring at step 10", "at step 10, before step 11"
    elif state.phase == "cards":
        came, due = "was bought in Phase I", "at once, before the next card is taken"
    else:
        came, due = "was taken", "at once"
    return (
        f"a discard: {name} holds {len(p.craftsmen)} craftsmen, over the limit of "
        f"{craftsman_limit(ctx, p)}; the newest, {newest}, {came}; the discard was due {due} "
        f"(PIL-CRAFT-01)"
    )
