"""A finding as ready-to-commit files: a v1 log and a scenario file of its (shrunk) case.

The log holds the game prefix, then what the engine under test did or claimed that ours
disagrees with (the event it accepted, the value it claimed, the result it gave), so
``rules-oracle validate`` gives our engine's verdict on it. The scenario file states what
our engine says at that point, so it passes ``rules-oracle scenarios`` on our engine and
fails on the engine under test; a finding shrunk by its position starts from that position
(``given.state``) and plays its few steps from there.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from oracle.findings import Finding, Settings
from oracle.formats.log import header_line
from oracle.refengine import LocalEngine
from oracle.rulebook import find_rule

ACCEPTED = frozenset({"accepted_illegal", "changed_by_refusal"})


def options_of(settings: Settings, finding: Finding) -> dict[str, Any]:
    """The game options of the finding's game."""
    return finding.options if finding.options is not None else settings.options


def log_text(settings: Settings, finding: Finding) -> str:
    """The v1 log of the finding's case (a game from the setup: no ``given`` position)."""
    lines = [header_line(settings.game, finding.players, options_of(settings, finding))]
    records = [dict(e) for e in finding.events]
    if finding.kind == "state" and records:
        records[-1]["state"] = {finding.path: finding.theirs}
    if finding.probe is not None and finding.kind != "refused_legal" or finding.kind == "bad_event":
        records.append(dict(finding.probe or {}))
    if finding.kind == "refused_legal" and finding.probe is not None:
        records.append(dict(finding.probe))
    lines += [json.dumps(r, allow_nan=False) for r in records]
    if finding.kind == "result" and isinstance(finding.theirs, list):
        scores, winners = finding.theirs
        lines.append(
            json.dumps({"result": {"scores": scores, "winners": winners}}, allow_nan=False)
        )
    return "\n".join(lines) + "\n"


def scenario_text(settings: Settings, finding: Finding, case: str | None = None) -> str | None:
    """The scenario file of the finding's case, with id ``case`` (None for a finding with no
    position, or an event ours cannot read)."""
    if not finding.players or finding.kind == "bad_event":
        return None
    events = [dict(e) for e in finding.events]
    options = options_of(settings, finding)
    ref = LocalEngine()
    ref.new_game(settings.game, finding.players, options)
    if finding.given is not None:
        ref.set_state(finding.given)
    given, steps = _given_and_steps(finding, events)
    if finding.kind in ACCEPTED and finding.probe is not None and finding.rule is not None:
        expect: dict[str, Any] = {"illegal": {"step": len(steps), "rule": finding.rule}}
        steps.append(dict(finding.probe))
        rules = [finding.rule]
    else:
        if finding.kind == "refused_legal" and finding.probe is not None:
            steps.append(dict(finding.probe))
        for event in given + steps:
            ref.apply(event)
        expect, rules = _expect_here(ref, finding), _cited(ref, finding)
    data: dict[str, Any] = {
        "id": case or case_id(settings.game, finding),
        "game": settings.game,
        "rules": rules,
        "source": _source(settings, finding),
        "description": finding.message[:300],
        "players": list(finding.players),
    }
    if options:
        data["options"] = options
    if given or finding.given:
        data["given"] = {"events": given} if given else {}
        if finding.given:
            data["given"]["state"] = finding.given
    if steps:
        data["steps"] = steps
    data["expect"] = expect
    text: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    return text


def _cited(ref: LocalEngine, finding: Finding) -> list[str]:
    """The rule a finding that is no refusal rests on (``Finding.rule``: the rule by which
    ours made the value, refuses the engine's extra event, ...), when it is one of the
    game's or the core catalogue's: the case cites it."""
    game, _ = ref.internals()
    if finding.rule is None or find_rule(game, finding.rule) is None:
        return []
    return [finding.rule]


def _given_and_steps(
    finding: Finding, events: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The events played before the steps (``given.events``) and the steps. From a position
    written directly, every event is a step (``given.events`` come before ``given.state``);
    from the setup, the prefix is given and the last event (or the probe) is the step."""
    if finding.given is not None:
        return [], events
    if finding.kind in ACCEPTED or finding.kind == "refused_legal":
        return events, []
    return events[:-1], events[-1:]


def _source(settings: Settings, finding: Finding) -> str:
    """How the case was found: the command's game and seed, the game's number and part."""
    text = f"rules-oracle conform --game {settings.game}"
    if finding.seed is not None:
        text += f" --seed {finding.seed}"
    if finding.game_no is not None:
        text += f" ({finding.part} game {finding.game_no})"
    elif finding.case:
        text += f" ({finding.part} {finding.case})"  # a play-out from a start (oracle.reach)
    return text


def _expect_here(ref: LocalEngine, finding: Finding) -> dict[str, Any]:
    actor, over = ref.to_act()
    expect: dict[str, Any] = {"over": over} if over else {"to_act": actor}
    if finding.kind == "state" and finding.path is not None:
        expect["state"] = ref.state([finding.path])
    elif finding.kind == "result" and over:
        scores, winners = ref.result()
        expect["result"] = {"scores": scores, "winners": winners}
    elif finding.kind == "legal" and not over:
        legal = ref.legal()
        expect["legal"] = {"count": len(legal)}
        if isinstance(finding.ours, list) and finding.ours:
            expect["legal"]["includes"] = finding.ours[:3]
    return expect


def case_id(game: str, finding: Finding) -> str:
    """A scenario id for the finding: game, part, kind, path or rule, game number and seed
    (a play-out game and an engine game of the same number stay apart), or for a play-out
    from a start, its test case's name. The run makes it unique (oracle.conform adds a
    number to a repeat)."""
    where = finding.path or finding.rule or ""
    raw = f"conform-{game}-{finding.part}-{finding.kind}-{where}"
    if finding.game_no is None and finding.case:  # a play-out from a start: its case
        raw += f"-{finding.case}"  # names it (oracle.reach: rare-..., start-<scenario>)
    else:
        if finding.game_no is not None:
            raw += f"-g{finding.game_no}"
        if finding.seed is not None:
            raw += f"-seed{finding.seed}"
    return re.sub(r"[^A-Za-z0-9_-]+", "-", raw).strip("-")
