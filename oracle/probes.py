"""Events a careless implementation might accept: the fuzzed-event generator.

Events are built from every event class of a game: events seen anywhere in a game with one
field changed to another value seen for that field, or to a near or out-of-range value.
The contract suite uses them to check that ``apply`` and ``legal_events`` agree; ``conform``
sends the ones our engine refuses to the engine under test, which must refuse them too.
"""

from __future__ import annotations

import random
import types
import typing
from collections import defaultdict
from typing import Any

import attrs

from reference.core.game import Game

Pool = dict[tuple[type, str], list[Any]]
"""Every value seen per (event class, field name)."""


def new_pool() -> Pool:
    """An empty pool of seen field values."""
    return defaultdict(list)


def remember(pool: Pool, events: list[Any]) -> None:
    """Add the field values of ``events`` (e.g. the legal events of a position) to ``pool``."""
    for event in events:
        for f in attrs.fields(type(event)):
            value = getattr(event, f.name)
            seen = pool[type(event), f.name]
            if value not in seen:
                seen.append(value)


def odd_values(kind: Any) -> list[Any]:
    """Values a careless log might hold for a field of this type."""
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if kind is int:
        return [-1, 0, 1, 7, 99]
    if kind is str:
        return ["", "zzz", "chance"]
    if kind is bool:
        return [True, False]
    if origin is tuple:
        return [(), ("zzz",)] if args and args[0] is str else [(), (-1,), (0, 0)]
    if origin in (typing.Union, types.UnionType):
        return [None, *(odd_values(a)[0] for a in args if a is not type(None))]
    return []


def candidates(game: Game, pool: Pool, rng: random.Random, count: int) -> list[Any]:
    """Up to ``count`` events of the game's classes, built from ``pool`` (some made odd)."""
    out = []
    hints = {cls: typing.get_type_hints(cls) for cls in game.event_types}
    for _ in range(count):
        cls = rng.choice(game.event_types)
        fields = [f.name for f in attrs.fields(cls)]
        if any((cls, name) not in pool for name in fields):
            continue  # never listed in this game: no seen value to start from
        base = {name: rng.choice(pool[cls, name]) for name in fields}
        if fields and rng.random() < 0.5:
            name = rng.choice(fields)
            odd = odd_values(hints[cls][name])
            if odd:
                base[name] = rng.choice(odd)
        try:
            out.append(cls(**base))
        except (TypeError, ValueError):
            continue
    return out
