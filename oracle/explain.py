"""Why the reference holds the value it does: the events and rules that last changed it.

Asked only for a divergent verdict: the log's prefix is replayed once more through a
recording copy of the rule set (reference/core/trace.py), so a valid log costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from oracle.formats.converter import structure_event
from oracle.formats.log import ResultRecord, parse_header, parse_record
from oracle.rulebook import find_rule
from reference.core.game import Game, step
from reference.core.ruleset import RuleSet
from reference.core.trace import Recorder, trace

LAST_CHANGES = 3
"""How many of a value's latest changes an explanation lists."""


def causes(
    lines: Iterator[tuple[int, dict[str, Any]]], game: Game, upto: int, wanted: Sequence[str]
) -> dict[str, tuple[str, ...]]:
    """For each of the ``wanted`` state paths, its latest changes up to and including event
    ``upto`` (0-based) of the log read afresh as ``lines``, oldest first, e.g.
    ``+5 PIL-CARDS-07 (Wool mill) at event 30``. Empty for a game without a rule shell."""
    if not isinstance(game, RuleSet) or not wanted:
        return {}
    first = next(lines)
    state = game.new_game(parse_header(*first).players)
    events: list[Any] = []
    for number, raw in lines:
        record = parse_record(number, raw)
        if isinstance(record, ResultRecord) or len(events) > upto:
            break
        events.append(structure_event(game, record.raw))
    recorder = Recorder()
    recording = game.recording(recorder)

    def apply(state: Any, event: Any) -> Any:
        return step(recording, state, event)

    changes = trace(apply, recorder, state, events, wanted, game.event_rule)
    out: dict[str, tuple[str, ...]] = {}
    for name in wanted:
        latest = changes[name][-LAST_CHANGES:]
        out[name] = tuple(c.text(_title(game, c.rule_id)) for c in latest)
    return out


def _title(game: Game, rule_id: str) -> str:
    rule = find_rule(game, rule_id)
    return rule.title if rule is not None else ""
