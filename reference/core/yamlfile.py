"""Safe YAML loading for untrusted files, with libyaml's C parser where PyYAML has it.

Only the JSON subset of YAML is read: mappings, sequences, text, integers, finite floats,
booleans and null. Explicit tags (``!!timestamp``, ``!!binary``, ``!foo``) and merge keys
(``<<``) are refused; a date-like scalar stays text. Anchors and aliases are allowed, but
the document they expand to is bounded (``MAX_NODES`` nodes, ``MAX_DEPTH`` levels) and
measured *before* anything is built, so a few hundred bytes of aliases cannot expand to
gigabytes; a circular alias is refused. A key given twice in one mapping is an error (plain
PyYAML keeps the last value and silently loses the other).

Every refusal is a ``yaml.YAMLError`` (a ``MarkedYAMLError`` with the line where one
applies), so a caller catches one kind of error for any bad file.
"""

from __future__ import annotations

import math
from typing import Any

import yaml
from yaml.constructor import ConstructorError

_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_DEPTH = 64
"""Nesting levels of a document (the top mapping is level 1)."""
MAX_NODES = 200_000
"""Nodes of a document, each alias counted as the nodes it expands to."""

_STR = "tag:yaml.org,2002:str"
_PLAIN_TAGS = frozenset(
    {
        _STR,
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:null",
        "tag:yaml.org,2002:seq",
        "tag:yaml.org,2002:map",
    }
)
_NOT_IMPLICIT = frozenset({"tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:value"})


class StrictLoader(_BASE):  # type: ignore[misc]
    """The safe loader (the C one when available), refusing duplicate mapping keys,
    non-finite floats, and resolving no dates (they stay text)."""

    yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag not in _NOT_IMPLICIT]
        for first, resolvers in _BASE.yaml_implicit_resolvers.items()
    }

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """A mapping, or a ConstructorError naming the repeated key and its line."""
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, (str, int, float, bool)) and key in seen:
                raise ConstructorError(
                    "while reading a mapping",
                    node.start_mark,
                    f"key {_short(key)} appears twice",
                    key_node.start_mark,
                )
            if isinstance(key, (str, int, float, bool)):
                seen.add(key)
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        return mapping

    def construct_yaml_float(self, node: yaml.ScalarNode) -> float:
        """A finite float; ``.inf`` and ``.nan`` are not JSON numbers."""
        value: float = super().construct_yaml_float(node)
        if not math.isfinite(value):
            raise ConstructorError(None, None, f"{node.value!r} is not a number", node.start_mark)
        return value


StrictLoader.add_constructor("tag:yaml.org,2002:float", StrictLoader.construct_yaml_float)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:80] + "..."


def _refuse(node: yaml.Node, problem: str) -> ConstructorError:
    return ConstructorError(None, None, problem, node.start_mark)


def _measure(
    node: yaml.Node, depth: int, open_: set[int], known: dict[int, tuple[int, int]]
) -> tuple[int, int]:
    """(nodes, height) of ``node`` expanded; raises on a bad tag, a cycle or a bound."""
    seen = known.get(id(node))
    if seen is not None:
        if depth + seen[1] - 1 > MAX_DEPTH:
            raise _refuse(node, f"nested deeper than {MAX_DEPTH} levels")
        return seen
    if depth > MAX_DEPTH:
        raise _refuse(node, f"nested deeper than {MAX_DEPTH} levels")
    if id(node) in open_:
        raise _refuse(node, "an alias refers to a value that contains it (a cycle)")
    if node.tag not in _PLAIN_TAGS:
        what = "merge keys (<<)" if node.tag.endswith(":merge") else f"the tag {node.tag!r}"
        raise _refuse(node, f"{what}: only plain JSON values are read (quote text)")
    if isinstance(node, yaml.ScalarNode):
        known[id(node)] = (1, 1)
        return 1, 1
    children: list[yaml.Node] = (
        [part for pair in node.value for part in pair]
        if isinstance(node, yaml.MappingNode)
        else list(node.value)
    )
    open_.add(id(node))
    total, height = 1, 1
    for child in children:
        size, below = _measure(child, depth + 1, open_, known)
        total += size
        height = max(height, below + 1)
        if total > MAX_NODES:
            raise _refuse(node, f"more than {MAX_NODES} values (aliases count as expanded)")
    open_.discard(id(node))
    known[id(node)] = (total, height)
    return total, height


def _checked_node(loader: Any) -> yaml.Node | None:
    try:
        node: yaml.Node | None = loader.get_single_node()
    except RecursionError as exc:
        raise yaml.YAMLError(f"nested deeper than {MAX_DEPTH} levels") from exc
    if node is not None:
        _measure(node, 1, set(), {})
    return node


def load(text: str) -> Any:
    """Load one YAML document of plain JSON values; any refusal is a yaml.YAMLError."""
    loader = StrictLoader(text)
    try:
        node = _checked_node(loader)
        return None if node is None else loader.construct_document(node)
    except (ValueError, RecursionError) as exc:  # e.g. an integer of 10,000 digits
        raise yaml.YAMLError(f"unusable value: {' '.join(str(exc).split())[:200]}") from exc
    finally:
        loader.dispose()


def compose(text: str) -> yaml.Node | None:
    """The node tree of one YAML document (it keeps line numbers), checked as ``load``."""
    loader = StrictLoader(text)
    try:
        return _checked_node(loader)
    finally:
        loader.dispose()
