"""Every leaf state path of a position, so a whole position can be compared path by path.

The walk goes into objects (attrs objects and mappings, in their JSON form); anything else is a
leaf, compared whole: a number, text, flag, null, a list (its length and items together), or an
empty object. ``players.red.gold`` and ``market.deck`` are leaf paths; ``players.red`` is not.
"""

from __future__ import annotations

from typing import Any


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
