"""A conform run as text (each finding with what it involves, the summary last), JSON
(versioned, with a JSON Schema at rules_oracle/schemas/report-conform.schema.json) or JUnit
XML. Each says how much was checked."""

from __future__ import annotations

import json
from typing import Any

import attrs

from oracle.baseline import entry_text
from oracle.coverage import coverage_json, coverage_properties, coverage_text
from oracle.findings import Finding, Report
from oracle.report import JunitCase, junit

REPORT_FORMAT = "rules-oracle-conform-report"
REPORT_VERSION = 1


def _status(report: Report, f: Finding) -> str:
    if f.baselined:
        return "KNOWN"
    if f.soft and not report.settings.strict_rules:
        return "SOFT"
    return "FAIL"


FAULTS = ("crash", "hang", "garbage", "shape", "error")
STDERR_SHOWN = 10
"""The text report shows at most this many of the engine's last stderr lines."""


def finding_line(report: Report, f: Finding) -> str:
    """One line: status, part, kind, where, what (and the shrink)."""
    where = [f.case] if f.case else []
    if f.given is not None:
        where.append(f"from a given position, after {len(f.events)} steps")
    elif f.event_index is not None:
        where.append(f"after {f.event_index} events")
    if f.scenario_id and f.scenario_id != f.case:
        where.append(f"scenario {f.scenario_id}")
    text = f"{_status(report, f)} {f.part} {f.kind} [{', '.join(where)}]: {f.message}"
    if f.rule:
        text += f" (rule {f.rule}" + (f": {f.citation}" if f.citation else "") + ")"
    if f.rule_reason:
        text += f" [{f.rule_reason}]"
    text += _shrunk(f)
    if f.request is not None and f.kind in FAULTS:
        text += f" (last request: {f.request.get('op')})"
    return " ".join(text.split())


def _shrunk(f: Finding) -> str:
    if f.shrink == "position" and f.given is not None:
        return (
            f" [shrunk {f.shrunk_from} events -> a given position of {len(f.given)} values"
            f" and {len(f.steps)} steps]"
        )
    if f.shrunk_from is not None:
        return f" [shrunk {f.shrunk_from} -> {len(f.events)} events]"
    if f.shrink:
        return f" [{f.shrink}]"
    return ""


def finding_text(report: Report, f: Finding, save_option: str = "--save") -> str:
    """The finding's line, then what it involves, indented: the event (the one the engine
    accepted, refused, played or failed on), the engine's last stderr lines, and where its
    case is saved (or how to save it: with ``save_option``, the caller's own)."""
    lines = [finding_line(report, f)]
    if f.probe is not None:
        lines.append(f"  event: {json.dumps(f.probe)}")
    if f.their_rule is not None and f.kind != "rule_id":
        lines.append(f"  the engine's rule: {f.their_rule}")
    if f.stderr and (f.kind in FAULTS or not f.soft):
        shown = list(f.stderr)[-STDERR_SHOWN:]
        lines.append(f"  the engine's stderr (last {len(shown)} lines):")
        lines += [f"    {line}" for line in shown]
    if f.saved is not None:
        lines.append(f"  saved: {f.saved}")
    elif f.scenario is not None or f.log is not None:
        lines.append(f"  case: save it with {save_option} DIR (a scenario and a v1 log)")
    return "\n".join(lines)


def checked_parts(report: Report) -> list[str]:
    """How much was checked, part by part (the summary's middle)."""
    c = report.counts
    parts = [
        f"{c.games} play-outs ({c.events} events, {c.paths_compared} state paths compared, "
        f"{c.paths_unanswered} unanswered, {c.legal_sets} legal sets, {c.probes} probes)",
        f"scenarios {c.scenarios_passed} passed, {c.scenarios_failed} failed, "
        f"{c.scenarios_skipped} skipped",
        f"{c.engine_games} engine games ({c.engine_events} events)",
    ]
    if c.perft_positions or c.perft_skipped:
        parts.append(
            f"perft {c.perft_positions} positions ({c.perft_sequences} sequences, "
            f"{c.perft_skipped} skipped)"
        )
    if report.option_matrix_size:
        played = len(report.option_settings)
        parts.append(f"option settings {played} of {report.option_matrix_size} played")
    if report.rules_exercised is not None:
        coverage = report.rules_exercised
        parts.append(
            f"rules exercised {len(coverage.exercised())} of {len(coverage.rules)} "
            f"({coverage.percent():.1f}%)"
        )
    return parts


