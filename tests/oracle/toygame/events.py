"""The toy's events: a chance roll, then the player advances or banks a coin."""

from __future__ import annotations

from typing import ClassVar

import attrs

from reference.core.game import Event


@attrs.frozen
class Roll:
    type: ClassVar[str] = "roll"
    value: int


@attrs.frozen
class Advance:
    type: ClassVar[str] = "advance"
    player: str
    steps: int


@attrs.frozen
class Bank:
    type: ClassVar[str] = "bank"
    player: str


EVENT_TYPES: tuple[type[Event], ...] = (Roll, Advance, Bank)
