"""A finding as ready-to-commit files: a v1 log and a scenario file of its (shrunk) case.

The log holds the game prefix, then what the engine under test did or claimed that ours
disagrees with (the event it accepted, the value it claimed, the result it gave), so
``rules-oracle validate`` gives our engine's verdict on it. The scenario file states what
our engine says at that point, so it passes ``rules-oracle scenarios`` on our engine and
fails on the engine under test.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from oracle.findings import Finding, Settings
from oracle.formats.log import header_line
from oracle.refengine import LocalEngine

ACCEPTED = frozenset({"accepted_illegal", "changed_by_refusal"})


def log_text(settings: Settings, finding: Finding) -> str:
    """The v1 log of the finding's case."""
    lines = [header_line(settings.game, finding.players, settings.options)]
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


def scenario_text(settings: Settings, finding: Finding) -> str | None:
    """The scenario file of the finding's case (None for a finding with no position)."""
    if not finding.players:
        return None
    events = [dict(e) for e in finding.events]
    ref = LocalEngine()
    ref.new_game(settings.game, finding.players, settings.options)
    given, steps, expect, rules = events, [], {}, []
    if finding.kind in ACCEPTED and finding.probe is not None and finding.rule is not None:
        steps = [dict(finding.probe)]
        expect = {"illegal": {"step": 0, "rule": finding.rule}}
        rules = [finding.rule]
    else:
        if finding.kind == "refused_legal" and finding.probe is not None:
            given, steps = events, [dict(finding.probe)]
        elif events:
            given, steps = events[:-1], events[-1:]
        for event in given + steps:
            ref.apply(event)
        expect = _expect_here(ref, finding)
    data: dict[str, Any] = {
        "id": _scenario_id(settings, finding),
        "game": settings.game,
        "rules": rules,
        "source": f"rules-oracle conform --game {settings.game} --seed {finding.seed}"
        + (f" (game {finding.game_no})" if finding.game_no is not None else ""),
        "description": finding.message[:300],
        "players": list(finding.players),
    }
    if settings.options:
        data["options"] = settings.options
    if given:
        data["given"] = {"events": given}
    if steps:
        data["steps"] = steps
    data["expect"] = expect
    text: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
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


def _scenario_id(settings: Settings, finding: Finding) -> str:
    where = finding.path or finding.rule or ""
    raw = f"conform-{settings.game}-{finding.kind}-{where}-g{finding.game_no}"
    return re.sub(r"[^A-Za-z0-9_-]+", "-", raw).strip("-")
