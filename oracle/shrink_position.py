"""Shrinking a finding by its position, for an engine with ``set_state``.

A bug that first shows at event 450 needs 450 events to reach by play, but only the position
just before the failing event and that one event to show: the case becomes a scenario whose
``given.state`` writes that position directly (values set by path on the setup, as
``set_state`` takes them) and whose steps are as few events as possible.

1. The fewest steps: the position before the last ``k`` events of the game (played from
   its start: the setup, or the position written there for a play-out that began at one,
   oracle.starts) is written directly and those events played from it, for k = 1, 2, ...
   up to ``MAX_STEPS`` (a probe, or the legal event the engine refused, is the failing
   event itself: k starts at 0); the first ``k`` that still shows the same signature (kind,
   with its path or rule) on the engine under test is kept. An engine whose bug hangs on
   its history (a counter of the events it was sent) shows nothing this way: the prefix
   shrink is left for it.
2. The fewest values: the written position is the setup with the values that differ from it
   (a mapping that lost a key, such as a stack emptied of a tile or a cell left, is written
   whole); those values are reset toward the setup's by delta debugging while the signature
   still shows. A candidate our engine refuses as unsound (cards or coins not conserved) is
   dropped without asking the engine under test.

Deterministic: the values and candidates come in our walk's order and each replay is a fresh
game, so the same finding shrinks to the same case.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from oracle.findings import Finding
from oracle.protocol import EngineError
from oracle.refengine import LocalEngine
from oracle.shrink import PROBED, Replays, events_chooser, reduce_items
from oracle.starts import Start, Unit, merged, written
from reference.core.errors import EngineInvariantError

MAX_STEPS = 6
"""At most this many events are played from the written position; a finding that needs
more is left to the prefix shrink."""

NOT_BY_POSITION = frozenset({"hang", "bad_event", "hello", "rule_id"})
"""Kinds not shrunk by position: a hang costs a whole timeout per replay, a malformed event
makes no scenario, and the others are no game's."""


def shrink_position(run: Replays, finding: Finding, seconds: float) -> Finding | None:
    """The finding shown from a position written directly with as few steps and values as
    found within ``seconds``; None when no position shows it (the caller shrinks by prefix)."""
    if finding.kind in NOT_BY_POSITION or not finding.players:
        return None
    if finding.kind in PROBED and finding.probe is None:
        return None
    deadline = time.monotonic() + seconds

    def over() -> bool:
        return time.monotonic() >= deadline

    options = finding.options if finding.options is not None else run.settings.options
    case = _Case(run, finding, options)
    for k in case.step_counts():
        if over():
            return None
        units = case.units_before(len(finding.events) - k)
        if units is None:
            return None
        trailing = list(finding.events[len(finding.events) - k :])
        again = case.shows(units, trailing)
        if again is None:
            continue
        kept = reduce_items(units, case.showing(trailing), over)
        smallest = case.shows(kept, trailing) if kept != units else again
        if smallest is None:  # never: the same replay showed it a moment ago
            smallest, kept = again, units
        return attrs.evolve(
            smallest,
            part=finding.part,
            game_no=finding.game_no,
            seed=finding.seed,
            options=finding.options,
            case_id=finding.case_id,
            given=merged(kept) or None,  # none: the steps are a game from the setup
            steps=smallest.events,
            shrunk_from=len(finding.events),
            shrink="position",
        )
    return None


class _Case:
    """One finding's replays from written positions."""

    def __init__(self, run: Replays, finding: Finding, options: dict[str, Any]) -> None:
        self.run = run
        self.finding = finding
        self.options = options
        self.final_probe = finding.probe if finding.kind in PROBED else None
        self.sound: dict[str, bool] = {}

    def step_counts(self) -> Iterator[int]:
        """How many events to play from the written position, fewest first."""
        n = len(self.finding.events)
        first = 0 if self.final_probe is not None or self.finding.kind == "refused_legal" else 1
        yield from range(min(first, n), min(MAX_STEPS, n) + 1)

    def ours(self) -> LocalEngine:
        ref = LocalEngine(games=self.run.games)
        ref.new_game(self.run.settings.game, self.finding.players, self.options)
        return ref

    def units_before(self, n: int) -> list[Unit] | None:
        """The position after the game's first ``n`` events (from its start: the setup, or
        the position written there for a game that began at one) as values set on the
        setup; None if our engine cannot write it back exactly (then no position is tried)."""
        ref = self.ours()
        try:
            if self.finding.given is not None:
                ref.set_state(self.finding.given)
            for event in self.finding.events[:n]:
                if ref.apply(event) is not None:
                    return None  # never: the events were played on ours
        except EngineError:
            return None  # never: the game was played on ours from there
        return written(self.ours(), ref)

    def showing(self, trailing: list[dict[str, Any]]) -> Callable[[list[Unit]], bool]:
        """The test of a candidate position, with these events played from it."""
        return lambda units: self.shows(units, trailing) is not None

    def shows(self, units: list[Unit], trailing: list[dict[str, Any]]) -> Finding | None:
        """The finding this candidate shows on the engine under test if it has the same
        signature; None otherwise (or if our engine refuses the position as unsound)."""
        given = merged(units)
        steps = list(trailing)
        if self.finding.kind == "refused_legal" and self.finding.probe is not None:
            steps.append(dict(self.finding.probe))
        if not self.takes(given, steps):
            return None
        self.run.report.counts.shrink_runs += 1
        start = Start(self.finding.players, self.options, given or None)
        again = self.run.play(start, events_chooser(steps), None, self.final_probe)
        if again is None or not self.finding.same_kind(again):
            return None
        return again

    def takes(self, given: dict[str, Any], steps: list[dict[str, Any]]) -> bool:
        """Whether our engine takes this position (sound, every path known, the rules can
        tell who acts), plays the steps from it and refuses the probe after them: else the
        engine under test is not asked. Kept per candidate, as ddmin may ask twice."""
        key = repr((sorted(given.items()), len(steps)))
        if key not in self.sound:
            self.sound[key] = self._plays(given, steps)
        return self.sound[key]

    def _plays(self, given: dict[str, Any], steps: list[dict[str, Any]]) -> bool:
        ref = self.ours()
        try:
            if given:
                ref.set_state(given)
            if not all(ref.apply(event) is None for event in steps):
                return False
            return self.final_probe is None or ref.probe(self.final_probe) is not None
        except EngineError:
            return False
        except EngineInvariantError:
            # A written position play never reaches, whose parts no check of a written
            # position ties together, can make even our own step unsound: no candidate.
            return False
