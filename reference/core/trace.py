"""Which rule made which value: a recorder the engines note rule ids into, used only when
a divergence or a conformance finding is being explained.

Normal play costs (almost) nothing: a game's tables carry no recorder (``recorder`` is
None), and a trace point is one ``is None`` test. To explain a value, the oracle replays
the events once more through a *recording* copy of the rule set (``RuleSet.recording``,
the same tables with a ``Recorder``): every trace point then hands the recorder a
``Mark``, the state once one rule has done its work, and ``trace`` diffs the asked paths
between consecutive marks, naming the rule of each change.

Every game notes rule by rule: its handlers and steps call ``Recorder.note`` after each
rule's work, so one event that runs several rules (the end of a phase, production, a tax
payout, a citizen event and the decurions it makes) is split rule by rule. A change no
trace point covers is put down to the event type's rule (``RuleSet.event_rules``).

A trace point may also name the state paths its rule *decided*, changed or not, and say
in a few words what the rule gave (``why``): a builder placed from the 8th draw on costs
nothing (PIL-BUILD-04), so ``players.<p>.gold`` was decided there although it did not
change. Such a decision is a ``Change`` with ``before == after``; it is what lets a
divergence name the event at which the rules left a value alone and the engine under
test did not. At setup, the marks' ``decided`` paths say which setup rule made what.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from reference.core import paths

SETUP_INDEX = -1
"""The ``event_index`` of a value made at setup, before the first event."""


@attrs.frozen
class Mark:
    """One trace point's note: the state once rule ``rule_id`` has done its work, the
    state paths it decided (changed or not; a path decides every path below it) and what
    it gave, in words (``why``: "cost 0: free from the 8th draw")."""

    rule_id: str
    state: Any
    decided: tuple[str, ...] = ()
    why: str = ""

    def decides(self, path: str) -> bool:
        """Whether this mark's rule decided ``path`` (or a value inside it or around it)."""
        return any(covers(d, path) for d in self.decided)


def covers(decided: str, path: str) -> bool:
    """Whether deciding ``decided`` says something about ``path``: the same path, a value
    around it (``players.red`` covers ``players.red.gold``) or inside it. A segment ``*``
    of ``decided`` stands for any one segment (``players.*.gold``)."""
    if "*" in decided:
        wild, parts = decided.split("."), path.split(".")
        return all(a in ("*", b) for a, b in zip(wild, parts, strict=False))
    if decided == path:
        return True
    if path.startswith(decided) and path[len(decided)] == ".":
        return True
    return decided.startswith(path) and decided[len(path)] == "."


@attrs.define
class Recorder:
    """The marks noted while one event (or the setup) is applied, in order."""

    marks: list[Mark] = attrs.Factory(list)

    def note(self, rule_id: str, state: Any, decided: Sequence[str] = (), why: str = "") -> None:
        """``state`` is the state once rule ``rule_id`` has done its work; ``decided``
        the paths it decided, changed or not; ``why`` what it gave, in words."""
        self.marks.append(Mark(rule_id, state, tuple(decided), why))


@attrs.frozen
class Change:
    """One rule's work on one value at one event (0-based, as in verdicts;
    ``SETUP_INDEX`` at setup): a change, or a decision that left it as it was
    (``before == after``). ``why`` says what the rule gave, when its trace point says."""

    path: str
    before: Any
    after: Any
    rule_id: str
    event_index: int
    why: str = ""

    @property
    def changed(self) -> bool:
        """Whether the value changed (else the rule decided it and left it)."""
        return bool(self.before != self.after)

    def gave(self) -> str:
        """What the rule did to the value: ``+5``, ``a -> b``, ``unchanged`` or, at setup,
        ``set to 20``."""
        if self.event_index == SETUP_INDEX:
            return f"set to {_short(self.after)}"
        if not self.changed:
            return "unchanged"
        if _is_number(self.before) and _is_number(self.after):
            delta = self.after - self.before
            return f"{delta:+d}" if isinstance(delta, int) else f"{delta:+}"
        return f"{_short(self.before)} -> {_short(self.after)}"

    def text(self, title: str = "") -> str:
        """``+5 PIL-CARDS-07 (Wool mill) at event 30``; non-numbers as ``a -> b``; the
        trace point's words after a colon (``-2 PIL-TAX-01 (Tax) at event 23: tax 2``); a
        decision that changed nothing as ``unchanged PIL-BUILD-04 (...) at event 33: cost
        0 ...``; a setup value as ``set to 20 PIL-SETUP-01 (...) at setup``."""
        what = f" ({title})" if title else ""
        at = "at setup" if self.event_index == SETUP_INDEX else f"at event {self.event_index}"
        why = f": {self.why}" if self.why else ""
        return f"{self.gave()} {self.rule_id}{what} {at}{why}"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _short(value: Any) -> str:
    """A value as a log writes it (JSON: ``null``, ``true``, ``"red"``, ``[1, 2]``), cut
    to 40 characters; a value JSON cannot hold as its Python repr."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _value(state: Any, path: str) -> Any:
    try:
        return paths.read(state, path)
    except paths.UnknownPath:
        return None


def trace_setup(
    new_game: Callable[[], Any], recorder: Recorder, wanted: Sequence[str]
) -> tuple[Any, dict[str, list[Change]]]:
    """The setup ``new_game()`` makes (a recording rule set's, noting into ``recorder``)
    and, for each of the ``wanted`` paths, the setup rules whose marks decided it, each
    with the value the setup left there."""
    recorder.marks.clear()
    state = new_game()
    made: dict[str, list[Change]] = {path: [] for path in wanted}
    for mark in recorder.marks:
        for path in wanted:
            if mark.decides(path):
                value = _value(state, path)
                made[path].append(Change(path, None, value, mark.rule_id, SETUP_INDEX, mark.why))
    recorder.marks.clear()
    return state, made


def trace(
    apply: Callable[[Any, Any], Any],
    recorder: Recorder,
    state: Any,
    events: Sequence[Any],
    wanted: Sequence[str],
    event_rule: Callable[[Any], str],
) -> dict[str, list[Change]]:
    """Every rule's work on the ``wanted`` paths while ``events`` are applied from
    ``state`` by ``apply(state, event)`` (a recording rule set's step, noting into
    ``recorder``), oldest first: each change, credited to the mark it first shows in, and
    each decision that left a value as it was. A change no trace point covers is put down
    to ``event_rule(event)``. A mark's ``why`` goes with the paths it decided (with every
    change it shows when it names none)."""
    changes: dict[str, list[Change]] = {path: [] for path in wanted}
    for index, event in enumerate(events):
        recorder.marks.clear()
        after = apply(state, event)
        marks = [*recorder.marks, Mark(event_rule(event), after)]
        previous = {path: _value(state, path) for path in wanted}
        for mark in marks:
            for path in wanted:
                value = _value(mark.state, path)
                decided = mark.decides(path)
                if value != previous[path]:
                    why = mark.why if decided or not mark.decided else ""
                    changes[path].append(
                        Change(path, previous[path], value, mark.rule_id, index, why)
                    )
                    previous[path] = value
                elif decided:
                    changes[path].append(Change(path, value, value, mark.rule_id, index, mark.why))
        state = after
    recorder.marks.clear()
    return changes
