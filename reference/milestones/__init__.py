"""Milestones (Dorra / zur Linde, 2012): the reference engine. See docs/games/milestones.md."""

from __future__ import annotations

from typing import Any

from reference.milestones.engine import MilestonesGame


def make(options: dict[str, Any]) -> MilestonesGame:
    """The Milestones rule set for these options (``profile`` replaces data values)."""
    return MilestonesGame(options)


__all__ = ["MilestonesGame", "make"]
