"""Palmyra (Bernd Eisenstein, Irongames 2013): reference engine for 1-5 players.

``make(options)`` gives the rule set: standard, advanced (the emperor) or solo, by
``options.mode``; see docs/games/palmyra.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.palmyra.engine import PACKAGE_DIR, PalmyraGame


def make(options: Mapping[str, Any]) -> PalmyraGame:
    """The Palmyra rule set for these options (``profile`` replaces data values)."""
    return PalmyraGame(options)


__all__ = ["PACKAGE_DIR", "PalmyraGame", "make"]
