"""One typed reader for the data tables every game reads (its own values or a user's profile).

Each function takes the full data key (``cards.resource_cards.gravel_small.yield``) and the
raw value, and returns it in typed form or raises ``BadOptions`` with one message shape::

    data key setup.workers: expected a whole number 0..99, got 'x'

Every number has an upper bound (``MOST`` unless the game gives a tighter one), so that no
value a profile may set makes setup or the listing of legal events explode. Values are never
used as dictionary keys or set members before their type is checked (a list or mapping where
a name belongs is the user's error, never a crash).

A supply or stock (``stock``, ``stocks``) may also be ``null``: unlimited
(``reference.core.stock``). Its bound is there only against absurd sizes, and its error
names the way to say "unlimited"::

    data key setup.cubes.wood: expected a whole number 0..999 or null (unlimited), got 5000
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TypeVar

from reference.core.datafile import DataSet
from reference.core.errors import BadOptions
from reference.core.stock import UNLIMITED_WORDS, Stock

MOST = 999
"""The default upper bound of any whole number a profile can set."""

K = TypeVar("K")


def bad(key: str, expected: str, got: object) -> BadOptions:
    """The one message shape of a data value that cannot be read."""
    shown = repr(got)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return BadOptions(f"data key {key}: expected {expected}, got {shown}")


def whole(key: str, value: object, low: int = 0, high: int = MOST) -> int:
    """A whole number in ``low..high`` (true and false are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise bad(key, f"a whole number {low}..{high}", value)
    return value


def whole_at(data: DataSet, key: str, low: int = 0, high: int = MOST) -> int:
    """The whole number in ``low..high`` at data key ``key``."""
    return whole(key, data.value(key), low, high)


def stock(key: str, value: object, low: int = 0, high: int = MOST) -> Stock:
    """A supply's or stock's count: a whole number in ``low..high``, or null (None):
    unlimited."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise bad(key, f"a whole number {low}..{high} or {UNLIMITED_WORDS}", value)
    return value


def stock_at(data: DataSet, key: str, low: int = 0, high: int = MOST) -> Stock:
    """The supply's or stock's count at data key ``key`` (null: unlimited)."""
    return stock(key, data.value(key), low, high)


def stocks(
    key: str, value: object, allowed: Collection[str], exact: bool = False, high: int = MOST
) -> dict[str, Stock]:
    """A mapping from some (``exact``: all) of the ``allowed`` names to stock counts 0..high
    or null (unlimited)."""
    raw = mapping(key, value)
    unknown = sorted(set(raw) - set(allowed))
    if unknown or (exact and set(raw) != set(allowed)):
        which = "exactly" if exact else "only"
        raise bad(key, f"{which} the names {', '.join(allowed)}", value)
    return {k: stock(f"{key}.{k}", v, 0, high) for k, v in raw.items()}


def flag(key: str, value: object) -> bool:
    """True or false."""
    if not isinstance(value, bool):
        raise bad(key, "true or false", value)
    return value


def text(key: str, value: object) -> str:
    """A non-empty string."""
    if not isinstance(value, str) or not value:
        raise bad(key, "a name", value)
    return value


def choice(key: str, value: object, allowed: Collection[str]) -> str:
    """One of the ``allowed`` names."""
    if not isinstance(value, str) or value not in allowed:
        raise bad(key, "one of " + ", ".join(sorted(allowed)), value)
    return value


def mapping(key: str, value: object, nonempty: bool = False) -> dict[str, object]:
    """A mapping with name keys (a YAML mapping); its values are read by the caller."""
    if not isinstance(value, Mapping) or (nonempty and not value) or len(value) > MOST:
        size = f"1..{MOST}" if nonempty else f"at most {MOST}"
        raise bad(key, f"a mapping of {size} entries", value)
    out: dict[str, object] = {}
    for k, v in value.items():
        out[text(f"{key} (a key)", k)] = v
    return out


def items(key: str, value: object, nonempty: bool = False, most: int = MOST) -> list[object]:
    """A list of at most ``most`` values; its values are read by the caller."""
    if not isinstance(value, list | tuple) or (nonempty and not value) or len(value) > most:
        size = f"1..{most}" if nonempty else f"at most {most}"
        raise bad(key, f"a list of {size} values", value)
    return list(value)


def wholes(
    key: str, value: object, low: int = 0, high: int = MOST, nonempty: bool = True
) -> tuple[int, ...]:
    """A list of whole numbers in ``low..high``."""
    return tuple(
        whole(f"{key}[{i}]", v, low, high) for i, v in enumerate(items(key, value, nonempty))
    )


def names(
    key: str, value: object, allowed: Collection[str] | None = None, distinct: bool = False
) -> tuple[str, ...]:
    """A list of names (each one of ``allowed`` when given; each once when ``distinct``)."""
    raw = items(key, value)
    if allowed is None:
        found = tuple(text(f"{key}[{i}]", v) for i, v in enumerate(raw))
    else:
        found = tuple(choice(f"{key}[{i}]", v, allowed) for i, v in enumerate(raw))
    if distinct and len(set(found)) != len(found):
        twice = sorted({name for name in found if found.count(name) > 1})
        raise bad(key, f"each name once ({', '.join(twice)} more than once)", value)
    return found


def counts(
    key: str, value: object, allowed: Collection[str], exact: bool = False, high: int = MOST
) -> dict[str, int]:
    """A mapping from some (``exact``: all) of the ``allowed`` names to counts 0..high."""
    raw = mapping(key, value)
    unknown = sorted(set(raw) - set(allowed))
    if unknown or (exact and set(raw) != set(allowed)):
        which = "exactly" if exact else "only"
        raise bad(key, f"{which} the names {', '.join(allowed)}", value)
    return {k: whole(f"{key}.{k}", v, 0, high) for k, v in raw.items()}


def record(
    key: str, value: object, required: Collection[str], optional: Collection[str] = ()
) -> dict[str, object]:
    """A mapping with every ``required`` field and no field beyond ``optional``."""
    raw = mapping(key, value)
    missing = [f for f in required if f not in raw]
    extra = sorted(set(raw) - set(required) - set(optional))
    if missing or extra:
        fields = ", ".join([*required, *(f"[{f}]" for f in optional)])
        raise bad(key, f"the fields {fields}", value)
    return raw


def player_counts(key: str, value: object, counts_needed: Collection[int]) -> dict[int, object]:
    """A mapping from player counts (keys like ``2`` or ``"2"``) with every needed count."""
    if not isinstance(value, Mapping):
        raise bad(key, "a mapping from player count", value)
    out: dict[int, object] = {}
    for k, v in value.items():
        if isinstance(k, bool) or not isinstance(k, int | str) or not str(k).isdigit():
            raise bad(f"{key} (a key)", "a player count", k)
        out[int(k)] = v
    missing = sorted(set(counts_needed) - set(out))
    if missing:
        raise bad(key, "the player counts " + ", ".join(map(str, sorted(counts_needed))), value)
    return out
