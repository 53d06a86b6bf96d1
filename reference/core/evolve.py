"""A faster ``attrs.evolve`` for the engines' frozen state classes.

States with dozens of fields are copied on every event. ``attrs.evolve`` inspects the class
and re-runs every field validator on every call; here the class is inspected once, the
unchanged fields are copied as they are (they were validated when the original was built),
and the validators of the *changed* fields run, so a new value is checked exactly as
``attrs.evolve`` would check it. Classes with converters or a post-init hook go through
their ``__init__`` as usual.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

import attrs

T = TypeVar("T")


@attrs.frozen
class _Plan:
    """How to copy one attrs class."""

    names: tuple[str, ...]
    fields: dict[str, Any]
    validators: dict[str, Any]
    plain: bool
    """No converters, no post-init hook, every field set by ``__init__``."""


@cache
def _plan(cls: Any) -> _Plan:
    fields = attrs.fields(cls)
    plain = (
        all(f.converter is None and f.init for f in fields)
        and not hasattr(cls, "__attrs_post_init__")
        and not hasattr(cls, "__attrs_pre_init__")
    )
    return _Plan(
        names=tuple(f.name for f in fields),
        fields={f.name: f for f in fields},
        validators={f.name: f.validator for f in fields if f.validator is not None},
        plain=plain,
    )


def evolve(inst: T, **changes: Any) -> T:
    """A copy of the frozen attrs object ``inst`` with ``changes`` (new values validated)."""
    cls: Any = type(inst)
    plan = _plan(cls)
    unknown = changes.keys() - plan.fields.keys()
    if unknown:
        raise TypeError(f"{cls.__name__} has no field(s) {sorted(unknown)}")
    if not plan.plain:
        values = {name: getattr(inst, name) for name in plan.names}
        values.update(changes)
        rebuilt: T = cls(**values)
        return rebuilt
    new: T = object.__new__(cls)
    for name in plan.names:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(inst, name))
    if attrs.validators.get_disabled():
        return new
    for name, value in changes.items():
        validator = plan.validators.get(name)
        if validator is not None:
            validator(new, plan.fields[name], value)
    return new
