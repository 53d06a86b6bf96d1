"""Municipium (Reiner Knizia, Valley Games 2008): the reference engine.

>>> game = make({})
>>> game.new_game(["red", "blue", "green"]).phase
'setup'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.municipium.engine import Municipium
from reference.municipium.options import MunicipiumOptions

__all__ = ["Municipium", "MunicipiumOptions", "make"]


def make(options: Mapping[str, Any]) -> Municipium:
    """The Municipium rule set for these options (``profile`` replaces data values)."""
    return Municipium(options)
