"""The public errors: the three kinds of failure, kept apart.

- ``Malformed`` / ``BadOptions``: the input names nothing or does not fit (no rule judged);
- ``Illegal``: a well-formed event the rules forbid here, with the rule that forbids it;
- ``InternalError``: the reference engine broke its own invariants (our bug, never yours).
"""

from __future__ import annotations

from oracle.errors import Illegal as Illegal
from reference.core.errors import BadOptions as BadOptions
from reference.core.errors import EngineInvariantError
from reference.core.errors import MalformedEvent as Malformed
from reference.core.errors import OracleError as Error
from reference.core.paths import UnknownPath as UnknownPath

InternalError = EngineInvariantError
"""The reference engine reached a state its own invariants forbid: please report it."""

UsageError = BadOptions
"""Another name for ``BadOptions``: a game, its options, players or profile are unusable."""


__all__ = [
    "BadOptions",
    "Error",
    "Illegal",
    "InternalError",
    "Malformed",
    "UnknownPath",
    "UsageError",
]
