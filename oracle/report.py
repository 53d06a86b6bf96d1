"""Turning verdicts and scenario results into text or JSON."""

from __future__ import annotations

import json
import socket
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from typing import Any

from oracle.formats.converter import CONVERTER
from oracle.replay import FAILING, Verdict
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
    if (v.placeholders or v.placeholder_rules) and v.kind != "malformed":
        if v.kind == "illegal":
            lines.append("  this verdict rests on unconfirmed values: " + _basis_text(v))
        else:
            lines.append(
                "  placeholder data in force (unconfirmed values; replace with --profile): "
                + ", ".join(v.placeholders)
            )
    return "\n".join(lines + _teaching_lines(v))


_STATUS_WORDS = {
    "rulebook": "the rulebook says so",
    "seed": "from the seed documents",
    "secondary": "from a secondary source, not the rulebook",
    "ruling": "our ruling, where the sources are silent",
    "placeholder": "a placeholder nobody has confirmed",
}


def _teaching_lines(v: Verdict) -> list[str]:
    """What would have been legal: the rule's standing, the option that allows the event,
    and the events that were legal there."""
    lines = []
    if v.rule_status:
        lines.append(f"  rule status: {v.rule_status} ({_STATUS_WORDS.get(v.rule_status, '?')})")
    if v.legal_under:
        setting = ", ".join(f"{k}={json.dumps(value)}" for k, value in v.legal_under.items())
        lines.append(f"  legal with option {setting} (checked by replaying the log with it)")
    if v.legal_count is not None:
        actor = "chance outcomes due" if v.to_act == "chance" else f"legal for {v.to_act}"
        if v.legal_count == 0:
            lines.append("  nothing was legal there")
        elif v.legal_count <= len(v.legal):
            lines.append(f"  {actor} there ({v.legal_count}):")
        else:
            lines.append(f"  {actor} there: {v.legal_count}, for example:")
        lines += [f"    {json.dumps(event)}" for event in v.legal]
    return lines


def _basis_text(item: Verdict | ScenarioResult) -> str:
    """The unconfirmed rules and data values a verdict or result rests on, in words."""
    rules = [f"rule {rule_id} is a placeholder" for rule_id in item.placeholder_rules]
    return "; ".join(rules + [f"data {key} is a placeholder" for key in item.placeholders])


def verdict_json(v: Verdict) -> dict[str, Any]:
    """A verdict as a JSON object (the state is included only when asked for with --at)."""
    data: dict[str, Any] = CONVERTER.unstructure(v)
    if v.state_at is None:
        data.pop("state_at")
    return data


REPORT_FORMAT = "rules-oracle-report"
REPORT_VERSION = 1
"""The JSON reports' version (docs/schemas/report-*.schema.json): raised on any change
that could break a reader."""
VERDICT_STATUSES = ("valid", "incomplete", "malformed", "illegal", "divergent", "internal_error")
SCENARIO_STATUSES = ("pass", "fail", "error", "internal_error")
_SHARED_NAMES = {"log": "file", "path": "file", "kind": "status", "reason": "message"}
"""Verdicts and scenario results use the same names in reports: file, status, message."""


def json_report(
    command: str, items: list[dict[str, Any]], statuses: tuple[str, ...], failing: set[str]
) -> dict[str, Any]:
    """A JSON report: format, version, command, a summary (counts by status) and results."""
    results = [{_SHARED_NAMES.get(k, k): value for k, value in item.items()} for item in items]
    counts = {status: 0 for status in statuses}
    for result in results:
        counts[result["status"]] = counts.get(result["status"], 0) + 1
    failed = sum(n for status, n in counts.items() if status in failing)
    return {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "command": command,
        "summary": {
            "total": len(results),
            "passed": len(results) - failed,
            "failed": failed,
            "by_status": counts,
        },
        "results": results,
    }


def validate_report(items: list[dict[str, Any]], strict: bool) -> dict[str, Any]:
    """The JSON report of ``validate``: verdicts as ``verdict_json`` gives them."""
    failing = set(FAILING) | ({"incomplete"} if strict else set())
    return json_report("validate", items, VERDICT_STATUSES, failing)


def scenarios_report(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON report of ``scenarios``: results as ``scenario_json`` gives them."""
    return json_report("scenarios", items, SCENARIO_STATUSES, {"fail", "error", "internal_error"})


def scenario_text(r: ScenarioResult) -> str:
    """One line per scenario, with the reason when it did not pass."""
    where = f"{r.path}:{r.line}" if r.line else r.path
    label = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "internal_error": "INTERNAL"}[
        r.status
    ]
    text = f"{label} {r.id or '?'} ({where})"
    if r.reason:
        text += f": {r.reason}"
    if r.status == "pass" and (r.placeholders or r.placeholder_rules):
        text += f" [rests on placeholders: {_basis_text(r)}]"
    return text


def scenario_json(r: ScenarioResult) -> dict[str, Any]:
    """A scenario result as a JSON object."""
    data: dict[str, Any] = CONVERTER.unstructure(r)
    return data


JunitCase = tuple[str, str, str | None, str, str]
"""(name, class name, ``failure``/``error`` or None, failure type, message)."""


def junit(suite: str, cases: list[JunitCase], elapsed: float = 0.0) -> str:
    """A JUnit XML report (the Jenkins xUnit schema, tests/junit/junit-10.xsd): one test
    case per (name, class, failure element or None, failure type, message), with the run's
    time in seconds, when it ran (UTC) and on which host."""
    failures = sum(1 for case in cases if case[2] == "failure")
    errors = sum(1 for case in cases if case[2] == "error")
    root = ET.Element(
        "testsuite",
        name=suite,
        tests=str(len(cases)),
        failures=str(failures),
        errors=str(errors),
        skipped="0",
        time=f"{max(elapsed, 0.0):.3f}",
        timestamp=datetime.now(UTC).replace(tzinfo=None).isoformat(timespec="seconds"),
        hostname=socket.gethostname(),
    )
    for name, classname, element, kind, message in cases:
        case = ET.SubElement(root, "testcase", name=name, classname=classname)
        if element is not None:
            first = message.splitlines()[0] if message else ""
            node = ET.SubElement(case, element, message=first, type=kind)
            node.text = message
    return ET.tostring(root, encoding="unicode")


def verdicts_junit(verdicts: list[Verdict], strict: bool, elapsed: float = 0.0) -> str:
    """Validation verdicts as JUnit: a failing verdict is a failure (its type the verdict:
    illegal, divergent, malformed, incomplete), our bug an error."""
    cases: list[JunitCase] = []
    for v in verdicts:
        element = None
        if v.kind == "internal_error":
            element = "error"
        elif v.fails(strict):
            element = "failure"
        cases.append((v.log, v.game or "log", element, v.kind, verdict_text(v)))
    return junit("rules-oracle validate", cases, elapsed)


def scenarios_junit(results: list[ScenarioResult], elapsed: float = 0.0) -> str:
    """Scenario results as JUnit: fail is a failure, a broken file or our bug an error."""
    elements = {"pass": None, "fail": "failure", "error": "error", "internal_error": "error"}
    cases: list[JunitCase] = [
        (r.id or r.path, r.game or "scenario", elements[r.status], r.status, scenario_text(r))
        for r in results
    ]
    return junit("rules-oracle scenarios", cases, elapsed)
