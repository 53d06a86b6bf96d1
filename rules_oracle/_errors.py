"""The public errors: the three kinds of failure, kept apart.

- ``Malformed`` / ``BadOptions``: the input names nothing or does not fit (no rule judged);
- ``Illegal``: a well-formed event the rules forbid here, with the rule that forbids it;
- ``InternalError``: the reference engine broke its own invariants (our bug, never yours).
"""

from __future__ import annotations

from reference.core.errors import BadOptions as BadOptions
from reference.core.errors import EngineInvariantError, RuleViolation
from reference.core.errors import MalformedEvent as Malformed
from reference.core.errors import OracleError as Error
from reference.core.paths import UnknownPath as UnknownPath

InternalError = EngineInvariantError
"""The reference engine reached a state its own invariants forbid: please report it."""

UsageError = BadOptions
"""Another name for ``BadOptions``: a game, its options, players or profile are unusable."""


class Illegal(RuleViolation):
    """A well-formed event the rules forbid here.

    ``rule_id`` names the catalogue rule; ``rule_title``, ``status`` (rulebook, seed,
    secondary, ruling, placeholder) and ``citation`` (its sources on one line) come from
    the catalogue.
    """

    def __init__(
        self, rule_id: str, message: str, rule_title: str, status: str, citation: str
    ) -> None:
        super().__init__(rule_id, message)
        self.rule_title = rule_title
        self.status = status
        self.citation = citation


__all__ = [
    "BadOptions",
    "Error",
    "Illegal",
    "InternalError",
    "Malformed",
    "UnknownPath",
    "UsageError",
]
