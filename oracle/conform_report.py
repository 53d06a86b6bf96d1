"""A conform run as text (one line per finding, the summary last), JSON (versioned, with a
JSON Schema at rules_oracle/schemas/report-conform.schema.json) or JUnit XML."""

from __future__ import annotations

from typing import Any

import attrs

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
    if f.rule and f.kind in ("accepted_illegal", "changed_by_refusal", "rule_id"):
        text += f" (rule {f.rule}" + (f": {f.citation}" if f.citation else "") + ")"
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
    if report.stale:
        parts.append(f"{len(report.stale)} stale baseline entries")
    parts.append(f"{report.seconds:.1f} s")
    return "; ".join(parts)


def report_text(report: Report) -> str:
    lines = [finding_line(report, f) for f in report.findings]
    lines += [f"chance: {name}" for part, name in report.cases if part == "chance" and ":" in name]
    lines += [f"STALE baseline entry no longer fails: {entry}" for entry in report.stale]
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
    return junit(f"rules-oracle conform {game}", cases, report.seconds)
