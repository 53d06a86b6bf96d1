"""The Pillars board layout: the master-builder locations and their spaces, from the data."""

from __future__ import annotations

from typing import Any

from reference.core.game import Game
from reference.pillars.engine import Pillars
from reference.pillars.tables import MARKET_RESOURCES, RESOURCES


def layout(game: Game) -> dict[str, Any]:
    """Locations in board order with their spaces (capacities come from ``board.*``), the
    resources, the cost marker's start and the number of rounds."""
    if not isinstance(game, Pillars):
        raise TypeError(f"a Pillars layout needs the Pillars rules, not {game.name}")
    ctx = game.tables
    tables = ctx.t
    return {
        "locations": [{"name": name, "spaces": list(spaces)} for name, spaces in ctx.locations],
        "resources": list(RESOURCES),
        "market_resources": list(MARKET_RESOURCES),
        "cost_start": tables.cost_start,
        "rounds": tables.rounds,
    }
