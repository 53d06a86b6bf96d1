"""Every leaf state path of a position, so a whole position can be compared path by path.

The walk goes into objects (attrs objects and mappings, in their JSON form); anything else is a
leaf, compared whole: a number, text, flag, null, a list (its length and items together), or an
empty object. ``players.red.gold`` and ``market.deck`` are leaf paths; ``players.red`` is not.

``LeafCache`` gives the same leaves for a run of positions without re-walking what did not
change: a position shares every unchanged part with the one it was made from (``evolve``
copies an unchanged field by reference), so the leaves under a part are kept with that part
and reused while the very same object stands at the same path.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from itertools import repeat
from json.encoder import encode_basestring_ascii
from operator import is_
from typing import Any

import attrs


def leaves(tree: Any, prefix: str = "") -> dict[str, Any]:
    """Leaf path -> value of a JSON tree (a state in its JSON form), in walk order.

    A key holding a dot cannot be written as a path segment; such a subtree is left out.
    """
    if not (isinstance(tree, dict) and tree):
        return {prefix: tree} if prefix else {}
    out: dict[str, Any] = {}
    _walk(tree, prefix + "." if prefix else "", out)
    return out


def _walk(node: dict[Any, Any], prefix: str, out: dict[str, Any]) -> None:
    for key, value in node.items():
        segment = str(key)
        if "." in segment or not segment:
            continue
        if type(value) is dict and value:
            _walk(value, prefix + segment + ".", out)
        else:
            out[prefix + segment] = value


def _segment_ok(key: Any) -> bool:
    return type(key) is str and "." not in key and key != ""


_PLAIN, _MAPPING, _OBJECT, _OTHER = range(4)
"""How the walk treats a value, by its type: a plain leaf (its own JSON form), a mapping or
an attrs object (walked into), anything else (a leaf in its JSON form, e.g. a tuple)."""


def _kind(cls: type) -> int:
    if cls in (int, str, bool, type(None)):
        return _PLAIN
    if issubclass(cls, Mapping):
        return _MAPPING
    return _OBJECT if attrs.has(cls) else _OTHER


def _plain_json(value: Any) -> str:
    """``json.dumps`` of an int, a text, a flag or null, without its Python-level wrapper."""
    if type(value) is str:
        return encode_basestring_ascii(value)
    if value is True:
        return "true"
    if value is False:
        return "false"
    return "null" if value is None else int.__repr__(value)


_Chunk = tuple[dict[str, Any], str]
"""The leaves under one field or key, and their JSON text (``"path": value, ...``)."""


class _Part:
    """The walk of one attrs object or mapping at one path: a chunk per field or key
    (None for a key that cannot be written as a path segment), their leaves and text."""

    __slots__ = ("chunks", "leaves", "part", "segments", "text", "values")

    def __init__(
        self,
        part: Any,
        segments: tuple[str, ...],
        values: tuple[Any, ...],
        chunks: list[_Chunk | None],
        gathered: dict[str, Any] | None = None,
    ) -> None:
        self.part = part
        self.segments = segments
        self.values = values
        self.chunks = chunks
        if gathered is None:
            gathered = {}
            for chunk in chunks:
                if chunk is not None:
                    gathered.update(chunk[0])
        self.leaves = gathered
        self.text = ", ".join([chunk[1] for chunk in chunks if chunk is not None and chunk[1]])


class LeafCache:
    """``leaves(to_json(state))`` and its JSON text for successive positions, re-walking and
    re-encoding only what changed.

    A position shares every unchanged part with the one it was made from (``evolve`` copies
    an unchanged field by reference). So the walk keeps, for each attrs object and mapping
    it went into, the leaves and JSON text under each of its fields or keys, with a
    reference to the value found there (so its id cannot be reused by another object); the
    next position's walk reuses them wherever the very same value (``is``) stands at the same
    path. This rests on positions never being changed in place, which the engines promise
    (frozen attrs, ``evolve``) and the tests check against the full walk along play-outs of
    every game.

    An attrs class whose JSON form is not simply its fields by name (a cattrs hook that
    renames, omits or changes a field: checked on its first object), or a mapping with a key
    that is not text, is a value here: turned into JSON whole and walked as ``leaves`` would.
    """

    def __init__(self, to_json: Callable[[Any], Any]) -> None:
        self._to_json = to_json
        self._parts: dict[str, _Part] = {}
        self._fields: dict[type, tuple[str, ...] | None] = {}
        self._kinds: dict[type, int] = {}

    def walk(self, state: Any) -> tuple[dict[str, Any], str]:
        """Leaf path -> JSON value of ``state``, as ``leaves(to_json(state))``, and that
        dict's JSON text, as ``json.dumps`` writes it. Shared with the cache: do not change."""
        kind = self._kind(state)
        part = self._part(state, "", kind) if kind in (_MAPPING, _OBJECT) else None
        if part is None:
            found = leaves(self._to_json(state))
            return found, json.dumps(found)
        return part.leaves, "{" + part.text + "}"

    def leaves(self, state: Any) -> dict[str, Any]:
        """Leaf path -> JSON value of ``state`` (see ``walk``)."""
        return self.walk(state)[0]

    def _kind(self, value: Any) -> int:
        cls = type(value)
        kind = self._kinds.get(cls)
        if kind is None:
            kind = self._kinds[cls] = _kind(cls)
        return kind

    def _part(self, part: Any, prefix: str, kind: int) -> _Part | None:
        """The walk of an attrs object or a mapping standing at ``prefix`` (``""`` or a path
        ending in a dot); None when ``part`` is to be walked in its JSON form (empty, or not
        plainly its fields or text keys)."""
        before = self._parts.get(prefix)
        if before is not None and before.part is part:
            return before
        children = self._children(part, kind)
        if children is None or not children[0]:
            return None
        segments, values = children
        if before is not None and before.segments == segments:
            made = self._changed(part, prefix, before, values)
        else:
            made = self._fresh(part, prefix, before, segments, values)
        self._parts[prefix] = made
        return made

    def _changed(self, part: Any, prefix: str, before: _Part, values: tuple[Any, ...]) -> _Part:
        """``before``'s walk, made again only for the values that are not the same objects."""
        chunks = list(before.chunks)
        gathered: dict[str, Any] | None = dict(before.leaves)
        for i, same in enumerate(map(is_, values, before.values)):
            old = chunks[i]
            if same or old is None:
                continue
            chunk = chunks[i] = self._chunk(values[i], prefix + before.segments[i])
            if gathered is None:
                continue
            if list(chunk[0]) == list(old[0]):
                gathered.update(chunk[0])  # the same paths: their places stay
            else:
                gathered = None  # other paths here: the leaves are gathered afresh
        return _Part(part, before.segments, values, chunks, gathered)

    def _fresh(
        self,
        part: Any,
        prefix: str,
        before: _Part | None,
        segments: tuple[str, ...],
        values: tuple[Any, ...],
    ) -> _Part:
        """The walk of a part whose fields or keys are not those of ``before``; a value that
        ``before`` had under the same segment keeps its chunk."""
        old: dict[str, tuple[Any, _Chunk | None]] = {}
        if before is not None:
            pairs = zip(before.values, before.chunks, strict=True)
            old = dict(zip(before.segments, pairs, strict=True))
        chunks: list[_Chunk | None] = []
        for segment, value in zip(segments, values, strict=True):
            kept = old.get(segment)
            if kept is not None and kept[0] is value and kept[1] is not None:
                chunks.append(kept[1])
            elif _segment_ok(segment):
                chunks.append(self._chunk(value, prefix + segment))
            else:
                chunks.append(None)  # a key that cannot be written as a path segment
        return _Part(part, segments, values, chunks)

    def _chunk(self, value: Any, path: str) -> _Chunk:
        """The leaves under ``value`` standing at ``path``, and their JSON text."""
        kind = self._kind(value)
        if kind == _PLAIN:
            return {path: value}, encode_basestring_ascii(path) + ": " + _plain_json(value)
        if kind != _OTHER:
            part = self._part(value, path + ".", kind)
            if part is not None:
                return part.leaves, part.text
        tree = self._to_json(value)
        found = leaves(tree, path) if type(tree) is dict and tree else {path: tree}
        return found, json.dumps(found)[1:-1]

    def _children(self, part: Any, kind: int) -> tuple[tuple[str, ...], tuple[Any, ...]] | None:
        """The segments and values of an attrs object's fields or a mapping's items, in the
        order of their JSON form; None when that form is not plainly these parts."""
        if kind == _MAPPING:
            if not all(type(key) is str for key in part):
                return None
            return tuple(part), tuple(part.values())
        names = self._names(part)
        if names is None:
            return None
        return names, tuple(map(getattr, repeat(part), names))

    def _names(self, part: Any) -> tuple[str, ...] | None:
        """The field names of an attrs object's class, if its JSON form is its fields by
        name with their own JSON forms (checked on the first object of the class)."""
        cls = type(part)
        if cls not in self._fields:
            names = tuple(f.name for f in attrs.fields(cls))
            plain = _same(
                self._to_json(part), {name: self._to_json(getattr(part, name)) for name in names}
            )
            self._fields[cls] = names if plain else None
        return self._fields[cls]


def _same(a: Any, b: Any) -> bool:
    """Equal JSON data, written the same (so ``true`` is never taken for ``1``)."""
    return bool(a == b) and json.dumps(a) == json.dumps(b)
