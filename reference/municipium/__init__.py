"""Municipium (Reiner Knizia, Valley Games 2008): the reference engine.

>>> game = make({})
>>> game.new_game(["red", "blue", "green"]).phase
'setup'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reference.core.options import load_rules_and_data, read_options
from reference.municipium.engine import Municipium
from reference.municipium.options import MunicipiumOptions
from reference.municipium.tables import read_tables

__all__ = ["Municipium", "MunicipiumOptions", "make"]


def make(options: dict[str, Any]) -> Municipium:
    """The Municipium rule set for these options (``profile`` replaces data values)."""
    parsed, profile = read_options(options, MunicipiumOptions)
    catalogue, data = load_rules_and_data(Path(__file__).parent, profile)
    return Municipium(options=parsed, catalogue=catalogue, data=data, tables=read_tables(data))
