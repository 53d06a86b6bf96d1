"""The one configured cattrs converter, and the event and state conversions built on it.

Primitives are strict: a JSON string is never taken for an int, nor an int for a bool.
"""

from __future__ import annotations

import operator
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import attrs
import cattrs
from cattrs.cols import homogenous_tuple_structure_factory, list_structure_factory
from cattrs.gen import make_dict_structure_fn
from cattrs.v import format_exception

from reference.core import paths
from reference.core.errors import MalformedEvent
from reference.core.game import Game


def _strict(kind: type[Any]) -> Any:
    def structure(value: Any, _: Any) -> Any:
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__} {value!r}")
        return value

    return structure


def _make_converter(detailed: bool = True) -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=detailed)
    for kind in (int, str, bool):
        conv.register_structure_hook(kind, _strict(kind))
    conv.register_structure_hook(float, _strict_float)
    conv.register_structure_hook_factory(_is_array, _array_hook)
    conv.register_structure_hook_factory(attrs.has, _record_hook)
    return conv


_NOT_A_LIST = "expected a list"
_NOT_AN_OBJECT = "expected an object"


def _shown(value: Any) -> str:
    """A value's type and its first 80 characters, for a one-line message."""
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 80 else text[:77] + '...'}"


def _is_array(kind: Any) -> bool:
    """A list or a homogeneous tuple (``tuple[X, ...]``): what a JSON array structures to."""
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    return origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis)


def _array_hook(kind: Any, conv: cattrs.Converter) -> Callable[[Any, Any], Any]:
    """cattrs' own hook for ``kind``, taking only an array: by default cattrs takes any
    iterable, so a string became a tuple of its letters (``"path": "ab"`` read as
    ``["a", "b"]``) and an object a tuple of its keys, and a malformed record passed."""
    if typing.get_origin(kind) is tuple:
        inner = homogenous_tuple_structure_factory(kind, conv)
    else:
        inner = list_structure_factory(kind, conv)

    def structure(value: Any, kind_: Any) -> Any:
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{_NOT_A_LIST}, got {_shown(value)}")
        return inner(value, kind_)

    return structure


def _record_hook(kind: Any, conv: cattrs.Converter) -> Callable[[Any, Any], Any]:
    """cattrs' own hook for the attrs class ``kind``, taking only an object (a mapping):
    given a list or a string, cattrs' hook failed with "unknown error ('list' object has
    no attribute 'keys')"."""
    inner = make_dict_structure_fn(kind, conv)

    def structure(value: Any, kind_: Any) -> Any:
        if not isinstance(value, Mapping):
            raise TypeError(f"{_NOT_AN_OBJECT}, got {_shown(value)}")
        return inner(value, kind_)

    return structure


