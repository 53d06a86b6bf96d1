"""Land tiles: a size, one landscape and at most one icon, written as a short code.

A tile code is ``<size>:<landscape>`` or ``<size>:<landscape>+<icon>``, as in the rules
digest: ``L:D`` is a large (octagonal) desert tile, ``S:H+W`` a small (square) hills tile
with a watchtower. Sizes: L large, S small. Landscapes: D desert, H hills, M mountains.
Icons: W watchtower, O oasis (the same icon some sources call a lake), C caravan.
"""

from __future__ import annotations

import attrs

SIZES: dict[str, str] = {"L": "large", "S": "small"}
LANDSCAPES: dict[str, str] = {"D": "desert", "H": "hills", "M": "mountains"}
ICONS: dict[str, str] = {"W": "watchtower", "O": "oasis", "C": "caravan"}

LARGE = "large"
SMALL = "small"
STACK_SIZES: tuple[str, str] = (LARGE, SMALL)


@attrs.frozen
class Tile:
    """What a tile code means: size letter, landscape letter, icon letter ('' for none)."""

    code: str
    size: str
    landscape: str
    icon: str

    @property
    def stack(self) -> str:
        """The stack the tile belongs to: 'large' or 'small'."""
        return SIZES[self.size]


def _all_tiles() -> dict[str, Tile]:
    tiles: dict[str, Tile] = {}
    for size in SIZES:
        for land in LANDSCAPES:
            for icon in ("", *ICONS):
                code = f"{size}:{land}" + (f"+{icon}" if icon else "")
                tiles[code] = Tile(code, size, land, icon)
    return tiles


TILES: dict[str, Tile] = _all_tiles()
"""Every possible tile, by code (2 sizes x 3 landscapes x 4 icon choices = 24)."""


def tile(code: str) -> Tile | None:
    """The tile a code names, or None for a code that names no tile."""
    return TILES.get(code)


def describe(code: str) -> str:
    """A tile code in words, e.g. 'large desert tile with a watchtower'."""
    t = TILES.get(code)
    if t is None:
        return repr(code)
    words = f"{SIZES[t.size]} {LANDSCAPES[t.landscape]} tile"
    return words + (f" with a {ICONS[t.icon]}" if t.icon else "")
