"""The public functions' arguments, checked where a wrong type would otherwise surface as a
Python error from deep inside (``'int' object is not iterable``): each raises ``BadOptions``
naming the argument and what it should be."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rules_oracle._errors import BadOptions


def _kind(value: object) -> str:
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 60 else shown[:57] + '...'}"


def mapping(name: str, value: object) -> dict[str, Any]:
    """A mapping argument (None: empty)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise BadOptions(f"{name} is a mapping, not {_kind(value)}")
    return dict(value)


def text(name: str, value: object) -> str:
    """A text argument."""
    if not isinstance(value, str):
        raise BadOptions(f"{name} is a str, not {_kind(value)}")
    return value


def path(name: str, value: object) -> Path:
    """A file path argument (text or a path object)."""
    if not isinstance(value, str | os.PathLike):
        raise BadOptions(f"{name} is a file path, not {_kind(value)}")
    return Path(value)


def paths(name: str, value: object) -> list[str]:
    """Paths: a list of them, or one alone (text or a path object: never its letters)."""
    if isinstance(value, str | os.PathLike):
        return [os.fspath(value)]
    if isinstance(value, bytes) or not isinstance(value, Iterable):
        raise BadOptions(f"{name} is a list of file paths, not {_kind(value)}")
    found = []
    for item in value:
        if not isinstance(item, str | os.PathLike):
            raise BadOptions(f"{name} holds file paths, not {_kind(item)}")
        found.append(os.fspath(item))
    return found
