"""The error the oracle adds to the engines' own (reference.core.errors): a rule violation
told with its catalogue entry, as the public API raises it."""

from __future__ import annotations

from reference.core.errors import RuleViolation


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
