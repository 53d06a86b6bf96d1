"""Compiled state-path readers: ``paths.read`` without walking the path's text every time.

A log claims a dozen values after every event, by path (``players.red.gold``). Walking
a path from its text asks at every segment what kind of node it stands on. An accessor
answers those questions once per state class and path, from the classes' field types:

    read = accessor(State, "players.red.gold")
    read(state)          # the same value as paths.read(state, "players.red.gold")

At each step the accessor checks that the node is of the type its field declares, then
takes the attribute, key or index the segment names. Whenever a node is not of that
type, or a key or index is missing, it hands the whole path to ``paths.read``, so it
returns what ``paths.read`` returns and raises the same ``UnknownPath`` for a bad path.
A path the field types do not describe to its end (an optional value, a mapping with
number keys) is read by ``paths.read`` alone.

A log claims the same paths after many events (``players.red.gold``, ``players.red.vp``,
...). A reader for such a list of paths walks each shared parent once and takes its fields
in one call, then reads every path it could not so take through its own accessor, in the
list's order (so the first bad path raises, as reading them one by one would):

    values = reader(State, ("players.red.gold", "players.red.vp"))(state)
"""

from __future__ import annotations

import operator
import types
import typing
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import attrs

from reference.core import paths

Step = tuple[type[Any], Callable[[Any], Any]]
"""The type a node must have, and how to take the next node from it."""


class Accessor:
    """Reads one path in states of one class (see the module docstring)."""

    __slots__ = ("path", "steps")

    def __init__(self, path: str, steps: tuple[Step, ...] | None) -> None:
        self.path = path
        self.steps = steps
        """Every segment's step, or None: the field types do not describe the path."""

    def __call__(self, state: Any) -> Any:
        """The value at the path in ``state``; raises UnknownPath as ``paths.read`` does."""
        steps = self.steps
        if steps is None:
            return paths.read(state, self.path)
        node = state
        try:
            for kind, take in steps:
                if type(node) is not kind:
                    return paths.read(state, self.path)
                node = take(node)
        except LookupError:  # a missing key or index: paths.read names what is missing
            return paths.read(state, self.path)
        return node


_UNREAD: Any = object()
"""A value a reader has not taken yet."""


def _walk(steps: tuple[Step, ...], state: Any) -> Any:
    """The node the steps lead to, or _UNREAD where a node or key is not as declared."""
    node = state
    for kind, take in steps:
        if type(node) is not kind:
            return _UNREAD
        try:
            node = take(node)
        except LookupError:
            return _UNREAD
    return node


class Reader:
    """Reads a fixed list of paths in states of one class (see the module docstring)."""

    __slots__ = ("accessors", "alone", "groups", "state_type", "whole")

    def __init__(self, state_type: Any, path_list: tuple[str, ...]) -> None:
        self.state_type = state_type
        """The class of the states it reads."""
        self.accessors = tuple(_accessor_or_reading(state_type, path) for path in path_list)
        by_parent: dict[tuple[str, type[Any]], list[int]] = {}
        for index, (path, one) in enumerate(zip(path_list, self.accessors, strict=True)):
            if one.steps and attrs.has(one.steps[-1][0]):
                parent = path.rpartition(".")[0]
                by_parent.setdefault((parent, one.steps[-1][0]), []).append(index)
        groups = []
        for (_, kind), indexes in by_parent.items():
            if len(indexes) > 1:
                steps = self.accessors[indexes[0]].steps
                fields = [path_list[i].rpartition(".")[2] for i in indexes]
                groups.append(
                    (
                        steps[:-1] if steps else (),
                        kind,
                        operator.attrgetter(*fields),
                        tuple(indexes),
                    )
                )
        self.groups: tuple[
            tuple[tuple[Step, ...], type[Any], Callable[[Any], Any], tuple[int, ...]], ...
        ] = tuple(groups)
        """Paths to fields of one parent: the steps to the parent, its class, one getter
        for all those fields and the paths' places in the list."""
        grouped = {index for group in groups for index in group[3]}
        self.alone = tuple(i for i in range(len(path_list)) if i not in grouped)
        """The places of the paths read one by one."""
        whole = len(groups) == 1 and groups[0][3] == tuple(range(len(path_list)))
        self.whole = self.groups[0] if whole else None
        """The one group, when its fields are all the paths in the list's order (a log's
        claims usually are: one player's values, or the round's): read in one take."""

    def __call__(self, state: Any) -> tuple[Any, ...]:
        """The value at each path, in order (a tuple: what one take of several fields
        gives); the first path naming nothing raises UnknownPath as ``paths.read`` does."""
        if self.whole is not None:
            steps, kind, take, _ = self.whole
            parent = _walk(steps, state) if steps else state
            if type(parent) is kind:
                values: tuple[Any, ...] = take(parent)
                return values
        found = [_UNREAD] * len(self.accessors)
        for steps, kind, take, indexes in self.groups:
            parent = _walk(steps, state)
            if type(parent) is not kind:  # not as declared: read every path on its own
                return tuple(one(state) for one in self.accessors)
            for index, value in zip(indexes, take(parent), strict=True):
                found[index] = value
        for index in self.alone:
            found[index] = self.accessors[index](state)
        return tuple(found)


def _accessor_or_reading(state_type: Any, path: str) -> Accessor:
    """The path's accessor; for a path that is no path, one that lets ``paths.read`` raise
    when the path's turn comes."""
    try:
        return accessor(state_type, path)
    except paths.UnknownPath:
        return Accessor(path, None)


@lru_cache(maxsize=1024)
def reader(state_type: type[Any], path_list: tuple[str, ...]) -> Reader:
    """The reader for ``path_list`` in states of ``state_type``."""
    return Reader(state_type, path_list)


@lru_cache(maxsize=4096)
def accessor(state_type: type[Any], path: str) -> Accessor:
    """The accessor for ``path`` in states of ``state_type``; an empty segment raises
    UnknownPath, as in ``paths.read``."""
    return Accessor(path, _steps(state_type, paths.split(path)))


def _steps(root: type[Any], segments: list[str]) -> tuple[Step, ...] | None:
    """One step per segment, following the declared field types from ``root``."""
    steps: list[Step] = []
    node_type: Any = root
    for segment in segments:
        step = _step(node_type, segment)
        if step is None:
            return None
        steps.append(step[0])
        node_type = step[1]
    return tuple(steps)


def _step(node_type: Any, segment: str) -> tuple[Step, Any] | None:
    """The step for ``segment`` on a node declared as ``node_type``, and the declared type
    of the node it leads to; None where the declaration does not say what the node is."""
    if isinstance(node_type, type) and attrs.has(node_type):
        if segment not in attrs.fields_dict(node_type):
            return None
        declared = _field_types(node_type).get(segment)
        return (node_type, operator.attrgetter(segment)), declared
    origin, args = typing.get_origin(node_type), typing.get_args(node_type)
    if origin is dict and len(args) == 2 and args[0] is str:
        return (dict, operator.itemgetter(segment)), args[1]
    if origin is tuple and segment.isascii() and segment.isdigit():
        # paths.read reads only the indexes 0..len-1: a missing one raises IndexError here
        element = args[0] if len(args) == 2 and args[1] is Ellipsis else None
        return (tuple, operator.itemgetter(int(segment))), element
    return None


@lru_cache(maxsize=256)
def _field_types(cls: type[Any]) -> dict[str, Any]:
    """The declared types of an attrs class's fields (empty where they cannot be resolved)."""
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):
        return {}
    return {name: hint for name, hint in hints.items() if not isinstance(hint, types.UnionType)}
