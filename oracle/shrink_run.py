"""Shrinking a run's findings within one time budget (``--shrink-seconds``, for the run).

The first finding of each signature (kind, with its path or rule) is shrunk first, the
repeats of a signature after every signature has had its turn, so a run with the same bug in
every game spends its budget on one case of each bug before it polishes the others. Each
finding gets an equal share of what is left of the budget when its turn comes (what one does
not use goes to those after it). A finding is shrunk by its position when the engine has
``set_state`` (oracle.shrink_position), else, or if no position shows it, by its prefix
(oracle.shrink; play-out findings only: an engine game's events are the engine's).
"""

from __future__ import annotations

import time

import attrs

from oracle.findings import Finding
from oracle.shrink import Replays, shrink_prefix
from oracle.shrink_position import shrink_position

PREFIX_PARTS = frozenset({"playout", "probes"})


class ShrinkBudget:
    """The seconds left for shrinking in one run, and the signatures no written position
    showed (their repeats are not tried by position again: the same bug, the same history)."""

    def __init__(self, seconds: float) -> None:
        self.left = max(0.0, seconds)
        self.no_position: set[tuple[str, str | None, str | None]] = set()

    def share(self, findings_left: int) -> float:
        """The seconds the next of ``findings_left`` findings may take."""
        return self.left / max(1, findings_left)

    def spend(self, seconds: float) -> None:
        self.left = max(0.0, self.left - seconds)


def shrink_order(findings: list[Finding]) -> list[int]:
    """Indexes into ``findings`` in the order to shrink them: the first of each signature
    (in the order found), then the rest (in the order found)."""
    seen: set[tuple[str, str | None, str | None]] = set()
    first: list[int] = []
    rest: list[int] = []
    for i, finding in enumerate(findings):
        key = finding.signature()
        (rest if key in seen else first).append(i)
        seen.add(key)
    return first + rest


def shrink(run: Replays, finding: Finding, budget: ShrinkBudget, seconds: float) -> Finding:
    """The finding shrunk within ``seconds``: by position if it can be, else by prefix."""
    if seconds <= 0:
        return attrs.evolve(finding, shrink="not shrunk: the shrink budget is spent")
    started = time.monotonic()
    if "set_state" in run.capabilities and finding.signature() not in budget.no_position:
        smaller = shrink_position(run, finding, seconds)
        if smaller is not None:
            return smaller
        budget.no_position.add(finding.signature())
    left = seconds - (time.monotonic() - started)
    if finding.part in PREFIX_PARTS and finding.players and left > 0:
        return shrink_prefix(run, finding, left)
    return finding
