"""Conformance runs: drive another implementation over the engine protocol and compare it
with the reference (what ``rules-oracle conform`` does; docs/conformance.md).

    from rules_oracle import conformance

    settings = conformance.Settings(engine="./my-engine", game="pillars", players=(2,))
    report = conformance.Conformance(settings).run()
    print(conformance.report_text(report))
    assert report.passed()

``Settings`` (engine command, game, player counts, seed, games, timeout, strict_rules,
parts: some of ``PARTS``, scenarios_dir, shrink_seconds) says what to run; ``Report`` holds
the findings, each with a ready-to-commit ``log`` and ``scenario`` when it has one. A
baseline file lists known disagreements: ``load_baseline`` (raises ``BadBaseline``),
``apply_baseline`` marks them in a report, ``baseline_text`` writes one from a report.
"""

from __future__ import annotations

from oracle.baseline import BadBaseline, apply_baseline, baseline_text, load_baseline
from oracle.conform import PARTS, Conformance, Report, Settings
from oracle.conform_report import report_json, report_junit, report_text

__all__ = [
    "PARTS",
    "BadBaseline",
    "Conformance",
    "Report",
    "Settings",
    "apply_baseline",
    "baseline_text",
    "load_baseline",
    "report_json",
    "report_junit",
    "report_text",
]