def _strict_float(value: Any, _: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a number, got {type(value).__name__} {value!r}")
    return float(value)


CONVERTER = _make_converter()


def describe(exc: BaseException) -> str:
    """One line saying what did not structure, with the field path."""
    if isinstance(exc, cattrs.BaseValidationError):
        try:
            return "; ".join(cattrs.transform_error(exc, format_exception=_worded))
        except (TypeError, ValueError):  # e.g. extra keys of mixed types cannot be sorted
            return "; ".join(_leaves(exc))
    return " ".join(str(exc).split())


def _worded(exc: BaseException, kind: Any) -> str:
    """cattrs' wording of one error, except the array and object hooks' own, which name
    the JSON type ("expected a list, got str 'ab'") where cattrs would name the Python one
    or say "unknown error"."""
    if isinstance(exc, TypeError) and str(exc).startswith((_NOT_A_LIST, _NOT_AN_OBJECT)):
        return str(exc)
    return format_exception(exc, kind)


def _leaves(exc: BaseException) -> list[str]:
    """The innermost errors of a cattrs error group, each in a few words."""
    if isinstance(exc, cattrs.BaseValidationError):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    extra = getattr(exc, "extra_fields", None)
    if extra is not None:
        return ["extra fields found (" + ", ".join(sorted(repr(k) for k in extra)) + ")"]
    return [f"{type(exc).__name__}: {' '.join(repr(exc).split())[:200]}"]


QUICK_CONVERTER = _make_converter(detailed=False)
"""The same structuring without cattrs' detailed errors: it stops at the first problem and
says little, so it only ever answers for a record it accepts; any record it refuses goes
through CONVERTER again, whose error the verdict shows. Both accept the same records."""


class _Plan:
    """Structures the usual records of one event class with plain type checks and one
    constructor call: every field of str, int, bool or a tuple of str or int, given with
    exactly the JSON type the strict hooks take (a list for a tuple, of elements of exactly
    the element type), and no other key than the fields, ``type`` and ``state``. It answers
    only for such a record, with what the quick cattrs function makes of it: the same
    values, passed the same way (fields without a default by position, the others by name
    when given) to the same constructor, with its converters and validators. For any other
    record, or if the constructor raises, it answers None and the cattrs functions take the
    record from the start (and word the error)."""

    __slots__ = ("cls", "count", "kinds", "lists", "optional", "take")

    def __init__(
        self, cls: type[Any], required: list[tuple[str, Any]], optional: list[tuple[str, Any]]
    ) -> None:
        self.cls = cls
        names = [name for name, _ in required]
        self.count = len(names)
        """How many fields have no default."""
        self.take: Callable[[Mapping[str, Any]], Any] | None = (
            operator.itemgetter(*names) if names else None
        )
        """Their values in order (one value alone for one field); a missing one raises
        KeyError."""
        self.kinds = tuple(list if type(kind) is _Elements else kind for _, kind in required)
        """The JSON type each of those must have."""
        self.lists = tuple(
            (index, kind.of) for index, (_, kind) in enumerate(required) if type(kind) is _Elements
        )
        """Where among those a list stands for a tuple, and its elements' type."""
        self.optional = tuple(optional)
        """The fields with a default: (name, kind), passed by name when given."""

    def structure(self, raw: Mapping[str, Any]) -> Any:
        """The event, or None when the plan does not answer for this record."""
        if self.take is None:
            values: Any = ()
        else:
            try:
                values = self.take(raw)
            except KeyError:
                return None
            if self.count == 1:
                values = (values,)
        if tuple(map(type, values)) != self.kinds:  # exact: a bool is no int, as the hook says
            return None
        if self.lists:
            values = list(values)
            for index, of in self.lists:
                values[index] = _elements(values[index], of)
                if values[index] is None:
                    return None
        # the keys a record may hold: ``type``, ``state`` and the fields; counted, not listed
        known = self.count + 2 if "state" in raw else self.count + 1
        given: dict[str, Any] = {}
        if self.optional:
            for name, kind in self.optional:
                if name in raw:
                    value = raw[name]
                    if type(kind) is _Elements:
                        value = _elements(value, kind.of)
                    elif type(value) is not kind:
                        value = None
                    if value is None:
                        return None
                    given[name] = value
            known += len(given)
        if len(raw) != known:  # a key that is none of those: cattrs refuses it
            return None
        try:
            return self.cls(*values, **given)
        except Exception:  # noqa: BLE001 - not an answer: cattrs runs it again and says what
            return None


def _elements(value: Any, of: type[Any]) -> tuple[Any, ...] | None:
    """A JSON list of elements of exactly type ``of`` as a tuple, else None."""
    if type(value) is not list:
        return None
    for element in value:
        if type(element) is not of:
            return None
    return tuple(value)


@attrs.frozen
class _Elements:
    """A plan's kind for a field declared ``tuple[of, ...]``."""

    of: type[Any]


_PLAIN_KINDS = (str, int, bool)


def _plan(cls: type[Any]) -> _Plan | None:
    """The plan for an event class, or None when a field is of a type a plan does not
    check (cattrs alone structures that class), is renamed in ``__init__`` or keyword-only,
    or is named like a key every record holds."""
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):
        return None
    required: list[tuple[str, Any]] = []
    optional: list[tuple[str, Any]] = []
    for field in attrs.fields(cls):
        if (
            not field.init
            or field.kw_only
            or field.alias != field.name
            or field.name in ("type", "state")
        ):
            return None
        declared = hints.get(field.name)
        if declared in _PLAIN_KINDS:
            kind: Any = declared
        elif typing.get_origin(declared) is tuple and typing.get_args(declared) in (
            (str, ...),
            (int, ...),
        ):
            kind = _Elements(typing.get_args(declared)[0])
        else:
            return None
        if field.default is attrs.NOTHING:
            if optional:  # a field without a default after one with: not an attrs class
                return None
            required.append((field.name, kind))
        else:
            optional.append((field.name, kind))
    return _Plan(cls, required, optional)


