"""The Pillars ids logs and scenarios use, each with what it is and its data key: what
``rules-oracle explain jack`` or ``explain kings_court`` looks up (docs/games/pillars.md,
"Card ids" and "Spaces")."""

from __future__ import annotations

from reference.core.aliases import Term
from reference.pillars.flow import Ctx
from reference.pillars.tables import RESOURCES


def terms(ctx: Ctx) -> tuple[Term, ...]:
    """Every card, craftsman family, location, space and resource of the rule set in force."""
    t = ctx.t
    found: list[Term] = []
    for cid, card in t.advantages.items():
        what = f"{'last-round ' if card.last_round else ''}advantage card ({card.kind})"
        key = "advantages.last_round_cards" if card.last_round else "advantages.cards"
        found.append(Term(cid, what, key))
    for cid, craftsman in t.craftsmen.items():
        if cid in t.starting_craftsmen:
            found.append(Term(cid, "starting craftsman", f"craftsmen.{cid}"))
        else:
            what = f"round-{craftsman.round} craftsman ({craftsman.family})"
            found.append(Term(cid, what, "craftsmen.round_cards"))
    ids = {term.id for term in found}
    for family in sorted({c.family for c in t.craftsmen.values()} - ids):
        cards = ", ".join(cid for cid, c in t.craftsmen.items() if c.family == family)
        found.append(Term(family, f"craftsman family (cards {cards})", "craftsmen.round_cards"))
    found += [Term(cid, "resource card", "cards.resource_cards") for cid in t.resource_cards]
    found += [
        Term(cid, f"{card.sign} event card", "events.cards") for cid, card in t.events.items()
    ]
    for location, spaces in ctx.locations:
        what = f"location (master-builder spaces {', '.join(spaces)})"
        found.append(Term(location, what, f"board.capacity_{location}"))
        found += [Term(space, f"master-builder space of {location}") for space in spaces]
    found += [Term(r, "building resource (cube)", "setup.cubes") for r in RESOURCES]
    return tuple(found)
