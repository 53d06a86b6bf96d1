"""The Pillars of the Earth (Kosmos 2006), base game for 2-4 players: reference engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.pillars.engine import Pillars
from reference.pillars.options import PillarsOptions


def make(options: Mapping[str, Any]) -> Pillars:
    """The rule set for these options (``profile`` replaces data values)."""
    return Pillars(options)


__all__ = ["make", "Pillars", "PillarsOptions"]
