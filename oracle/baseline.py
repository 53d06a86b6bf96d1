"""Baselines: known disagreements an implementer accepts for now (YAML, docs/conformance.md).

    known:
      - scenario: PIL-MARKET-04-sell-limit        # a scenario id
      - kind: state                               # a kind of play-out disagreement ...
        path: "players.*.gold"                    # ... with a path pattern (fnmatch)
      - kind: accepted_illegal
        rule: PIL-MARKET-04                       # ... or our rule id

A finding an entry matches does not fail the run; an entry that matches no finding is stale
and fails the run (as in the MCP conformance runner), so a baseline only ever shrinks.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import attrs
import yaml

from oracle.findings import Finding, Report
from reference.core import yamlfile

KEYS = ("scenario", "kind", "rule", "path")


class BadBaseline(Exception):
    """The baseline file cannot be used."""


def load_baseline(path: Path) -> list[dict[str, str]]:
    """The entries of a baseline file; raises BadBaseline naming the problem."""
    try:
        data = yamlfile.load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadBaseline(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, yaml.YAMLError) as exc:
        raise BadBaseline(f"{path}: not a YAML file: {' '.join(str(exc).split())}") from exc
    known = data.get("known") if isinstance(data, dict) else None
    if not isinstance(known, list):
        raise BadBaseline(f"{path}: a baseline is a mapping with a list 'known'")
    entries = []
    for i, entry in enumerate(known):
        if (
            not isinstance(entry, dict)
            or not entry
            or set(entry) - {*KEYS, "reason"}
            or not all(isinstance(v, str) for v in entry.values())
            or not set(entry) & set(KEYS)
        ):
            keys = ", ".join(KEYS)
            raise BadBaseline(f"{path}: known[{i}] must map some of {keys} (and reason) to text")
        entries.append({k: v for k, v in entry.items() if k in KEYS})
    return entries


def entry_text(entry: dict[str, str]) -> str:
    """A baseline entry as the baseline file writes it: ``kind: state, path: bank``."""
    return ", ".join(f"{key}: {entry[key]}" for key in KEYS if key in entry)


def matches(entry: dict[str, str], finding: Finding) -> bool:
    """Whether a baseline entry covers a finding."""
    if "scenario" in entry and entry["scenario"] != finding.scenario_id:
        return False
    if "kind" in entry and entry["kind"] != finding.kind:
        return False
    if "rule" in entry and entry["rule"] != finding.rule:
        return False
    return "path" not in entry or fnmatchcase(finding.path or "", entry["path"])


def apply_baseline(report: Report, entries: list[dict[str, str]]) -> None:
    """Mark the findings the baseline covers; record the stale entries."""
    used = [False] * len(entries)
    for i, finding in enumerate(report.findings):
        for j, entry in enumerate(entries):
            if matches(entry, finding):
                report.findings[i] = attrs.evolve(finding, baselined=True)
                used[j] = True
    report.stale = [dict(e) for e, u in zip(entries, used, strict=True) if not u]


def entry_for(finding: Finding) -> dict[str, str]:
    """The baseline entry that covers a finding: what shows, its signature (kind, path, the
    rule ours refused by); the rule provenance names for a value, a turn or a result
    explains the finding and is left out, as it is of the signature."""
    if finding.scenario_id is not None:
        return {"scenario": finding.scenario_id}
    kind, path, rule = finding.signature()
    entry = {"kind": kind}
    if rule is not None:
        entry["rule"] = rule
    if path is not None:
        entry["path"] = path
    return entry


def baseline_text(report: Report) -> str:
    """A baseline file that covers every failing finding of the run."""
    entries: list[dict[str, Any]] = []
    for finding in report.findings:
        if finding.soft and not report.settings.strict_rules:
            continue
        entry = entry_for(finding)
        if entry not in entries:
            entries.append(entry)
    header = f"# rules-oracle conform baseline for {report.settings.game}\n"
    body: str = yaml.safe_dump({"known": entries}, sort_keys=False, width=100)
    return header + body
