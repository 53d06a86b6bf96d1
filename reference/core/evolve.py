"""A faster ``attrs.evolve`` for the engines' frozen state classes.

``attrs.evolve`` inspects the class on every call; states with dozens of fields are
copied on every event, so the field names are looked up once per class here. The class's
``__init__`` still runs, so every field validator runs as with ``attrs.evolve``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

import attrs

T = TypeVar("T")


@cache
def _reader(cls: Any) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
    """The init-able field names of an attrs class and one getter for all their values."""
    names = tuple(f.name for f in attrs.fields(cls) if f.init)
    if len(names) == 1:
        name = names[0]
        return names, lambda inst: (getattr(inst, name),)
    return names, operator.attrgetter(*names)


def evolve(inst: T, **changes: Any) -> T:
    """A copy of the frozen attrs object ``inst`` with ``changes`` (validators run)."""
    cls: Any = type(inst)
    names, read = _reader(cls)
    values = dict(zip(names, read(inst), strict=True))
    values.update(changes)
    new: T = cls(**values)
    return new
