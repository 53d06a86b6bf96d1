"""The main board's geometry: a triangular lattice read from the `board.map` data value.

Points are named ``"q,r"`` (axial coordinates), triangles ``"Uq,r"`` (corners (q,r), (q+1,r),
(q,r+1)) and ``"Dq,r"`` (corners (q+1,r), (q,r+1), (q+1,r+1)), road edges ``"a|b"`` with the
two point names in sorted order.
"""

from __future__ import annotations

from typing import Any

import attrs

from reference.core.errors import BadOptions
from reference.core.grid import int_pair

_NEIGHBOUR_STEPS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def point(q: int, r: int) -> str:
    """The name of lattice point (q, r)."""
    return f"{q},{r}"


def edge(a: str, b: str) -> str:
    """The name of the road edge between two neighbouring points."""
    return f"{a}|{b}" if a < b else f"{b}|{a}"


def corners_of(triangle: str) -> tuple[str, str, str] | None:
    """The three corner names of a triangle name, or None if the name is not one."""
    if len(triangle) < 4 or triangle[0] not in "UD":
        return None
    pair = int_pair(triangle[1:])
    if pair is None:
        return None
    q, r = pair
    if triangle[0] == "U":
        return point(q, r), point(q + 1, r), point(q, r + 1)
    return point(q + 1, r), point(q, r + 1), point(q + 1, r + 1)


@attrs.frozen
class MapGeometry:
    """Points with their numbers, neighbours, triangles and bushes of one map."""

    values: dict[str, int | None]
    """Every point and its printed number (None: no number, e.g. the market tent)."""
    neighbours: dict[str, tuple[str, ...]]
    triangles: dict[str, tuple[str, str, str]]
    """Every triangle whose three corners are points of the map."""
    edge_triangles: dict[str, tuple[str, ...]]
    """The one or two triangles that border each edge."""
    point_triangles: dict[str, tuple[str, ...]]
    """The triangles each point is a corner of."""
    bushes: tuple[str, ...]
    """Triangles showing bushes, in the order their bonus tiles are revealed."""
    start: str
    """The market tent, where the start marketplace stands."""

    def is_edge(self, a: str, b: str) -> bool:
        """Whether a and b are neighbouring points of the map."""
        return b in self.neighbours.get(a, ())


def parse_map(raw: Any) -> MapGeometry:
    """Read and check a `board.map` value; a bad shape raises BadOptions."""
    if not isinstance(raw, dict) or set(raw) != {"rows", "bushes"}:
        raise BadOptions("board.map must be a mapping with exactly 'rows' and 'bushes'")
    rows, bushes = raw["rows"], raw["bushes"]
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise BadOptions("board.map.rows must be a list of strings")
    values: dict[str, int | None] = {}
    start: str | None = None
    for r, row in enumerate(rows):
        for q, token in enumerate(row.split()):
            name = point(q, r)
            if token == ".":
                continue
            if token in ("M", "-"):
                values[name] = None
                if token == "M":
                    if start is not None:
                        raise BadOptions("board.map has more than one market tent 'M'")
                    start = name
            elif token.isdecimal() and int(token) > 0:
                values[name] = int(token)
            else:
                raise BadOptions(f"board.map point {name}: bad token {token!r}")
    if start is None:
        raise BadOptions("board.map needs one market tent 'M' (the start marketplace)")
    neighbours: dict[str, tuple[str, ...]] = {}
    for name in values:
        q, r = (int(x) for x in name.split(","))
        near = (point(q + dq, r + dr) for dq, dr in _NEIGHBOUR_STEPS)
        neighbours[name] = tuple(n for n in near if n in values)
    triangles: dict[str, tuple[str, str, str]] = {}
    for name in values:
        for kind in "UD":
            tri = f"{kind}{name}"
            corners = corners_of(tri)
            if corners is not None and all(c in values for c in corners):
                triangles[tri] = corners
    edge_triangles: dict[str, list[str]] = {}
    point_triangles: dict[str, list[str]] = {name: [] for name in values}
    for tri, (a, b, c) in triangles.items():
        for x, y in ((a, b), (b, c), (a, c)):
            edge_triangles.setdefault(edge(x, y), []).append(tri)
        for x in (a, b, c):
            point_triangles[x].append(tri)
    if not isinstance(bushes, list) or not all(isinstance(b, str) for b in bushes):
        raise BadOptions("board.map.bushes must be a list of triangle names like 'U1,0'")
    for bush in bushes:
        if bush not in triangles:
            raise BadOptions(f"board.map bush {bush!r} is not a triangle of the map")
    if len(set(bushes)) != len(bushes):
        raise BadOptions("board.map.bushes names a triangle twice")
    return MapGeometry(
        values=values,
        neighbours=neighbours,
        triangles=triangles,
        edge_triangles={k: tuple(v) for k, v in edge_triangles.items()},
        point_triangles={k: tuple(v) for k, v in point_triangles.items()},
        bushes=tuple(bushes),
        start=start,
    )
