"""The toy's one option."""

from __future__ import annotations

import attrs


@attrs.frozen
class Options:
    goal: int = 10
