"""Which rule a conformance finding rests on: every finding names its rule, or says why none
applies.

``name_rule(finding, game, options)`` replays the finding's events on our engine (through
a recording copy of the rule set, reference/core/trace.py, only for the kinds that need
it) and returns the finding with ``rule`` (a rule id of the game's catalogue, when one
applies) and ``rule_reason`` (how that rule made our value, or why no rule applies):

- ``state``: the rule(s) by which ours made its value: those whose trace points changed or
  decided the path at the last event, else the rule of its latest change, else the setup
  rule that made it;
- ``legal``: for an event the engine lists and ours does not, the rule by which ours
  refuses it; for one ours lists and the engine does not, the rule under which it is legal
  (the event type's rule);
- ``refused_legal``: the rule under which ours finds the refused event legal;
- ``to_act``: the game's turn rule, with the game's reason for the player ours asks
  (``RuleSet.why_to_act``);
- ``no_end``: the rule by which ours ended the game (the last change of ``phase``);
- ``result``: the game's scoring rule;
- findings that already name a rule (a refused probe, a scenario, another rule id) keep it;
- an engine fault, a malformed event, a session problem: no rule, and the reason why.

A finding of a play-out from a position set by path (oracle/reach.py) is named from that
position (``Position``): its events after it are replayed from our state there, and a value
no event has changed since was given by the position, not made by a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from oracle.explain import traced
from oracle.findings import Finding
from oracle.formats.converter import structure_event, to_json
from oracle.games import GameCache
from oracle.rulebook import find_rule
from reference.core.errors import (
    BadOptions,
    EngineInvariantError,
    MalformedEvent,
    OracleError,
    RuleViolation,
)
from reference.core.game import CHANCE, step
from reference.core.ruleset import RuleSet
from reference.core.trace import SETUP_INDEX, Change, Recorder, trace

FAULT_KINDS = frozenset({"crash", "hang", "garbage", "shape", "error"})
"""Findings about the engine as a program: no rule of the game is involved."""
SHOWN = 3
"""How many differing legal events a reason names."""

AnyRules = RuleSet[Any, Any, Any, Any]


@attrs.frozen
class Position:
    """Where a play-out from a position set by path began: our state once the values were
    set, after the first ``events`` of the finding's events (the rest are replayed from it)."""

    state: Any
    events: int


def name_rule(
    finding: Finding,
    games: GameCache,
    game: str,
    options: Mapping[str, Any],
    start: Position | None = None,
) -> Finding:
    """``finding`` with ``rule`` and ``rule_reason`` filled in (see the module doc), for our
    rule set of ``game`` under ``options`` (from ``games``); ``start``: the position set by
    path its play-out began from, if any. A finding named already (it has a reason, with or
    without a rule) is returned as it is. Never raises for the engine's events: a prefix
    ours cannot replay is said in the reason."""
    if finding.rule_reason:
        return finding
    try:
        rules = games.get(game, options)
    except BadOptions as exc:
        return attrs.evolve(finding, rule_reason=f"ours cannot set up the game: {exc.message}")
    if not isinstance(rules, RuleSet):
        return attrs.evolve(finding, rule_reason="ours names no rules for this game")
    rule, reason = _rule_and_reason(finding, rules, start)
    return attrs.evolve(finding, rule=finding.rule or rule, rule_reason=reason)


def _rule_and_reason(
    finding: Finding, game: AnyRules, start: Position | None
) -> tuple[str | None, str]:
    kind = finding.kind
    if kind in FAULT_KINDS:
        return None, f"an engine fault ({kind}), not a question of the rules: no rule applies"
    if kind == "hello":
        return None, "the engine does not serve the game: no rule applies"
    if kind == "bad_event":
        return None, "not an event of the game (malformed): no rule applies, it is judged first"
    if finding.rule is not None:
        return finding.rule, _named(game, finding)
    if kind.startswith("scenario"):
        return None, "the scenario cites no rule"
    handler = _BY_KIND.get(kind)
    if handler is None:
        return None, f"no rule of the game is asked by a {kind!r} finding"
    try:
        state = _replayed(game, finding, start)
    except (MalformedEvent, RuleViolation, EngineInvariantError, OracleError) as exc:
        return None, f"ours cannot replay the finding's events ({exc}): no rule is named"
    return handler(finding, game, state, start)


