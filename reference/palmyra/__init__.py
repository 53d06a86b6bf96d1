"""Palmyra (Bernd Eisenstein, Irongames 2013): reference engine for 1-5 players.

``make(options)`` gives the rule set: standard, advanced (the emperor) or solo, by
``options.mode``; see docs/games/palmyra.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reference.core.options import load_rules_and_data, read_options
from reference.palmyra.engine import PalmyraGame
from reference.palmyra.options import PalmyraOptions
from reference.palmyra.tables import Config, read_tables

PACKAGE_DIR = Path(__file__).resolve().parent


def make(options: dict[str, Any]) -> PalmyraGame:
    """The Palmyra rule set for these options (``profile`` replaces data values)."""
    parsed, profile = read_options(options, PalmyraOptions)
    catalogue, data = load_rules_and_data(PACKAGE_DIR, profile)
    return PalmyraGame(
        options=parsed,
        catalogue=catalogue,
        data=data,
        cfg=Config(read_tables(data), parsed),
    )


__all__ = ["PalmyraGame", "make"]
