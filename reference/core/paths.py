"""State paths: a dotted address of any value in a state, e.g. ``players.red.gold``.

Each segment is an attribute of an attrs object, a key of a mapping (keys are strings;
a segment written as an integer also finds an integer key), or an index of a tuple or list
(``market.deck.0``). Logs and scenarios use paths to claim or set values.

The grammar, in one place (``segments``): a path is at most ``MAX_PATH_CHARS`` characters
and ``MAX_SEGMENTS`` segments separated by ``.``; no segment is empty. A segment is an
*index* when it is ASCII digits only (``0``, ``12``), an *integer key* when it is an index
or ``-`` and ASCII digits (``-1``). Anything else (``²``, ``--1``, ``+1``, `` 1``) is text:
it names a field or a text key, never a number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

import attrs

from reference.core.errors import OracleError

MAX_PATH_CHARS = 1_000
MAX_SEGMENTS = 64
_INDEX = re.compile(r"[0-9]+\Z", re.ASCII)
_INT_KEY = re.compile(r"-?[0-9]+\Z", re.ASCII)
_MAX_INDEX_DIGITS = 18
"""No state holds 10**18 items; a longer number is still a number, just never found."""


class UnknownPath(OracleError):
    """Raised when a path names nothing in the state, or is not a path at all."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"state path {_shown(path)}: {reason}")
        self.path = path
        self.reason = reason


def _shown(path: str) -> str:
    """The path for a message, cut to a readable length."""
    return repr(path if len(path) <= 200 else path[:200] + "...")


def segments(path: object) -> tuple[str, ...]:
    """The segments of ``path`` by the grammar above; anything else raises UnknownPath."""
    if not isinstance(path, str):
        raise UnknownPath(str(path), f"a path is text, not {type(path).__name__}")
    return _segments(path)


@lru_cache(maxsize=4096)
def _segments(path: str) -> tuple[str, ...]:
    if len(path) > MAX_PATH_CHARS:
        raise UnknownPath(path, f"longer than {MAX_PATH_CHARS} characters")
    parts = tuple(path.split("."))
    if not path or not all(parts):
        raise UnknownPath(path, "empty segment")
    if len(parts) > MAX_SEGMENTS:
        raise UnknownPath(path, f"more than {MAX_SEGMENTS} segments")
    return parts


def as_index(seg: str) -> int | None:
    """The list index ``seg`` writes (ASCII digits only), or None."""
    if _INDEX.match(seg) and len(seg) <= _MAX_INDEX_DIGITS:
        return int(seg)
    return None


def as_int_key(seg: str) -> int | None:
    """The integer mapping key ``seg`` writes (``-``? ASCII digits), or None."""
    if _INT_KEY.match(seg) and len(seg) <= _MAX_INDEX_DIGITS + 1:
        return int(seg)
    return None


def split(path: str) -> list[str]:
    """The segments of a path; a path the grammar refuses raises UnknownPath."""
    return list(segments(path))


def read(state: Any, path: str) -> Any:
    """The value at ``path`` in ``state``."""
    node = state
    parts = segments(path)
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
    where = ".".join(parts[:i]) or "<state>"
    if fields is not None:
        if seg in fields:
            return getattr(node, seg)
        names = ", ".join(fields)
        raise UnknownPath(path, f"{where} has no field {seg!r} (fields: {names})")
    if isinstance(node, Mapping):
        if seg in node:
            return node[seg]
        key = as_int_key(seg)
        if key is not None and key in node:
            return node[key]
        keys = ", ".join(str(k) for k in list(node)[:50])
        raise UnknownPath(path, f"{where} has no key {seg!r} (keys: {keys})")
    if isinstance(node, (tuple, list)):
        index = as_index(seg)
        if index is not None and index < len(node):
            return node[index]
        raise UnknownPath(path, f"{where} has {len(node)} items; no index {seg!r}")
    raise UnknownPath(path, f"{where} is a {type(node).__name__}, with no parts")
