"""Shrinking a play-out disagreement to a minimal game prefix (for an engine without
``set_state``; oracle.shrink_position shrinks by position, oracle.shrink_run chooses).

A play-out is a list of choice indices: each decision plays ``legal[i % len(legal)]`` of
our engine's legal events, so any list of indices is a game (a prefix of one). Shrinking
deletes chunks of that list (delta debugging, as in Zeller's ddmin) and keeps a candidate when
replaying it, with the engine under test, still shows the same kind of disagreement; the
replay stops at the first disagreement, so every kept candidate is also truncated to it.

Why not ``hypothesis.find``: it cannot start from the failing game we already hold, and a
random search from scratch rarely reaches a disagreement that shows at event 300; ddmin
starts from it, is deterministic, and needs no Hypothesis at run time. The number of replays
is bounded by the finding's share of the run's time budget (``--shrink-seconds``).

Two kinds of finding need more than that:
  hang    every replay that still hangs costs one whole timeout (a hang cannot be told from
          a slow answer any sooner), so besides the budget at most ``hang_replays`` replays
          may hang; replays that do not hang cost what a play-out costs;
  at the end (``no_end``, ``result``, shown only once the game is over) a candidate is played
          to the game's end: its choices, then the first legal event at every decision, and
          it is given up as soon as it is no shorter than the shortest game that showed the
          finding so far, so a kept candidate is always a shorter complete game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import attrs

from oracle.findings import Finding, Report, Settings
from oracle.games import GameCache
from oracle.probes import Pool
from oracle.refengine import LocalEngine
from oracle.scenarios import canonical
from oracle.starts import Start

T = TypeVar("T")

Test = Callable[[list[int]], "Finding | None"]
Chooser = Callable[[LocalEngine, int], int | None]
"""The choice index for the next event (into our legal list), or None to stop."""
Prober = Callable[[LocalEngine, Pool, random.Random], list[dict[str, Any]]]
"""The events ours refuses to send to the engine under test at this position (none: no
probes here), drawn with the generator given; ``Pool`` holds the field values seen so far."""


class Replays(Protocol):
    """What shrinking needs of a conform run: its settings, its report, the engine under
    test's capabilities, our rule sets, and a game of given choices on both engines."""

    settings: Settings
    report: Report
    games: GameCache

    @property
    def capabilities(self) -> frozenset[str]: ...

    def play(
        self,
        start: Start,
        chooser: Chooser,
        probe_rng: random.Random | None = None,
        final_probe: dict[str, Any] | None = None,
        prober: Prober | None = None,
    ) -> Finding | None: ...


