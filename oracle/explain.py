"""Why the reference holds the value it does, and where a claimed value went astray.

Asked only for a divergent verdict (or a conformance finding): the events are replayed once
more through a recording copy of the rule set (reference/core/trace.py), so a valid log
costs nothing. Two answers per divergent path:

- ``causes``: the latest changes of the reference value, with the rule and event of each;
- ``blame`` ("blame by the rules"): every event since the last claim of the path that
  agreed (or since the setup) at which the rules changed the value *or decided it and
  left it as it was*, each with what the rules gave and why, the most suspect first.

The most suspect event is one where the claimed value's difference shows in the rules'
own work: where the rules decided the value and left it unchanged (a builder placed free,
a tax not due: the engine under test may have charged or paid anyway), or where the
difference is exactly what the event changed (left out, or done twice); for a value that
is no number, where the claim is the value before the event (its change left out). Among
events alike, the later first (nearer to where the difference was seen).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from oracle.formats.converter import assign, json_equal, structure_event, to_json
from oracle.formats.log import ResultRecord, parse_header, parse_record
from oracle.rulebook import find_rule
from reference.core.game import Game, step
from reference.core.ruleset import RuleSet
from reference.core.trace import SETUP_INDEX, Change, Recorder, trace, trace_setup

LAST_CHANGES = 3
"""How many of a value's latest changes an explanation lists."""
BLAME_SHOWN = 5
"""How many suspect events a divergence lists (the most suspect first); the rest counted."""


@attrs.frozen
class RuleStep:
    """One rule's work on the value at a suspect event: the rule, what the value was before
    and after it (JSON), and what the rule gave, in words."""

    rule_id: str
    rule_title: str
    before: Any
    after: Any
    why: str


@attrs.frozen
class Suspect:
    """An event at which the rules changed or decided a divergent value."""

    event_index: int
    line: int | None
    action: str | None
    player: str | None
    before: Any
    """The reference value before the event (JSON)."""
    after: Any
    """The reference value after it (JSON)."""
    steps: tuple[RuleStep, ...]
    suspicion: str
    """Why this event is suspect ("" when nothing points at it more than at the others)."""
    text: str
    """``event 33 place_master_builder: cost 0: ..., PIL-BUILD-04 (...)``."""


@attrs.frozen
class Explanation:
    """What explains one divergent path."""

    causes: tuple[str, ...] = ()
    agreed_at: int | None = None
    """The event of the last claim of the path that agreed (None: none since the setup)."""
    blame: tuple[Suspect, ...] = ()
    blame_more: int = 0
    """Suspect events not listed (beyond BLAME_SHOWN)."""


def traced(
    game: RuleSet[Any, Any, Any, Any],
    players: Sequence[str],
    events: Sequence[Any],
    wanted: Sequence[str],
    given: Mapping[str, Any] | None = None,
) -> dict[str, list[Change]]:
    """Every rule's work on the ``wanted`` paths from the setup (``SETUP_INDEX``) through
    ``events`` (structured events, all legal), oldest first. With ``given`` (values written
    on the setup by state path, as a scenario's ``given.state``) the events start from that
    position, and no setup rule is credited with a value: the position wrote them."""
    recorder = Recorder()
    recording = game.recording(recorder)
    state, made = trace_setup(lambda: recording.new_game(players), recorder, wanted)
    if given:
        state, made = assign(recording, state, given), {path: [] for path in wanted}

    def apply(state: Any, event: Any) -> Any:
        return step(recording, state, event)

    changes = trace(apply, recorder, state, events, wanted, game.event_rule)
    return {path: made[path] + changes[path] for path in wanted}


def explain(
    lines: Iterator[tuple[int, dict[str, Any]]],
    game: Game,
    upto: int,
    claimed: Mapping[str, Any],
) -> dict[str, Explanation]:
    """For each divergent path of ``claimed`` (path -> the claimed value) at event ``upto``
    (0-based) of the log read afresh as ``lines``: its latest changes and the events the
    rules could have changed it at since its last agreeing claim, the most suspect first.
    Empty for a game without a rule shell."""
    wanted = list(claimed)
    if not isinstance(game, RuleSet) or not wanted:
        return {}
    first = next(lines)
    players = parse_header(*first).players
    events: list[Any] = []
    records: list[tuple[int, dict[str, Any]]] = []
    last_claim: dict[str, int] = {}
    for number, raw in lines:
        record = parse_record(number, raw)
        if isinstance(record, ResultRecord) or len(events) > upto:
            break
        index = len(events)
        if index < upto:
            for path in wanted:
                if any(_claim_covers(claim, path) for claim in record.claims):
                    last_claim[path] = index
        events.append(structure_event(game, record.raw))
        records.append((number, record.raw))
    changes = traced(game, players, events, wanted)
    out: dict[str, Explanation] = {}
    for path in wanted:
        latest = [c for c in changes[path] if c.changed and c.event_index >= 0][-LAST_CHANGES:]
        agreed = last_claim.get(path)
        # Since the last claim that agreed, or from the setup (which made the value first).
        since = SETUP_INDEX - 1 if agreed is None else agreed
        window = [c for c in changes[path] if c.event_index > since]
        suspects = _suspects(game, window, records, claimed[path])
        out[path] = Explanation(
            causes=tuple(c.text(_title(game, c.rule_id)) for c in latest),
            agreed_at=agreed,
            blame=tuple(suspects[:BLAME_SHOWN]),
            blame_more=max(0, len(suspects) - BLAME_SHOWN),
        )
    return out


