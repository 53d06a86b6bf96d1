"""Turning verdicts and scenario results into text or JSON."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

from oracle.formats.converter import CONVERTER
from oracle.replay import Verdict
from oracle.scenarios import ScenarioResult


def verdict_text(v: Verdict, placeholders_noted: bool = False) -> str:
    """A verdict in a few lines: the first says it all, the others give details.
    ``placeholders_noted``: the run already said which placeholder data is in force (the
    note is given once per run; a verdict resting on a placeholder still says so)."""
    where = ""
    if v.event_index is not None:
        where = f" at event {v.event_index}"
    if v.line is not None:
        where += f" (line {v.line})"
    head = f"{v.log}: {v.kind}{where}"
    if v.kind == "valid":
        head += f" ({v.game}, {v.events} events)"
    if v.kind == "illegal":
        who = " ".join(x for x in (v.player, v.action) if x)
        head += f": {who}: {v.rule_id} ({v.rule_title or 'no title'}): {v.message}"
    elif v.message:
        head += f": {v.message}"
    lines = [head]
    if v.kind == "illegal" and v.citation:
        lines.append(f"  source: {v.citation}")
    for d in v.divergences:
        lines.append(
            f"  {d.path}: claimed {json.dumps(d.claimed)}, reference {json.dumps(d.reference)}"
        )
        if d.causes:
            lines.append(f"    <- {', '.join(d.causes)}")
    if v.placeholders and v.kind != "malformed":
        if v.kind == "illegal":
            lines.append("  this verdict rests on unconfirmed values: " + "; ".join(v.placeholders))
        elif not placeholders_noted:
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


def junit(suite: str, cases: list[tuple[str, str, str | None, str]]) -> str:
    """A JUnit XML report: one test case per (name, class, failure kind or None, message)."""
    failures = sum(1 for _, _, kind, _ in cases if kind == "failure")
    errors = sum(1 for _, _, kind, _ in cases if kind == "error")
    root = ET.Element(
        "testsuite",
        name=suite,
        tests=str(len(cases)),
        failures=str(failures),
        errors=str(errors),
    )
    for name, classname, kind, message in cases:
        case = ET.SubElement(root, "testcase", name=name, classname=classname)
        if kind is not None:
            node = ET.SubElement(case, kind, message=message.splitlines()[0] if message else "")
            node.text = message
    return ET.tostring(root, encoding="unicode")


def verdicts_junit(verdicts: list[Verdict], strict: bool) -> str:
    """Validation verdicts as JUnit: a failing verdict is a failure, our bug an error."""
    cases = []
    for v in verdicts:
        kind = None
        if v.kind == "internal_error":
            kind = "error"
        elif v.fails(strict):
            kind = "failure"
        cases.append((v.log, v.game or "log", kind, verdict_text(v)))
    return junit("rules-oracle validate", cases)


def scenarios_junit(results: list[ScenarioResult]) -> str:
    """Scenario results as JUnit: fail is a failure, a broken file or our bug an error."""
    kinds = {"pass": None, "fail": "failure", "error": "error", "internal_error": "error"}
    cases = [
        (r.id or r.path, r.game or "scenario", kinds[r.status], scenario_text(r)) for r in results
    ]
    return junit("rules-oracle scenarios", cases)
