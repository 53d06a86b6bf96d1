"""The Municipium board layout: the seven institutions by number, their home citizens and
the roads between them, from ``board.*`` (so a profile's roads draw), and the citizen kinds."""

from __future__ import annotations

from typing import Any

from reference.core.game import Game
from reference.municipium.tables import KINDS, read_tables


def layout(game: Game) -> dict[str, Any]:
    """Institutions in number order (0 first) with their home citizen kind, and the roads."""
    tables = read_tables(game.data)
    roads = sorted({tuple(sorted((a, b))) for a, near in tables.neighbours.items() for b in near})
    return {
        "institutions": [
            {"name": name, "number": number, "home": tables.home[name]}
            for number, name in enumerate(tables.order)
        ],
        "roads": [list(road) for road in roads],
        "kinds": list(KINDS),
    }
