"""The Pillars board layout: the master-builder locations and their spaces, from the data."""

from __future__ import annotations

from typing import Any

from reference.core.game import Game
from reference.pillars.flow import make_ctx
from reference.pillars.tables import MARKET_RESOURCES, RESOURCES, read_tables


def layout(game: Game) -> dict[str, Any]:
    """Locations in board order with their spaces (capacities come from ``board.*``), the
    resources, the cost marker's start and the number of rounds."""
    tables = read_tables(game.data)
    ctx = make_ctx(tables, game.options)
    return {
        "locations": [{"name": name, "spaces": list(spaces)} for name, spaces in ctx.locations],
        "resources": list(RESOURCES),
        "market_resources": list(MARKET_RESOURCES),
        "cost_start": tables.cost_start,
        "rounds": tables.rounds,
    }
