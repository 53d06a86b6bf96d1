"""Safe YAML loading, with libyaml's C parser where PyYAML was built with it."""

from __future__ import annotations

from typing import Any

import yaml

LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""The safe loader: the C one when available (about 10x faster), never the unsafe ones."""


def load(text: str) -> Any:
    """Safe-load one YAML document."""
    return yaml.load(text, Loader=LOADER)  # noqa: S506 - LOADER is a safe loader


def compose(text: str) -> yaml.Node | None:
    """The node tree of one YAML document (it keeps line numbers)."""
    node: yaml.Node | None = yaml.compose(text, Loader=LOADER)
    return node
