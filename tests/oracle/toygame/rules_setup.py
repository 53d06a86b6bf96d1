"""The toy's setup: everyone at the start with no coins, the first seat to roll."""

from __future__ import annotations

from collections.abc import Sequence

from toygame.state import PlayerState, State
from toygame.tables import Tables


def new_game(t: Tables, players: Sequence[str]) -> State:
    return State({p: PlayerState() for p in players}, tuple(players))