def _named(game: AnyRules, finding: Finding) -> str:
    """The reason of a finding that names its rule already: the rule's title, and what
    ours says about the event it refuses."""
    title = _title(game, finding.rule or "")
    head = f"{finding.rule} ({title})" if title else f"{finding.rule}"
    if finding.kind in ("accepted_illegal", "changed_by_refusal"):
        return f"ours refuses the event under {head}"
    if finding.kind == "rule_id":
        return f"ours refuses it under {head}; the engine names {finding.their_rule}"
    return f"the rule in question: {head}"


def _replayed(game: AnyRules, finding: Finding, start: Position | None) -> Any:
    """Our position after the finding's events (wire events), from ``start`` if given."""
    state = game.new_game(finding.players) if start is None else start.state
    for raw in finding.events[0 if start is None else start.events :]:
        state = step(game, state, structure_event(game, raw))
    return state


def _rules_work(
    game: AnyRules, finding: Finding, start: Position | None, wanted: Sequence[str]
) -> dict[str, list[Change]]:
    """Every rule's work on the ``wanted`` paths through the finding's events: from the
    setup, or from ``start`` (numbered as in the finding; what the position gave is no
    rule's)."""
    if start is None:
        events = [structure_event(game, raw) for raw in finding.events]
        return traced(game, finding.players, events, wanted)
    recorder = Recorder()
    recording = game.recording(recorder)
    events = [structure_event(game, raw) for raw in finding.events[start.events :]]

    def apply(state: Any, event: Any) -> Any:
        return step(recording, state, event)

    changes = trace(apply, recorder, start.state, events, wanted, game.event_rule)
    return {
        path: [attrs.evolve(c, event_index=c.event_index + start.events) for c in found]
        for path, found in changes.items()
    }


# --- the kinds that need our position -----------------------------------------------------


def _state(
    finding: Finding, game: AnyRules, state: Any, start: Position | None
) -> tuple[str | None, str]:
    path = finding.path or ""
    steps = _rules_work(game, finding, start, [path])[path]
    last = len(finding.events) - 1
    at_last = [c for c in steps if c.event_index == last and last >= 0]
    if at_last:
        rules = _unique(c.rule_id for c in at_last)
        what = "; ".join(_step_text(game, c) for c in at_last)
        return rules[0], f"ours made {path} at event {last}: {what}"
    changed = [c for c in steps if c.changed and c.event_index >= 0]
    if changed:
        c = changed[-1]
        return (
            c.rule_id,
            f"ours last changed {path} at event {c.event_index}: {_step_text(game, c)}",
        )
    if start is not None:
        return None, (
            f"ours has {path} as the play-out's start position set it (by path): no rule "
            "made it and no event since changed it"
        )
    setup = [c for c in steps if c.event_index == SETUP_INDEX]
    if setup:
        rules = _unique(c.rule_id for c in setup)
        value = _shown(to_json(setup[0].after))
        named = ", ".join(f"{r} ({_title(game, r)})" for r in rules)
        return rules[0], f"ours set {path} to {value} at setup by {named}; no event changed it"
    return None, (
        f"no rule of ours made {path}: the setup puts it there as the game's bookkeeping "
        "and no event since changed or decided it"
    )


def _legal(
    finding: Finding, game: AnyRules, state: Any, start: Position | None
) -> tuple[str | None, str]:
    missing = finding.ours if isinstance(finding.ours, list) else []
    extra = finding.theirs if isinstance(finding.theirs, list) else []
    rules: list[str] = []
    parts: list[str] = []
    for raw in extra[:SHOWN]:
        rule, why = _refused_by(game, state, raw)
        if rule:
            rules.append(rule)
        parts.append(f"extra {raw}: {why}")
    for raw in missing[:SHOWN]:
        rule, why = _legal_under(game, state, raw)
        if rule:
            rules.append(rule)
        parts.append(f"missing {raw}: {why}")
    rule = rules[0] if rules else None
    return rule, "; ".join(parts) or "the legal sets differ only in order"


