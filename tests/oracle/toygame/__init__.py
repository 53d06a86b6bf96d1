"""A tiny dice race used only to test the oracle machinery apart from the real games, and
the template of a game package (docs/adding-a-game.md): the same files as every game.

Each turn: chance rolls a die (faces from data), then the player either advances by the
roll or banks one coin. The first player to reach the goal ends the game; most coins wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toygame.engine import ToyGame
from toygame.state import State


def make(options: Mapping[str, Any]) -> ToyGame:
    return ToyGame(options)


__all__ = ["State", "ToyGame", "make"]