class EventStructurer:
    """Structures the log records of one game's events; built once per game (see
    ``event_structurer``), so no record pays for finding its class's structuring function.
    A usual record is structured by its class's plan (``_Plan``); the others, and every
    record the plan does not answer for, by cattrs, whose detailed pass words the errors."""

    __slots__ = ("game", "index")

    def __init__(self, game: str, event_types: tuple[type[Any], ...]) -> None:
        self.game = game
        self.index: dict[str, tuple[type[Any], Any, Any, _Plan | None]] = {
            cls.type: (
                cls,
                QUICK_CONVERTER.get_structure_hook(cls),
                CONVERTER.get_structure_hook(cls),
                _plan(cls),
            )
            for cls in event_types
        }
        """Wire name -> (event class, its quick and its detailed structuring function, its
        plan or None)."""

    def __call__(self, raw: Mapping[str, Any]) -> Any:
        """The event object for a log record (without its ``state`` claims)."""
        kind = raw.get("type")
        if not isinstance(kind, str):
            raise MalformedEvent("an event needs a string field 'type'", "type")
        entry = self.index.get(kind)
        if entry is None:
            known = ", ".join(sorted(self.index))
            raise MalformedEvent(f"unknown event type {kind!r} for {self.game} (known: {known})")
        cls, quick, detailed, plan = entry
        if plan is not None:
            event = plan.structure(raw)
            if event is not None:
                return event
        return self.by_cattrs(raw, kind, cls, quick, detailed)

    def by_cattrs(
        self, raw: Mapping[str, Any], kind: str, cls: Any, quick: Any, detailed: Any
    ) -> Any:
        """The event through cattrs: quick, and for a record it refuses, detailed."""
        fields = dict(raw)
        del fields["type"]
        fields.pop("state", None)
        try:
            return quick(fields, cls)
        except Exception:  # noqa: BLE001 - not an answer: the detailed pass says what it is
            pass
        try:
            return detailed(fields, cls)
        except (cattrs.BaseValidationError, TypeError, ValueError) as exc:
            raise MalformedEvent(f"bad {kind!r} event: {describe(exc)}") from exc


@cache
def event_structurer(game: str, event_types: tuple[type[Any], ...]) -> EventStructurer:
    """The structurer for a game's events, made once per game name and event classes."""
    return EventStructurer(game, event_types)


def structure_event(game: Game, raw: Mapping[str, Any]) -> Any:
    """The game's event object for a log record (without its ``state`` claims)."""
    return event_structurer(game.name, game.event_types)(raw)


def unstructure_event(event: Any) -> dict[str, Any]:
    """A log record for an event: ``type`` first, then its fields."""
    body: dict[str, Any] = CONVERTER.unstructure(event)
    return {"type": type(event).type, **body}


_PLAIN = (int, str, bool, float, type(None))


def to_json(value: Any) -> Any:
    """Any state value as JSON data (tuples become lists)."""
    if type(value) in _PLAIN:
        return value
    return CONVERTER.unstructure(value)


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON data that keeps bool apart from int (``true`` is not ``1``)."""
    if type(a) is type(b) and type(a) in (int, str):
        return bool(a == b)
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and bool(a == b)


def assign(game: Game, state: Any, values: Mapping[str, Any]) -> Any:
    """A copy of ``state`` with the given values set by path (structured and validated).

    The last segment may add a key to a mapping. Raises UnknownPath for a path that names
    nothing or overlaps another (``players.red`` and ``players.red.gold``), MalformedEvent
    for a value of the wrong type (a new key of the wrong kind too).
    """
    _no_overlap(list(values))
    for path in values:
        parts = paths.segments(path)
        parent = paths.read(state, ".".join(parts[:-1])) if len(parts) > 1 else state
        if not isinstance(parent, Mapping):  # a mapping may gain a new key; all else exists
            paths.read(state, path)
    tree = CONVERTER.unstructure(state)
    for path, value in values.items():
        node = tree
        parts = paths.segments(path)
        for seg in parts[:-1]:
            node = (
                node[_index(node, seg, path)] if isinstance(node, list) else node[_key(node, seg)]
            )
        last = parts[-1]
        if isinstance(node, list):
            node[_index(node, last, path)] = value
        else:
            node[_key(node, last)] = value
    try:
        return CONVERTER.structure(tree, game.state_type)
    except (cattrs.BaseValidationError, TypeError, ValueError, AttributeError) as exc:
        raise MalformedEvent(f"given state does not fit: {describe(exc)}") from exc


def _no_overlap(given: list[str]) -> None:
    """Two paths where one lies inside the other set the same value twice: refused."""
    seen = {paths.segments(path) for path in given}
    for parts in seen:
        for cut in range(1, len(parts)):
            if parts[:cut] in seen:
                outer = ".".join(parts[:cut])
                raise paths.UnknownPath(".".join(parts), f"overlaps {outer!r}, also given")


def _index(node: list[Any], seg: str, path: str) -> int:
    """The list index ``seg`` names (``read`` has checked it exists)."""
    index = paths.as_index(seg)
    if index is None or index >= len(node):
        raise paths.UnknownPath(path, f"no index {seg!r}")
    return index


def _key(node: dict[Any, Any], seg: str) -> Any:
    """The key ``seg`` names: as text, else as a number; a new key is text."""
    if seg in node:
        return seg
    key = paths.as_int_key(seg)
    return key if key is not None and key in node else seg


def state_fields(state: Any) -> list[str]:
    """The names of a state's attrs fields (used to list scalar paths)."""
    return [f.name for f in attrs.fields(type(state))]
