"""A faster ``attrs.evolve`` for the engines' frozen state classes.

``attrs.evolve`` inspects the class on every call and runs ``__init__``, so every field
validator runs again on every copy, on values that were checked when they were first set.
States with dozens of fields are copied on every event, so here the class is inspected once,
the unchanged values are copied as they are (the new state shares them with the old one), and
only the validators of the changed fields run. A value can only enter a state through
``__init__`` (validators run), ``attrs.evolve`` or this function (validators of the changed
fields run), so every value of a state has passed its field's validator.

A class this shortcut does not fit (converters, ``__attrs_post_init__``, cached hashes,
validators that read other fields through the instance cannot be told apart, so a class
opts out by having any of the first three) is copied through its ``__init__`` as before.

The games' state classes are declared ``@attrs.frozen(slots=False)``: their instances keep
their fields in a ``__dict__``, and a copy is one new dict (the old one's entries, the
changes written over them) given to a new instance, instead of one slot write per field.
A state class has 15 to 29 fields and an event changes one or two, so this is what makes a
copy cheap. The new dict is the instance's own, built whole before it is set, so reading a
field stays as fast as from a slot.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

T = TypeVar("T")

_set = object.__setattr__


@attrs.frozen
class _Plan:
    """How to copy one attrs class: its init-able fields, one getter for all their values,
    each init-able field's validator (None for a field without one), whether the shortcut
    applies, and whether its instances keep their fields in a ``__dict__`` (copied whole)."""

    names: tuple[str, ...]
    read: Callable[[Any], tuple[Any, ...]]
    validators: dict[str, tuple[Any, attrs.Attribute[Any]] | None]
    direct: bool
    by_dict: bool


_PLANS: dict[type, _Plan] = {}
"""Each class's plan, made at its first copy (a class is never changed after it is made)."""


def _plan(cls: Any) -> _Plan:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _make_plan(cls)
    return plan


def _make_plan(cls: Any) -> _Plan:
    fields = attrs.fields(cls)
    names = tuple(f.name for f in fields if f.init)
    if len(names) == 1:
        name = names[0]
        read: Callable[[Any], tuple[Any, ...]] = lambda inst: (getattr(inst, name),)  # noqa: E731
    else:
        read = operator.attrgetter(*names)
    direct = (
        len(names) == len(fields)
        and not any(f.converter is not None for f in fields)
        and not hasattr(cls, "__attrs_post_init__")
        and not hasattr(cls, "__attrs_pre_init__")
        and "_attrs_cached_hash" not in getattr(cls, "__slots__", ())
    )
    validators = {
        f.name: None if f.validator is None else (f.validator, f) for f in fields if f.init
    }
    # Every field in the instance's __dict__: no class of its line keeps any in slots.
    by_dict = direct and not any("__slots__" in vars(k) for k in cls.__mro__[:-1])
    return _Plan(names, read, validators, direct, by_dict)


def evolve(inst: T, **changes: Any) -> T:
    """A copy of the frozen attrs object ``inst`` with ``changes``; the validators of the
    changed fields run (as in ``__init__``, after every field is set)."""
    cls: Any = type(inst)
    plan = _plan(cls)
    if not plan.direct:
        values = dict(zip(plan.names, plan.read(inst), strict=True))
        values.update(changes)
        made: T = cls(**values)
        return made
    new: T = object.__new__(cls)
    if plan.by_dict:
        _set(new, "__dict__", {**vars(inst), **changes})
    else:
        for name, value in zip(plan.names, plan.read(inst), strict=True):
            _set(new, name, value)
        for name, value in changes.items():
            if name not in plan.validators:  # a slot it does not have: refused below
                break
            _set(new, name, value)
    # One look-up per changed field finds its validator and refuses a field the class does
    # not have (the half-made copy is dropped with the error).
    validators = plan.validators
    for name, value in changes.items():
        try:
            check = validators[name]
        except KeyError:
            raise TypeError(f"{cls.__name__} has no field {name!r}") from None
        if check is not None:
            validator, field = check
            validator(new, field, value)
    return new
