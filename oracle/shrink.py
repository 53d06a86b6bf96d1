"""Shrinking a play-out disagreement to a minimal game prefix.

A play-out is a list of choice indices: each decision plays ``legal[i % len(legal)]`` of
our engine's legal events, so any list of indices is a game (a prefix of one). Shrinking
deletes chunks of that list (delta debugging, as in Zeller's ddmin) and keeps a candidate when
replaying it, with the engine under test, still shows the same kind of disagreement; the
replay stops at the first disagreement, so every kept candidate is also truncated to it.

Why not ``hypothesis.find``: it cannot start from the failing game we already hold, and a
random search from scratch rarely reaches a disagreement that shows at event 300; ddmin
starts from it, is deterministic, and needs no Hypothesis at run time. The number of replays
is bounded by a time budget (``--shrink-seconds``); a hang is never shrunk (each replay
would cost a timeout), nor a disagreement that shows only at the game's end.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from oracle.conform import Conformance, Finding
    from oracle.refengine import LocalEngine

Test = Callable[[list[int]], "Finding | None"]


def ddmin(choices: list[int], test: Test, deadline: float) -> Finding | None:
    """The smallest failing candidate found: its finding (None if nothing smaller failed)."""
    best, found = list(choices), None
    n = 2
    while best and time.monotonic() < deadline:
        chunk = max(1, len(best) // n)
        improved = False
        for start in range(0, len(best), chunk):
            if time.monotonic() >= deadline:
                break
            finding = test(best[:start] + best[start + chunk :])
            if finding is not None:
                best, found, improved = list(finding.choices), finding, True
                break
        if improved:
            n = max(n - 1, 2)
        elif chunk == 1:
            break
        else:
            n = min(n * 2, len(best))
    return found


def replay_chooser(choices: list[int]) -> Callable[[LocalEngine, int], int | None]:
    """Plays ``choices`` in order, then stops."""

    def choose(_: LocalEngine, index: int) -> int | None:
        return choices[index] if index < len(choices) else None

    return choose


AT_THE_END = frozenset({"no_end", "result"})
"""Kinds that show only once the game is over: a game's end comes no sooner by deleting
choices, so they are not shrunk (each replay would play a whole game for nothing)."""


def shrink_finding(run: Conformance, finding: Finding) -> Finding:
    """The finding reproduced on the shortest prefix found within the time budget."""
    if finding.kind in AT_THE_END:
        return attrs.evolve(finding, shrunk_from=len(finding.events))
    final_probe = (
        finding.probe if finding.kind in ("accepted_illegal", "changed_by_refusal") else None
    )
    players = finding.players

    def test(candidate: list[int]) -> Finding | None:
        run.report.counts.shrink_runs += 1
        again = run.play(players, replay_chooser(candidate), None, None, None, final_probe)
        return again if again is not None and finding.same_kind(again) else None

    deadline = time.monotonic() + run.settings.shrink_seconds
    counts = run.report.counts
    before = attrs.evolve(counts)
    smaller = ddmin(list(finding.choices), test, deadline)
    before.shrink_runs = counts.shrink_runs
    run.report.counts = before  # the replays are not part of the run's own counts
    if smaller is None:
        return attrs.evolve(finding, shrunk_from=len(finding.events))
    return attrs.evolve(
        smaller,
        part=finding.part,
        game_no=finding.game_no,
        seed=finding.seed,
        shrunk_from=len(finding.events),
    )
