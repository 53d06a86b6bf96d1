"""Conformance runs: drive another implementation over the engine protocol and compare it
with the reference (what ``rules-oracle conform`` does; docs/conformance.md).

    from rules_oracle import conformance

    settings = conformance.Settings(engine="./my-engine", game="pillars", players=(2,))
    report = conformance.Conformance(settings).run()
    print(conformance.report_text(report))
    assert report.passed()

``Settings`` (engine command, game, player counts, seed, games, timeout, strict_rules,
parts: some of ``PARTS``, ``DEFAULT_PARTS`` unless named, scenarios_dir, shrink_seconds for
the whole run, options, option_matrix, chance_draws, reach: the play-outs from rare ends and
scenario positions, min_coverage: the share of rules the run must exercise) says what to
run; ``Report`` holds the findings, each with a ready-to-commit ``log`` and ``scenario`` when
it has one (``saved_at`` notes where a caller wrote them), ``rules_exercised``: the rule
coverage (each catalogue rule's counts, accepted under it and refused by it, ``percent()``,
``not_exercised()``), and ``checked_nothing()`` says whether the run compared nothing (never
a pass). A baseline file lists known disagreements: ``load_baseline`` (raises
``BadBaseline``), ``apply_baseline`` marks them in a report, ``matches`` tells whether an
entry covers one ``Finding``, ``baseline_text`` writes one from a report, ``entry_text``
says one entry; ``finding_line`` is one finding's line in the text report, ``finding_text``
that line with what the finding involves.
"""

from __future__ import annotations

from oracle.baseline import (
    BadBaseline,
    apply_baseline,
    baseline_text,
    entry_text,
    load_baseline,
    matches,
)
from oracle.conform import Conformance
from oracle.conform_report import (
    finding_line,
    finding_text,
    report_json,
    report_junit,
    report_text,
)
from oracle.findings import DEFAULT_PARTS, PARTS, Finding, Report, Settings, saved_at

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
    "entry_text",
    "finding_line",
    "finding_text",
    "load_baseline",
    "matches",
    "report_json",
    "report_junit",
    "report_text",
    "saved_at",
]