def ddmin(choices: list[int], test: Test, over: Callable[[], bool]) -> Finding | None:
    """The smallest failing candidate found: its finding (None if nothing smaller failed).
    ``over`` says when to stop trying (the budget is spent)."""
    best, found = list(choices), None
    n = 2
    while best and not over():
        chunk = max(1, len(best) // n)
        improved = False
        for start in range(0, len(best), chunk):
            if over():
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


def reduce_items(
    items: list[T], test: Callable[[list[T]], bool], over: Callable[[], bool]
) -> list[T]:
    """The smallest sublist of ``items`` (order kept) that still passes ``test`` (ddmin: chunks
    removed, halves first, down to single items), ``items`` if nothing smaller passes.
    ``test(items)`` is taken to pass. Stops early once ``over()``. Nothing at all is tried
    first (ddmin's halves never try it, and a finding that needs none of the items is
    common)."""
    if items and not over() and test([]):
        return []
    best = list(items)
    n = 2
    while len(best) > 0 and not over():
        chunk = max(1, len(best) // n)
        improved = False
        for start in range(0, len(best), chunk):
            if over():
                break
            candidate = best[:start] + best[start + chunk :]
            if test(candidate):
                best, improved = candidate, True
                break
        if improved:
            n = max(n - 1, 2)
        elif chunk == 1:
            break
        else:
            n = min(n * 2, len(best))
    return best


def events_chooser(events: list[dict[str, Any]]) -> Chooser:
    """Plays these very events in order (each must be one of our legal events there), then
    stops; stops at once at an event ours does not list."""
    wanted = [canonical(e) for e in events]

    def choose(ref: LocalEngine, index: int) -> int | None:
        if index >= len(wanted):
            return None
        listed = [canonical(e) for e in ref.legal()]
        return listed.index(wanted[index]) if wanted[index] in listed else None

    return choose


def replay_chooser(choices: list[int]) -> Callable[[LocalEngine, int], int | None]:
    """Plays ``choices`` in order, then stops."""

    def choose(_: LocalEngine, index: int) -> int | None:
        return choices[index] if index < len(choices) else None

    return choose


def completing_chooser(
    choices: list[int], then: int, limit: int
) -> Callable[[LocalEngine, int], int | None]:
    """Plays ``choices`` in order, then ``legal[then % len(legal)]`` at every decision; stops
    once ``limit`` events are played (the game is then not over: the candidate shows
    nothing)."""

    def choose(_: LocalEngine, index: int) -> int | None:
        if index >= limit:
            return None
        return choices[index] if index < len(choices) else then

    return choose


COMPLETIONS = (-1, 0)
"""How a candidate at the end is played on after its choices: the last legal event at every
decision, or the first. Each is tried alone first (a whole game of it), and the shorter game
that shows the finding is shrunk further with its completion: which one ends a game sooner
depends on the game (Palmyra: the last, in half as many events as a random game;
Milestones: the first)."""


AT_THE_END = frozenset({"no_end", "result"})
"""Kinds that show only once the game is over: each candidate is played to the game's end."""

MAX_HANG_REPLAYS = 8
"""At most this many replays of a hang may hang, and no more than fit the time budget at one
timeout each (at least one). ddmin keeps a candidate only when it still hangs, and with the
halves it tries first one such replay can halve the prefix, so a handful goes a long way; the
shrink of a hang then lasts at most ``--shrink-seconds`` plus one timeout (the replay started
last) plus the replays that did not hang and the engine's restarts."""


def hang_replays(timeout: float, budget: float) -> int:
    """How many replays of a hang may hang within ``budget`` seconds."""
    return max(1, min(MAX_HANG_REPLAYS, int(budget // timeout) if timeout > 0 else 1))


PROBED = frozenset({"accepted_illegal", "changed_by_refusal"})
"""Kinds shown by an event sent after the game's events (a probe, or the engine's own)."""


def shrink_prefix(run: Replays, finding: Finding, seconds: float) -> Finding:
    """The finding reproduced on the shortest prefix found within ``seconds``."""
    final_probe = finding.probe if finding.kind in PROBED else None
    options = finding.options if finding.options is not None else run.settings.options
    begin = Start(finding.players, options, finding.given)
    at_the_end = finding.kind in AT_THE_END
    shortest = [len(finding.events)]  # the shortest complete game so far (at the end)
    completion = [0]
    hangs_left = [hang_replays(run.settings.timeout, seconds)]

    def test(candidate: list[int]) -> Finding | None:
        run.report.counts.shrink_runs += 1
        if at_the_end:
            chooser = completing_chooser(candidate, completion[0], shortest[0] - 1)
        else:
            chooser = replay_chooser(candidate)
        again = run.play(begin, chooser, None, final_probe)
        if again is not None and again.kind == "hang":
            hangs_left[0] -= 1
        if again is None or not finding.same_kind(again):
            return None
        shortest[0] = min(shortest[0], len(again.events))
        return again

    deadline = time.monotonic() + seconds

    def over() -> bool:
        return time.monotonic() >= deadline or hangs_left[0] <= 0

    start, smaller = list(finding.choices), None
    if at_the_end:
        chosen = COMPLETIONS[-1]
        for then in COMPLETIONS:
            if over():
                break
            completion[0] = then
            whole = test([])
            if whole is not None:  # shorter than every game before it: the one to shrink
                start, smaller, chosen = list(whole.choices), whole, then
        completion[0] = chosen
    smaller = ddmin(start, test, over) or smaller
    if smaller is None:
        return attrs.evolve(finding, shrunk_from=len(finding.events), shrink="prefix")
    return attrs.evolve(
        smaller,
        part=finding.part,
        game_no=finding.game_no,
        seed=finding.seed,
        options=finding.options,
        case_id=finding.case_id,
        shrunk_from=len(finding.events),
        shrink="prefix",
    )
