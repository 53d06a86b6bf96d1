"""A conform run as text (one line per finding, the summary last), JSON (versioned, with a
JSON Schema at rules_oracle/schemas/report-conform.schema.json) or JUnit XML."""

from __future__ import annotations

from typing import Any

import attrs

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


def finding_line(report: Report, f: Finding) -> str:
    """One line: status, part, kind, where, what (and the shrink)."""
    where = [f.case] if f.case else []
    if f.event_index is not None:
        where.append(f"after {f.event_index} events")
    if f.scenario_id and f.scenario_id != f.case:
        where.append(f"scenario {f.scenario_id}")
    text = f"{_status(report, f)} {f.part} {f.kind} [{', '.join(where)}]: {f.message}"
    if f.rule:
        text += f" (rule {f.rule}" + (f": {f.citation}" if f.citation else "") + ")"
    if f.rule_reason:
        text += f" [{f.rule_reason}]"
    if f.shrunk_from is not None:
        text += f" [shrunk {f.shrunk_from} -> {len(f.events)} events]"
    if f.request is not None and f.kind in ("crash", "hang", "garbage", "shape", "error"):
        text += f" (last request: {f.request.get('op')})"
    return " ".join(text.split())


def summary_line(report: Report) -> str:
    c = report.counts
    failing = len(report.failing())
    verdict = "PASS" if report.passed() else "FAIL"
    parts = [
        f"{verdict}: {failing} failing, {len(report.findings)} findings",
        f"{c.games} play-outs ({c.events} events, {c.paths_compared} paths compared, "
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
    if report.stale:
        parts.append(f"{len(report.stale)} stale baseline entries")
    parts.append(f"{report.seconds:.1f} s")
    return "; ".join(parts)


def report_text(report: Report) -> str:
    lines = [finding_line(report, f) for f in report.findings]
    lines += [f"STALE baseline entry no longer fails: {entry}" for entry in report.stale]
    if report.coverage is not None:
        lines.append(coverage_text(report.coverage))  # oracle/coverage.py
    lines.append(summary_line(report))
    return "\n".join(lines)


def finding_json(report: Report, f: Finding) -> dict[str, Any]:
    data = attrs.asdict(f)
    data["status"] = _status(report, f).lower()
    data["events"] = len(f.events)
    data["choices"] = list(f.choices)
    data["players"] = list(f.players)
    data["stderr"] = list(f.stderr)
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
        },
        "counts": attrs.asdict(report.counts),
        "cases": [{"part": p, "name": n} for p, n in report.cases],
        "findings": [finding_json(report, f) for f in report.findings],
        "stale": report.stale,
        "seconds": round(report.seconds, 3),
        "coverage": None if report.coverage is None else coverage_json(report.coverage),
    }


def report_junit(report: Report) -> str:
    """One test case per play-out, scenario and engine game (a failure names the kinds of its
    findings), a session fault as an error, a stale baseline entry as a failure."""
    game = report.settings.game
    cases: list[JunitCase] = []
    failing = report.failing()
    for part, name in report.cases:
        mine = [f for f in failing if f.case == name]
        message = "\n".join(finding_line(report, f) for f in mine)
        kinds = ",".join(dict.fromkeys(f.kind for f in mine))
        element = "failure" if mine else None
        cases.append((name, f"conform.{game}.{part}", element, kinds, message))
    for f in failing:
        if f.case == "session":
            cases.append(("session", f"conform.{game}", "error", f.kind, finding_line(report, f)))
    for entry in report.stale:
        cases.append(("baseline", f"conform.{game}", "failure", "stale", f"stale: {entry}"))
    properties: list[tuple[str, str]] = []
    if report.coverage is not None:  # oracle/coverage.py: the share as properties, and a
        properties = coverage_properties(report.coverage)  # case when a minimum is set
        if report.coverage.minimum is not None:
            failed = not report.coverage.passed()
            text = coverage_text(report.coverage).splitlines()[-1] if failed else ""
            element = "failure" if failed else None
            cases.append(("rule-coverage", f"conform.{game}", element, "coverage", text))
    return junit(f"rules-oracle conform {game}", cases, report.seconds, properties)
