"""Turning verdicts and scenario results into text or JSON."""

from __future__ import annotations

import json
from typing import Any

from oracle.formats.converter import CONVERTER
from oracle.replay import Verdict
from oracle.scenarios import ScenarioResult


def verdict_text(v: Verdict) -> str:
    """A verdict in a few lines: the first says it all, the others give details."""
    where = ""
    if v.event_index is not None:
        where = f" at event {v.event_index}"
    if v.line is not None:
        where += f" (line {v.line})"
    head = f"{v.log}: {v.kind}{where}"
    if v.kind == "valid":
        head += f" ({v.game}, {v.events} events)"
    lines = [head]
    if v.kind == "illegal":
        who = " ".join(x for x in (v.player, v.action) if x)
        lines.append(f"  {who}: {v.rule_id} {v.rule_title or ''}: {v.message}".rstrip())
        if v.citation:
            lines.append(f"  source: {v.citation}")
    elif v.message:
        lines.append(f"  {v.message}")
    for d in v.divergences:
        lines.append(
            f"  {d.path}: claimed {json.dumps(d.claimed)}, reference {json.dumps(d.reference)}"
        )
    if v.placeholders and v.kind != "malformed":
        if v.kind == "illegal":
            lines.append("  this verdict rests on unconfirmed values: " + "; ".join(v.placeholders))
        else:
            lines.append(
                "  placeholder data in force (unconfirmed values; replace with --profile): "
                + ", ".join(v.placeholders)
            )
    return "\n".join(lines)


def verdict_json(v: Verdict) -> dict[str, Any]:
    """A verdict as a JSON object (the state is included only when asked for with --at)."""
    data: dict[str, Any] = CONVERTER.unstructure(v)
    if v.state_at is None:
        data.pop("state_at")
    return data


def scenario_text(r: ScenarioResult) -> str:
    """One line per scenario, with the reason when it did not pass."""
    where = f"{r.path}:{r.line}" if r.line else r.path
    label = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "internal_error": "INTERNAL"}[
        r.status
    ]
    text = f"{label} {r.id or '?'} ({where})"
    if r.reason:
        text += f": {r.reason}"
    if r.status == "pass" and r.placeholders:
        text += f" [rests on placeholders: {'; '.join(r.placeholders)}]"
    return text


def scenario_json(r: ScenarioResult) -> dict[str, Any]:
    """A scenario result as a JSON object."""
    data: dict[str, Any] = CONVERTER.unstructure(r)
    return data
