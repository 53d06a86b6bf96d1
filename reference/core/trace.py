"""Which rule changed which value: a recorder the engines note rule ids into, used only when
a divergence is being explained.

Normal play costs (almost) nothing: a game's tables carry no recorder, and a trace point is
one ``is None`` test. To explain a divergence, the oracle replays the log prefix once more
through a *recording* copy of the rule set (``RuleSet.recording``): every trace point
then hands the recorder the state after one rule's work, and ``trace`` diffs the asked
paths between consecutive noted states, naming the rule of each change.

A game notes in two ways:

- fully (Pillars): its handlers and steps call ``Recorder.note(rule_id, state)`` after each
  rule's work, so one event that runs several steps (the end of a phase, production, the
  tax) is split rule by rule;
- by event type (the others): ``RuleSet.event_rules`` names the rule of each event class,
  and everything an event changes is put down to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from reference.core import paths


@attrs.define
class Recorder:
    """The states noted while one event is applied, each after one rule's work."""

    marks: list[tuple[str, Any]] = attrs.Factory(list)

    def note(self, rule_id: str, state: Any) -> None:
        """``state`` is the state once rule ``rule_id`` has done its work."""
        self.marks.append((rule_id, state))


@attrs.frozen
class Change:
    """One change of one value: by which rule, at which event (0-based, as in verdicts)."""

    path: str
    before: Any
    after: Any
    rule_id: str
    event_index: int

    def text(self, title: str = "") -> str:
        """``+5 PIL-CARDS-07 (Wool mill) at event 30``; non-numbers as ``a -> b``."""
        what = f" ({title})" if title else ""
        if _is_number(self.before) and _is_number(self.after):
            delta = self.after - self.before
            head = f"{delta:+d}" if isinstance(delta, int) else f"{delta:+}"
        else:
            head = f"{_short(self.before)} -> {_short(self.after)}"
        return f"{head} {self.rule_id}{what} at event {self.event_index}"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _value(state: Any, path: str) -> Any:
    try:
        return paths.read(state, path)
    except paths.UnknownPath:
        return None


def trace(
    apply: Callable[[Any, Any], Any],
    recorder: Recorder,
    state: Any,
    events: Sequence[Any],
    wanted: Sequence[str],
    event_rule: Callable[[Any], str],
) -> dict[str, list[Change]]:
    """Every change of the ``wanted`` paths while ``events`` are applied from ``state`` by
    ``apply(state, event)`` (a recording rule set's step, noting into ``recorder``), oldest
    first. A change no trace point covers is put down to ``event_rule(event)``."""
    changes: dict[str, list[Change]] = {path: [] for path in wanted}
    for index, event in enumerate(events):
        recorder.marks.clear()
        after = apply(state, event)
        steps = [*recorder.marks, (event_rule(event), after)]
        previous = {path: _value(state, path) for path in wanted}
        for rule_id, noted in steps:
            for path in wanted:
                value = _value(noted, path)
                if value != previous[path]:
                    changes[path].append(Change(path, previous[path], value, rule_id, index))
                    previous[path] = value
        state = after
    return changes
