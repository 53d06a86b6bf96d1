"""The checkerboard lattice the tiles lie on (PAL-GEO-01, PAL-GEO-02, PAL-GEO-03).

A cell is written ``"x,y"`` with integer x and y. Cells with x + y even hold large
(octagonal) tiles, cells with x + y odd hold small (square) tiles. An octagon touches the
four octagons on its diagonals by its short sides and the four squares beside it by its
long sides; a square touches only the four octagons beside it, so two squares (two small
tiles) are never neighbours. See docs/games/palmyra.md for a picture.
"""

from __future__ import annotations

from functools import lru_cache

from reference.core.grid import int_pair

CENTRE = "centre"
"""The position of a piece standing in the city centre (any number may stand there)."""

OCTAGON = "L"
SQUARE = "S"


@lru_cache(maxsize=4096)
def parse_cell(text: str) -> tuple[int, int] | None:
    """The (x, y) of a cell name like ``"-1,2"``, or None if it is not one."""
    pair = int_pair(text)
    if pair is None:
        return None
    x, y = pair
    if f"{x},{y}" != text:
        return None
    return x, y


def cell_name(x: int, y: int) -> str:
    """The canonical name of cell (x, y)."""
    return f"{x},{y}"


def cell_kind(x: int, y: int) -> str:
    """'L' for an octagon cell (large tiles), 'S' for a square cell (small tiles)."""
    return OCTAGON if (x + y) % 2 == 0 else SQUARE


@lru_cache(maxsize=4096)
def kind_of(cell: str) -> str:
    """'L' or 'S' for a well-formed cell name, '' otherwise."""
    xy = parse_cell(cell)
    return cell_kind(*xy) if xy is not None else ""


@lru_cache(maxsize=4096)
def neighbours(cell: str) -> tuple[str, ...]:
    """The cells touching ``cell``: 4 diagonal octagons and 4 squares for an octagon,
    the 4 orthogonal octagons for a square; () for a malformed name."""
    xy = parse_cell(cell)
    if xy is None:
        return ()
    x, y = xy
    ortho = ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
    if cell_kind(x, y) == SQUARE:
        return tuple(cell_name(a, b) for a, b in ortho)
    diag = ((x + 1, y + 1), (x + 1, y - 1), (x - 1, y + 1), (x - 1, y - 1))
    return tuple(cell_name(a, b) for a, b in ortho + diag)


@lru_cache(maxsize=64)
def touching(cells: tuple[str, ...]) -> tuple[str, ...]:
    """Every cell touching any of ``cells`` and not itself one of them, sorted by name."""
    inside = set(cells)
    found = {n for c in cells for n in neighbours(c)} - inside
    return tuple(sorted(found, key=sort_key))


def sort_key(cell: str) -> tuple[int, int]:
    """Stable order for cells: by x, then y."""
    xy = parse_cell(cell)
    return xy if xy is not None else (0, 0)
