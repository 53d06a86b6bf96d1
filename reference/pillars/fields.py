"""What a Pillars event's fields must name: a resource (sand, wood, stone, metal). A field
that names none makes the event malformed, whatever the position: it is read before any rule
is judged, even the end and whose turn it is (the shell's ``check_names``)."""

from __future__ import annotations

from reference.core.errors import MalformedEvent
from reference.pillars.events import BuyResources, SellResources, TakeBishopResource
from reference.pillars.tables import RESOURCES


def check_fields(state: object, event: object) -> None:
    """The resource an event names is one of the four; else MalformedEvent."""
    del state  # the names are the game's own, the same in every position
    if not isinstance(event, BuyResources | SellResources | TakeBishopResource):
        return
    if event.resource not in RESOURCES:
        known = ", ".join(RESOURCES)
        raise MalformedEvent(f"unknown resource {event.resource!r} (known: {known})", "resource")
