"""Board coordinates written as text: the ``"x,y"`` names of cells and points."""

from __future__ import annotations


def int_pair(text: str) -> tuple[int, int] | None:
    """The two whole numbers of ``"x,y"``, or None if ``text`` is not two numbers and a comma."""
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None
