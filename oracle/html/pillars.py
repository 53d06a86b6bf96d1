"""The Pillars board layout: the master-builder locations and their spaces, and what each
card says (resource cards, craftsmen, advantages, events), from the data tables: ``name``
is the short line a card shows, ``tip`` its tooltip."""

from __future__ import annotations

from typing import Any

from reference.core.game import Game
from reference.pillars.engine import Pillars
from reference.pillars.tables import (
    MARKET_RESOURCES,
    RESOURCES,
    Advantage,
    Craftsman,
    EventCard,
    ResourceCard,
)


def layout(game: Game) -> dict[str, Any]:
    """Locations in board order with their spaces (capacities come from ``board.*``), the
    resources, the cost marker's start, the number of rounds, and the cards of each kind by id."""
    if not isinstance(game, Pillars):
        raise TypeError(f"a Pillars layout needs the Pillars rules, not {game.name}")
    ctx = game.tables
    t = ctx.t
    cards = {
        "resource": {key: _resource_card(key, card) for key, card in t.resource_cards.items()},
        "craftsman": {key: _craftsman(key, card) for key, card in t.craftsmen.items()},
        "advantage": {key: _advantage(key, card) for key, card in t.advantages.items()},
        "event": {key: _event(key, card) for key, card in t.events.items()},
    }
    return {
        "locations": [{"name": name, "spaces": list(spaces)} for name, spaces in ctx.locations],
        "resources": list(RESOURCES),
        "market_resources": list(MARKET_RESOURCES),
        "cost_start": t.cost_start,
        "rounds": t.rounds,
        "resource_cards": list(t.resource_cards),
        "cards": cards,
    }


def _words(key: str) -> str:
    return key.replace("_", " ")


def _amounts(counts: dict[str, int]) -> str:
    return " + ".join(f"{n} {what}" for what, n in counts.items() if n) or "nothing"


def _resource_card(key: str, card: ResourceCard) -> dict[str, Any]:
    return {
        "kind": "resource",
        "name": f"{card.workers}w \u2192 {card.yield_} {card.resource}",
        "resource": card.resource,
        "tip": f"{_words(key)}: {card.workers} workers yield {card.yield_} {card.resource}",
    }


def _craftsman(key: str, card: Craftsman) -> dict[str, Any]:
    gains = _amounts({"VP": card.vp, "gold": card.gold})
    needs = (" (needs a metal)" if card.needs_metal else "") + (
        f" (needs a {_words(card.needs_family)})" if card.needs_family else ""
    )
    short = f"scores {gains}" if card.automatic else f"{_amounts(card.input)} \u2192 {gains}"
    when = f"{short} by itself" if card.automatic else short
    return {
        "kind": "craftsman",
        "name": short,
        "tip": f"{card.name} ({key}): costs {card.cost} gold; {when}, "
        f"{card.uses}\u00d7 a round{needs}",
    }


def _advantage(key: str, card: Advantage) -> dict[str, Any]:
    effect = _words(card.effect)
    if card.resource:
        effect += f" +{card.amount} {card.resource}"
    elif card.resources:
        effect += f" {_amounts(card.resources)}"
    elif card.amount:
        effect += f" {card.amount:+d}"
    last = ", last round" if card.last_round else ""
    short = effect if effect != _words(key) else _words(card.kind)
    tip = f"{_words(key)}: {card.kind}{last}, {effect}"
    return {"kind": "advantage", "name": short, "tip": tip}


def _event(key: str, card: EventCard) -> dict[str, Any]:
    effect = _words(card.effect) + (f" {card.amount:+d}" if card.amount else "")
    return {"kind": "event", "name": effect, "tip": f"{_words(key)}: {card.sign} event, {effect}"}
