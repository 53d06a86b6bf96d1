"""Helpers every game's state and rules use: replacing one player, seat rotation, counted
multisets, and the attrs field validators of the state classes.

A validator that fails raises ``StateInvariantError``: an ``EngineInvariantError`` (a state
the engine built is unsound: our bug, reported with the event that led there), and also a
``ValueError``, so that a state a *user* wrote (a scenario's ``given.state``) which does not
fit is still reported as their malformed input by the converter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

import attrs

from reference.core.errors import EngineInvariantError
from reference.core.evolve import evolve


class StateInvariantError(EngineInvariantError, ValueError):
    """A state field's validator failed (see the module doc)."""

    def __init__(self, message: str) -> None:
        super().__init__([message])


class HasPlayers(Protocol):
    """A state with one record per player, by name."""

    @property
    def players(self) -> Mapping[str, object]:
        """Each player's record by name."""


S = TypeVar("S", bound=HasPlayers)


def with_player(state: S, name: str, player: object, **changes: Any) -> S:
    """``state`` with player ``name``'s record replaced (seat order kept) and any other
    ``changes`` to the state, all in one copy."""
    players = dict(state.players)
    players[name] = player
    return evolve(state, players=players, **changes)


def clockwise_from(seats: Sequence[str], first: str) -> tuple[str, ...]:
    """Every seat in seat order, starting with ``first``."""
    i = seats.index(first)
    return (*seats[i:], *seats[:i])


def next_seat(seats: Sequence[str], name: str) -> str:
    """The seat after ``name`` in seat order (the first after the last)."""
    return seats[(seats.index(name) + 1) % len(seats)]


def added(counts: Mapping[str, int], more: Mapping[str, int]) -> dict[str, int]:
    """A counted multiset plus another (keys of ``counts`` first, in their order)."""
    out = dict(counts)
    for key, n in more.items():
        out[key] = out.get(key, 0) + n
    return out


def taken(counts: Mapping[str, int], less: Mapping[str, int]) -> dict[str, int]:
    """A counted multiset less another; a count going negative is left for the validator
    or the invariants to report (callers check the rule first)."""
    out = dict(counts)
    for key, n in less.items():
        out[key] = out.get(key, 0) - n
    return out


def not_negative(_inst: object, attribute: attrs.Attribute[Any], value: int) -> None:
    """attrs validator: a count never below zero."""
    if value < 0:
        raise StateInvariantError(f"{attribute.name} may not be negative (got {value})")


def counts_not_negative(
    _inst: object, attribute: attrs.Attribute[Any], value: Mapping[str, int]
) -> None:
    """attrs validator: every count of a counted multiset at least zero."""
    if not value or min(value.values()) >= 0:
        return  # the usual case, checked at C speed; else name the first negative count
    # (``min`` with a ``default=`` keyword costs half as much again: the empty case apart)
    for key, n in value.items():
        if n < 0:
            raise StateInvariantError(f"{attribute.name}.{key} may not be negative (got {n})")