def _refused_by(game: AnyRules, state: Any, raw: Any) -> tuple[str | None, str]:
    """The rule by which ours refuses ``raw`` here (None when ours cannot read it)."""
    try:
        event = structure_event(game, raw)
        game.apply(state, event)
    except MalformedEvent as exc:
        return None, f"not an event ours can read here ({exc.message}): no rule applies"
    except RuleViolation as exc:
        return exc.rule_id, f"ours refuses it under {_with_title(game, exc.rule_id)}: {exc.message}"
    except (TypeError, ValueError, KeyError) as exc:
        return None, f"not an event ours can read ({exc}): no rule applies"
    return None, "ours accepts it too (it is missing from ours' list only)"


def _legal_under(game: AnyRules, state: Any, raw: Any) -> tuple[str | None, str]:
    """The rule under which ``raw`` is legal for ours here: its event type's rule."""
    try:
        event = structure_event(game, raw)
    except MalformedEvent as exc:
        return None, f"ours lists it but cannot read it back ({exc.message})"
    rule = game.event_rule(event)
    return rule, f"legal for ours under {_with_title(game, rule)}"


def _refused_legal(
    finding: Finding, game: AnyRules, state: Any, start: Position | None
) -> tuple[str | None, str]:
    if finding.probe is None:
        return None, "no event is named: no rule applies"
    return _legal_under(game, state, finding.probe)


def _to_act(
    finding: Finding, game: AnyRules, state: Any, start: Position | None
) -> tuple[str | None, str]:
    rule = game.turn_rule
    if game.is_over(state):
        return _no_end(finding, game, state, start)
    actor = game.to_act(state)
    if actor == CHANCE:
        kinds = _unique(type(e).type for e in game.legal_events(state))
        return rule, f"chance is to act for ours: a chance outcome is due ({', '.join(kinds)})"
    why = game.why_to_act(state, actor)
    return rule, f"{actor} is to act for ours" + (f": {why}" if why else f" ({rule})")


def _no_end(
    finding: Finding, game: AnyRules, state: Any, start: Position | None
) -> tuple[str | None, str]:
    if not game.is_over(state):
        return game.turn_rule, "ours goes on: " + _to_act(finding, game, state, start)[1]
    ends = [c for c in _rules_work(game, finding, start, ["phase"])["phase"] if c.changed]
    if not ends and start is not None:
        return None, "ours is over from the play-out's start position: no rule ended it"
    if not ends:
        return None, "ours is over from the setup: no rule ended it"
    c = ends[-1]
    return c.rule_id, f"ours ended the game at event {c.event_index}: {_step_text(game, c)}"


def _result(
    finding: Finding, game: AnyRules, state: Any, start: Position | None
) -> tuple[str | None, str]:
    rule = game.scoring_rule()
    if not rule:
        return None, "the game names no scoring rule"
    return rule, f"ours scores the finished game under {_with_title(game, rule)}"


_BY_KIND = {
    "state": _state,
    "legal": _legal,
    "refused_legal": _refused_legal,
    "to_act": _to_act,
    "no_end": _no_end,
    "result": _result,
}
"""How each kind of finding names its rule, given ours' position after its events."""


# --- words ----------------------------------------------------------------------------------


def _title(game: AnyRules, rule_id: str) -> str:
    rule = find_rule(game, rule_id)
    return rule.title if rule is not None else ""


def _with_title(game: AnyRules, rule_id: str) -> str:
    title = _title(game, rule_id)
    return f"{rule_id} ({title})" if title else rule_id


def _step_text(game: AnyRules, c: Change) -> str:
    """``-2 (tax 2) by PIL-TAX-01 (Tax)``, ``unchanged: cost 0 ... by PIL-BUILD-04 (...)``."""
    gave = f"{c.gave()} ({c.why})" if c.why and c.changed else c.why or c.gave()
    if not c.changed and c.why:
        gave = f"unchanged: {c.why}"
    return f"{gave} by {_with_title(game, c.rule_id)}"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _unique(items: Any) -> list[str]:
    return list(dict.fromkeys(items))
