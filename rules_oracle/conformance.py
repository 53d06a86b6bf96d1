"""Conformance runs: drive another implementation over the engine protocol and compare it
with the reference (what ``rules-oracle conform`` does; docs/conformance.md).

    from rules_oracle import conformance

    settings = conformance.Settings(engine="./my-engine", game="pillars", players=(2,))
    report = conformance.Conformance(settings).run()
    print(conformance.report_text(report))
    assert report.passed()

``Settings`` (engine command, game, player counts, seed, games, timeout, strict_rules,
parts: some of ``PARTS``, ``DEFAULT_PARTS`` unless named, scenarios_dir, shrink_seconds,
reach: the play-outs from rare ends and scenario positions, min_coverage: the share of rules
the run must exercise) says what to run; ``Report`` holds the findings, each with a
ready-to-commit ``log`` and ``scenario`` when it has one, and ``coverage``: each catalogue
rule's counts (accepted under it, refused by it), ``percent()`` and ``not_exercised()``. A
baseline file lists known disagreements: ``load_baseline`` (raises ``BadBaseline``),
``apply_baseline`` marks them in a report, ``matches`` tells whether an entry covers one
``Finding``, ``baseline_text`` writes one from a report; ``finding_line`` is one finding as
the text report says it.
"""

from __future__ import annotations

from oracle.baseline import BadBaseline, apply_baseline, baseline_text, load_baseline, matches
from oracle.conform import Conformance
from oracle.conform_report import finding_line, report_json, report_junit, report_text
from oracle.findings import DEFAULT_PARTS, PARTS, Finding, Report, Settings

__all__ = [
    "DEFAULT_PARTS",
    "PARTS",
    "BadBaseline",
    "Conformance",
    "Finding",
    "Report",
    "Settings",
    "apply_baseline",
    "baseline_text",
    "finding_line",
    "load_baseline",
    "matches",
    "report_json",
    "report_junit",
    "report_text",
]
