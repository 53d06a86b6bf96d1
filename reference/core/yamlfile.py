"""Safe YAML loading, with libyaml's C parser where PyYAML was built with it.

A key given twice in one mapping is an error here (plain PyYAML keeps the last value and
silently loses the other).
"""

from __future__ import annotations

from typing import Any

import yaml

_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class StrictLoader(_BASE):  # type: ignore[misc]
    """The safe loader (the C one when available), refusing duplicate mapping keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """A mapping, or a ConstructorError naming the repeated key and its line."""
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, (str, int, float, bool)) and key in seen:
                raise yaml.constructor.ConstructorError(
                    "while reading a mapping",
                    node.start_mark,
                    f"key {key!r} appears twice",
                    key_node.start_mark,
                )
            if isinstance(key, (str, int, float, bool)):
                seen.add(key)
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        return mapping


def load(text: str) -> Any:
    """Safe-load one YAML document."""
    return yaml.load(text, Loader=StrictLoader)  # noqa: S506 - a safe loader


def compose(text: str) -> yaml.Node | None:
    """The node tree of one YAML document (it keeps line numbers)."""
    node: yaml.Node | None = yaml.compose(text, Loader=StrictLoader)
    return node