def _claim_covers(claim: str, path: str) -> bool:
    """Whether a claim of ``claim`` that agreed says the value at ``path`` agreed: the same
    path or one around it."""
    return claim == path or (path.startswith(claim) and path[len(claim)] == ".")


def _suspects(
    game: Game,
    window: list[Change],
    records: list[tuple[int, dict[str, Any]]],
    claimed: Any,
) -> list[Suspect]:
    """The events of ``window`` (the rules' work on one path since its last agreeing
    claim), one suspect each, the most suspect first (see the module doc)."""
    by_event: dict[int, list[Change]] = {}
    for change in window:
        by_event.setdefault(change.event_index, []).append(change)
    if not by_event:
        return []
    reference = to_json(window[-1].after)
    ranked: list[tuple[tuple[int, int], Suspect]] = []
    for index, steps in by_event.items():
        before, after = to_json(steps[0].before), to_json(steps[-1].after)
        if index == SETUP_INDEX:  # the setup made the value: no event, nothing before
            line, raw, (tier, suspicion) = 1, {"type": "setup"}, (3, "")
        else:
            line, raw = records[index]
            tier, suspicion = _suspicion(before, after, claimed, reference)
        player, action = raw.get("player"), raw.get("type")
        rule_steps = tuple(
            RuleStep(c.rule_id, _title(game, c.rule_id), to_json(c.before), to_json(c.after), c.why)
            for c in steps
        )
        suspect = Suspect(
            event_index=index,
            line=line,
            action=action if isinstance(action, str) else None,
            player=player if isinstance(player, str) else None,
            before=before,
            after=after,
            steps=rule_steps,
            suspicion=suspicion,
            text=_suspect_text(index, action, steps, game),
        )
        ranked.append(((tier, -index), suspect))
    ranked.sort(key=lambda pair: pair[0])
    return [suspect for _, suspect in ranked]


def _suspicion(before: Any, after: Any, claimed: Any, reference: Any) -> tuple[int, str]:
    """How strongly (0 most, 2 least) and why the claimed value's difference points at an
    event that took the value from ``before`` to ``after`` (JSON values): the difference is
    exactly the event's change (left out, or done twice), or the rules decided the value
    there and left it as it was; else nothing points at it more than at the others."""
    if all(_is_number(v) for v in (before, after, claimed, reference)):
        off, delta = claimed - reference, after - before
        if delta and off == -delta:
            return 0, f"the claim is off by {off:+}: as if this event's {delta:+} was left out"
        if delta and off == delta:
            return 0, f"the claim is off by {off:+}: as if this event's {delta:+} came twice"
        if not delta:
            return 1, f"the rules left the value as it was here; the claim is off by {off:+}"
        return 2, ""
    if not json_equal(before, after) and json_equal(claimed, before):
        return 0, "the claim is the value before this event: as if its change was left out"
    if json_equal(before, after):
        return 1, "the rules left the value as it was here"
    return 2, ""


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _suspect_text(index: int, action: Any, steps: list[Change], game: Game) -> str:
    """``event 33 place_master_builder: cost 0: ..., PIL-BUILD-04 (Free ...)``: what each
    rule gave (its trace point's words, else the change) and the rule."""
    parts = []
    for c in steps:
        title = _title(game, c.rule_id)
        rule = f"{c.rule_id} ({title})" if title else c.rule_id
        gave = f"{c.gave()} ({c.why})" if c.why and c.changed else c.why or c.gave()
        parts.append(f"{gave}, {rule}")
    if index == SETUP_INDEX:
        return "setup: " + "; ".join(parts)
    what = f" {action}" if isinstance(action, str) else ""
    return f"event {index}{what}: " + "; ".join(parts)


def _title(game: Game, rule_id: str) -> str:
    rule = find_rule(game, rule_id)
    return rule.title if rule is not None else ""
