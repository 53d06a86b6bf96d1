"""State paths: a dotted address of any value in a state, e.g. ``players.red.gold``.

Each segment is an attribute of an attrs object, a key of a mapping (keys are strings;
a segment of digits also finds an integer key), or an index of a tuple or list
(``market.deck.0``). Logs and scenarios use paths to claim or set values.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

import attrs

from reference.core.errors import OracleError


class UnknownPath(OracleError):
    """Raised when a path names nothing in the state."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"state path {path!r}: {reason}")
        self.path = path
        self.reason = reason


def split(path: str) -> list[str]:
    """The segments of a path; an empty segment raises UnknownPath."""
    return list(_split(path))


@lru_cache(maxsize=4096)
def _split(path: str) -> tuple[str, ...]:
    parts = tuple(path.split("."))
    if not path or not all(parts):
        raise UnknownPath(path, "empty segment")
    return parts


def read(state: Any, path: str) -> Any:
    """The value at ``path`` in ``state``."""
    node = state
    parts = _split(path)
    for i, seg in enumerate(parts):
        node = _child(node, seg, path, parts, i)
    return node


@cache
def _field_names(cls: Any) -> tuple[str, ...] | None:
    """The field names of an attrs class, or None for any other class."""
    return tuple(f.name for f in attrs.fields(cls)) if attrs.has(cls) else None


def _child(node: Any, seg: str, path: str, parts: tuple[str, ...], i: int) -> Any:
    cls: Any = type(node)
    fields = _field_names(cls)
    if fields is not None:
        if seg in fields:
            return getattr(node, seg)
        where = ".".join(parts[:i]) or "<state>"
        names = ", ".join(fields)
        raise UnknownPath(path, f"{where} has no field {seg!r} (fields: {names})")
    if isinstance(node, Mapping):
        if seg in node:
            return node[seg]
        if seg.lstrip("-").isdigit() and int(seg) in node:
            return node[int(seg)]
        where = ".".join(parts[:i]) or "<state>"
        keys = ", ".join(str(k) for k in node)
        raise UnknownPath(path, f"{where} has no key {seg!r} (keys: {keys})")
    if isinstance(node, (tuple, list)):
        if seg.isdigit() and int(seg) < len(node):
            return node[int(seg)]
        where = ".".join(parts[:i]) or "<state>"
        raise UnknownPath(path, f"{where} has {len(node)} items; no index {seg!r}")
    where = ".".join(parts[:i]) or "<state>"
    raise UnknownPath(path, f"{where} is a {type(node).__name__}, with no parts")
