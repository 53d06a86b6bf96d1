"""The Palmyra layout: the lattice is open (tiles are laid anywhere), so the page draws the
cells the state names; here only the names of the tile code's letters."""

from __future__ import annotations

from typing import Any

from reference.core.game import Game
from reference.palmyra.tiles import ICONS, LANDSCAPES, SIZES


def layout(game: Game) -> dict[str, Any]:
    """The meaning of a tile code's letters (``L:D+W``: large desert tile, watchtower)."""
    return {"sizes": SIZES, "landscapes": LANDSCAPES, "icons": ICONS}
