"""The toy position: each player's place on the track and coins, the seat order, the roll."""

from __future__ import annotations

import attrs


@attrs.frozen
class PlayerState:
    position: int = 0
    coins: int = 0


@attrs.frozen
class State:
    players: dict[str, PlayerState]
    order: tuple[str, ...]
    turn: int = 0
    roll: int | None = None
