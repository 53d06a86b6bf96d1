"""Turning verdicts and scenario results into text or JSON."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from oracle.formats.converter import CONVERTER

if TYPE_CHECKING:  # types only: validating logs needs neither scenarios nor XML (fast start)
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


Case = tuple[str, str, str | None, str]
"""A JUnit test case: name, class, failure kind (failure, error or None), message."""


def _junit_case(name: str, classname: str, kind: str | None, message: str) -> str:
    import xml.etree.ElementTree as ET

    case = ET.Element("testcase", name=name, classname=classname)
    if kind is not None:
        node = ET.SubElement(case, kind, message=message.splitlines()[0] if message else "")
        node.text = message
    return ET.tostring(case, encoding="unicode")


def junit_chunks(suite: str, cases: Iterable[Case]) -> Iterator[str]:
    """A JUnit XML report, piece by piece: the cases wait in a spooled file (to disk past
    a megabyte) until the counts that head the report are known."""
    import tempfile
    import xml.etree.ElementTree as ET

    tests = failures = errors = 0
    with tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8") as spool:
        for name, classname, kind, message in cases:
            tests += 1
            failures += kind == "failure"
            errors += kind == "error"
            spool.write(_junit_case(name, classname, kind, message))
        root = ET.Element(
            "testsuite", name=suite, tests=str(tests), failures=str(failures), errors=str(errors)
        )
        head = ET.tostring(root, encoding="unicode")
        if not tests:
            yield head
            return
        yield head.removesuffix(" />") + ">"
        spool.seek(0)
        yield from iter(lambda: spool.read(1 << 16), "")
        yield "</testsuite>"


def junit(suite: str, cases: list[Case]) -> str:
    """A JUnit XML report: one test case per (name, class, failure kind or None, message)."""
    return "".join(junit_chunks(suite, cases))


def verdict_case(v: Verdict, strict: bool) -> Case:
    """A verdict as a JUnit case: a failing verdict is a failure, our bug an error."""
    kind = None
    if v.kind == "internal_error":
        kind = "error"
    elif v.fails(strict):
        kind = "failure"
    return (v.log, v.game or "log", kind, verdict_text(v))


def verdicts_junit(verdicts: list[Verdict], strict: bool) -> str:
    """Validation verdicts as JUnit: a failing verdict is a failure, our bug an error."""
    return junit("rules-oracle validate", [verdict_case(v, strict) for v in verdicts])


def scenarios_junit(results: list[ScenarioResult]) -> str:
    """Scenario results as JUnit: fail is a failure, a broken file or our bug an error."""
    kinds = {"pass": None, "fail": "failure", "error": "error", "internal_error": "error"}
    cases = [
        (r.id or r.path, r.game or "scenario", kinds[r.status], scenario_text(r)) for r in results
    ]
    return junit("rules-oracle scenarios", cases)


KINDS = ("valid", "incomplete", "malformed", "illegal", "divergent", "internal_error")
"""Verdict kinds, in the order the totals give them."""


def verdict_summary(counts: Mapping[str, int]) -> dict[str, int]:
    """A run's totals: how many logs, and how many of each verdict kind."""
    return {"logs": sum(counts.values()), **{kind: counts.get(kind, 0) for kind in KINDS}}


def totals_text(counts: Mapping[str, int]) -> str:
    """The closing line of a text report."""
    s = verdict_summary(counts)
    return (
        f"{s['logs']} logs: {s['valid']} valid, {s['incomplete']} incomplete, "
        f"{s['malformed']} malformed, {s['illegal']} illegal, {s['divergent']} divergent, "
        f"{s['internal_error']} internal errors"
    )


def json_report_chunks(
    key: str,
    items: Iterable[Any],
    tail: Callable[[], dict[str, Any]],
    head: Mapping[str, Any] | None = None,
) -> Iterator[str]:
    """The text of ``json.dumps({**head, key: [items...], **tail()}, indent=1)``, made item
    by item (a corpus's report is never held whole; the tail, e.g. the summary, is asked for
    once every item is out)."""
    opening = json.dumps({**(head or {}), key: []}, indent=1)
    yield opening.removesuffix("[]\n}") + "["
    first = True
    for item in items:
        yield ("\n  " if first else ",\n  ") + json.dumps(item, indent=1).replace("\n", "\n  ")
        first = False
    yield "]" if first else "\n ]"
    rest = tail()
    yield ",\n" + json.dumps(rest, indent=1)[2:] if rest else "\n}"