def summary_line(report: Report) -> str:
    failing = len(report.failing())
    verdict = "PASS" if report.passed() else "FAIL"
    parts = [f"{verdict}: {failing} failing, {len(report.findings)} findings"]
    parts += checked_parts(report)
    if report.stale:
        parts.append(f"{len(report.stale)} stale baseline entries")
    shrinking = f" ({report.shrink_seconds:.1f} s shrinking)" if report.shrink_seconds else ""
    parts.append(f"{report.seconds:.1f} s{shrinking}")
    return "; ".join(parts)


def report_text(report: Report) -> str:
    lines = [finding_text(report, f) for f in report.findings]
    lines += [f"chance: {name}" for part, name in report.cases if part == "chance" and ":" in name]
    lines += [f"STALE baseline entry no longer fails: {entry_text(e)}" for e in report.stale]
    if report.rules_exercised is not None:
        lines.append(coverage_text(report.rules_exercised))  # oracle/coverage.py
    lines.append(summary_line(report))
    return "\n".join(lines)


def finding_json(report: Report, f: Finding) -> dict[str, Any]:
    data = attrs.asdict(f)
    data["status"] = _status(report, f).lower()
    data["events"] = len(f.events)
    data["choices"] = list(f.choices)
    data["players"] = list(f.players)
    data["stderr"] = list(f.stderr)
    data["steps"] = [dict(e) for e in f.steps]
    return data


def report_json(report: Report) -> dict[str, Any]:
    s = report.settings
    return {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "passed": report.passed(),
        "engine": {"command": s.engine, "name": report.engine_name},
        "capabilities": list(report.capabilities),
        "settings": {
            "game": s.game,
            "players": list(s.players),
            "seed": s.seed,
            "games": s.games,
            "timeout": s.timeout,
            "strict_rules": s.strict_rules,
            "parts": list(s.parts),
            "options": s.options,
            "option_matrix": s.option_matrix,
            "shrink_seconds": s.shrink_seconds,
        },
        "counts": attrs.asdict(report.counts),
        "option_settings": report.option_settings,
        "rules_exercised": (
            None if report.rules_exercised is None else coverage_json(report.rules_exercised)
        ),
        "cases": [{"part": p, "name": n} for p, n in report.cases],
        "findings": [finding_json(report, f) for f in report.findings],
        "stale": report.stale,
        "seconds": round(report.seconds, 3),
        "shrink_seconds": round(report.shrink_seconds, 3),
    }


def report_properties(report: Report) -> dict[str, str]:
    """How much was checked, as JUnit properties (``counts.<name>``, ``rules_exercised``)."""
    properties = {f"counts.{k}": str(v) for k, v in attrs.asdict(report.counts).items()}
    if report.option_matrix_size:
        properties["option_settings"] = f"{len(report.option_settings)}"
        properties["option_matrix"] = f"{report.option_matrix_size}"
    if report.rules_exercised is not None:
        properties.update(coverage_properties(report.rules_exercised))  # oracle/coverage.py
    return properties


def report_junit(report: Report) -> str:
    """One test case per play-out, scenario and engine game (a failure names the kinds of its
    findings), a session fault as an error, a stale baseline entry as a failure."""
    game = report.settings.game
    cases: list[JunitCase] = []
    failing = report.failing()
    for part, name in report.cases:
        mine = [f for f in failing if f.case == name]
        message = "\n".join(finding_text(report, f) for f in mine)
        kinds = ",".join(dict.fromkeys(f.kind for f in mine))
        element = "failure" if mine else None
        cases.append((name, f"conform.{game}.{part}", element, kinds, message))
    for f in failing:
        if f.case == "session":
            cases.append(("session", f"conform.{game}", "error", f.kind, finding_line(report, f)))
    for entry in report.stale:
        cases.append(
            ("baseline", f"conform.{game}", "failure", "stale", f"stale: {entry_text(entry)}")
        )
    coverage = report.rules_exercised
    if coverage is not None and coverage.minimum is not None:  # --min-coverage: a case
        failed = not coverage.passed()
        text = coverage_text(coverage).splitlines()[-1] if failed else ""
        element = "failure" if failed else None
        cases.append(("rule-coverage", f"conform.{game}", element, "coverage", text))
    return junit(f"rules-oracle conform {game}", cases, report.seconds, report_properties(report))
