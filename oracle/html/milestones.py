"""The Milestones map layout: the lattice points with their numbers and the bush triangles,
read from ``board.map`` (so a profile's map draws), and the player board's loop."""

from __future__ import annotations

from typing import Any

from reference.core.game import Game
from reference.milestones.names import LOOP
from reference.milestones.tables import read_tables


def layout(game: Game) -> dict[str, Any]:
    """Points ("q,r" -> printed number or null), triangles by name with their corners, the
    bush triangles, the market tent, and the player board's loop in clockwise order."""
    geometry = read_tables(game.data).geometry
    return {
        "points": geometry.values,
        "triangles": {name: list(corners) for name, corners in geometry.triangles.items()},
        "bushes": list(geometry.bushes),
        "start": geometry.start,
        "loop": list(LOOP),
    }
