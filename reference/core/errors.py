"""The three kinds of failure, kept apart.

- ``MalformedEvent`` / ``BadOptions``: the input cannot be read as an event or a setup
  (unknown type, missing or mistyped field, unknown option). The user's file is at fault,
  but no rule was judged.
- ``RuleViolation``: the event is well formed but the rules forbid it here. Carries the
  catalogue ``rule_id`` as a field.
- ``EngineInvariantError``: the reference engine reached a state its own invariants forbid.
  This is *our* bug and is never reported as the user's rule violation.
"""

from __future__ import annotations


class OracleError(Exception):
    """Base of every error the oracle raises on purpose."""


class MalformedEvent(OracleError):
    """Raised when an event (or any input record) cannot be structured: no rule was judged."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class BadOptions(OracleError):
    """Raised when a game's options, players or data profile are not acceptable."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RuleViolation(OracleError):
    """Raised by ``apply`` when a well-formed event breaks a rule; ``rule_id`` names it."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id
        self.message = message


class EngineInvariantError(OracleError):
    """Raised when the reference engine's own invariants fail: a bug in rules-oracle."""

    def __init__(self, failures: list[str]) -> None:
        super().__init__("; ".join(failures))
        self.failures = failures
