"""Turning verdicts and scenario results into JSON or JUnit reports; the text lines are
in ``oracle.report_text`` (re-exported here), which a text ``validate`` imports alone."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from oracle.report_text import MAX_SHOWN_CHARS as MAX_SHOWN_CHARS
from oracle.report_text import MAX_SHOWN_DEPTH as MAX_SHOWN_DEPTH
from oracle.report_text import VERDICT_STATUSES as VERDICT_STATUSES
from oracle.report_text import _escaped
from oracle.report_text import json_safe as json_safe
from oracle.report_text import scenario_text as scenario_text
from oracle.report_text import shown as shown
from oracle.report_text import text_safe as text_safe
from oracle.report_text import totals_text as totals_text
from oracle.report_text import unrenderable as unrenderable
from oracle.report_text import verdict_text as verdict_text

if TYPE_CHECKING:  # types only: validating logs needs neither scenarios nor XML (fast start)
    from oracle.replay import Verdict
    from oracle.scenarios import ScenarioResult

T = TypeVar("T")

JUNIT_SPOOL_BYTES = 64 * 1024
"""JUnit cases wait in memory up to this many bytes, then on disk, so a long run's report
costs hardly more memory than a short one's."""

_XML_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` fit for XML 1.0: characters it cannot carry written as visible escapes."""
    return _XML_UNSAFE.sub(_escaped, text)


def each_rendered(
    items: list[T], render: Callable[[T], Any], failed: Callable[[T, Exception], Any]
) -> tuple[list[Any], int]:
    """``render`` of each item, and how many failed; an item whose rendering fails (our
    bug) is rendered by ``failed`` instead, so one item never loses the others."""
    out, failures = [], 0
    for item in items:
        try:
            out.append(render(item))
        except Exception as exc:  # noqa: BLE001 - reported as ours by ``failed``, never hidden
            out.append(failed(item, exc))
            failures += 1
    return out, failures


def verdict_json(v: Verdict) -> dict[str, Any]:
    """A verdict as a JSON object (the state is included only when asked for with --at)."""
    data: dict[str, Any] = json_safe(v)
    if v.state_at is None:
        data.pop("state_at")
    return data


REPORT_FORMAT = "rules-oracle-report"
REPORT_VERSION = 1
"""The JSON reports' version (docs/schemas/report-*.schema.json): raised on any change
that could break a reader."""
SCENARIO_STATUSES = ("pass", "fail", "error", "internal_error")
_SHARED_NAMES = {"log": "file", "path": "file", "kind": "status", "reason": "message"}
"""Verdicts and scenario results use the same names in reports: file, status, message."""


def shared_names(item: Mapping[str, Any]) -> dict[str, Any]:
    """A verdict's or result's JSON object with the names reports share (file, status,
    message)."""
    return {_SHARED_NAMES.get(k, k): value for k, value in item.items()}


def report_head(command: str) -> dict[str, Any]:
    """What opens every JSON report: its format, version and command."""
    return {"format": REPORT_FORMAT, "version": REPORT_VERSION, "command": command}


def report_summary(
    counts: Mapping[str, int], statuses: tuple[str, ...], failing: set[str]
) -> dict[str, Any]:
    """A report's summary from its counts by status: total, passed, failed, by status."""
    by_status = {status: counts.get(status, 0) for status in statuses}
    total = sum(by_status.values())
    failed = sum(n for status, n in by_status.items() if status in failing)
    return {"total": total, "passed": total - failed, "failed": failed, "by_status": by_status}


def json_report(
    command: str, items: list[dict[str, Any]], statuses: tuple[str, ...], failing: set[str]
) -> dict[str, Any]:
    """A JSON report: format, version, command, results and a summary (counts by status)."""
    results = [shared_names(item) for item in items]
    counts: dict[str, int] = {}
    for result in results:
        counts[result["status"]] = counts.get(result["status"], 0) + 1
    summary = report_summary(counts, statuses, failing)
    return {**report_head(command), "results": results, "summary": summary}


def validate_failing(strict: bool) -> set[str]:
    """The verdict kinds that fail a validate run."""
    return {"malformed", "illegal", "divergent", "internal_error"} | (
        {"incomplete"} if strict else set()
    )


def validate_report(items: list[dict[str, Any]], strict: bool) -> dict[str, Any]:
    """The JSON report of ``validate``: verdicts as ``verdict_json`` gives them."""
    return json_report("validate", items, VERDICT_STATUSES, validate_failing(strict))


def validate_report_chunks(
    items: Iterable[dict[str, Any]], counts: Mapping[str, int], strict: bool
) -> Iterator[str]:
    """The text of ``validate_report`` for verdicts (as ``verdict_json`` gives them) as
    they arrive, never held whole; the summary, from ``counts`` of the verdicts' kinds,
    comes last."""
    items = (shared_names(item) for item in items)

    def tail() -> dict[str, Any]:
        return {"summary": report_summary(counts, VERDICT_STATUSES, validate_failing(strict))}

    return json_report_chunks("results", items, tail, report_head("validate"))


def scenarios_report(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON report of ``scenarios``: results as ``scenario_json`` gives them."""
    return json_report("scenarios", items, SCENARIO_STATUSES, {"fail", "error", "internal_error"})


def scenario_json(r: ScenarioResult) -> dict[str, Any]:
    """A scenario result as a JSON object."""
    data: dict[str, Any] = json_safe(r)
    return data


JunitCase = tuple[str, str, str | None, str, str]
"""(name, class name, ``failure``/``error`` or None, failure type, message)."""


def _junit_case(case: JunitCase) -> str:
    import xml.etree.ElementTree as ET

    name, classname, element, kind, message = case
    node = ET.Element("testcase", name=xml_safe(name), classname=xml_safe(classname))
    if element is not None:
        first = message.splitlines()[0] if message else ""
        failure = ET.SubElement(node, element, message=xml_safe(first), type=xml_safe(kind))
        failure.text = xml_safe(message)
    return ET.tostring(node, encoding="unicode")


def junit_chunks(
    suite: str,
    cases: Iterable[JunitCase],
    elapsed: Callable[[], float] = lambda: 0.0,
    properties: Sequence[tuple[str, str]] = (),
) -> Iterator[str]:
    """A JUnit XML report (the Jenkins xUnit schema, tests/junit/junit-10.xsd), piece by
    piece: the cases wait in a spooled file (on disk past JUNIT_SPOOL_BYTES) until the
    counts that head the report are known, with the run's time in seconds (``elapsed()``
    once every case is out), when it ran (UTC) and on which host; ``properties`` (name,
    value) come first, as the suite's ``<properties>``."""
    import socket
    import tempfile
    import xml.etree.ElementTree as ET
    from datetime import UTC, datetime

    tests = failures = errors = 0
    with tempfile.SpooledTemporaryFile(
        max_size=JUNIT_SPOOL_BYTES, mode="w+", encoding="utf-8"
    ) as spool:
        for case in cases:
            tests += 1
            failures += case[2] == "failure"
            errors += case[2] == "error"
            spool.write(_junit_case(case))
        root = ET.Element(
            "testsuite",
            name=xml_safe(suite),
            tests=str(tests),
            failures=str(failures),
            errors=str(errors),
            skipped="0",
            time=f"{max(elapsed(), 0.0):.3f}",
            timestamp=datetime.now(UTC).replace(tzinfo=None).isoformat(timespec="seconds"),
            hostname=socket.gethostname(),
        )
        head = ET.tostring(root, encoding="unicode")
        if not tests and not properties:
            yield head
            return
        yield head.removesuffix(" />") + ">"
        if properties:
            node = ET.Element("properties")
            for name, value in properties:
                ET.SubElement(node, "property", name=xml_safe(name), value=xml_safe(value))
            yield ET.tostring(node, encoding="unicode")
        spool.seek(0)
        yield from iter(lambda: spool.read(1 << 16), "")
        yield "</testsuite>"


def junit(
    suite: str,
    cases: list[JunitCase],
    elapsed: float = 0.0,
    properties: Sequence[tuple[str, str]] = (),
) -> str:
    """A JUnit XML report: one test case per (name, class, failure element or None, failure
    type, message), and the suite's properties (name, value)."""
    return "".join(junit_chunks(suite, cases, lambda: elapsed, properties))


def verdict_case(v: Verdict, strict: bool) -> JunitCase:
    """A verdict as a JUnit case: a failing verdict is a failure (its type the verdict:
    illegal, divergent, malformed, incomplete), our bug an error (a verdict we cannot
    render too: its case says so)."""
    element = None
    if v.kind == "internal_error":
        element = "error"
    elif v.fails(strict):
        element = "failure"
    try:
        text = verdict_text(v)
    except Exception as exc:  # noqa: BLE001 - reported as ours in this case, never hidden
        return (v.log, v.game or "log", "error", "internal_error", unrenderable(v.log, exc))
    return (v.log, v.game or "log", element, v.kind, text)


def scenario_case(r: ScenarioResult, element: str | None) -> JunitCase:
    """A scenario result as a JUnit case (one we cannot render is an error, said so)."""
    try:
        text = scenario_text(r)
    except Exception as exc:  # noqa: BLE001 - reported as ours in this case, never hidden
        return (
            r.id or r.path,
            r.game or "scenario",
            "error",
            "internal_error",
            unrenderable(r.path, exc),
        )
    return (r.id or r.path, r.game or "scenario", element, r.status, text)


def verdicts_junit(verdicts: list[Verdict], strict: bool, elapsed: float = 0.0) -> str:
    """Validation verdicts as JUnit (see ``verdict_case``)."""
    return junit("rules-oracle validate", [verdict_case(v, strict) for v in verdicts], elapsed)


def scenarios_junit(results: list[ScenarioResult], elapsed: float = 0.0) -> str:
    """Scenario results as JUnit: fail is a failure, a broken file or our bug an error."""
    elements = {"pass": None, "fail": "failure", "error": "error", "internal_error": "error"}
    cases = [scenario_case(r, elements[r.status]) for r in results]
    return junit("rules-oracle scenarios", cases, elapsed)


def json_report_chunks(
    key: str,
    items: Iterable[Any],
    tail: Callable[[], dict[str, Any]],
    head: Mapping[str, Any] | None = None,
) -> Iterator[str]:
    """The text of ``json.dumps({**head, key: [items...], **tail()}, indent=1)``, made item
    by item (a corpus's report is never held whole; the tail, e.g. the summary, is asked for
    once every item is out)."""
    opening = json.dumps({**(head or {}), key: []}, indent=1, allow_nan=False)
    yield opening.removesuffix("[]\n}") + "["
    first = True
    for item in items:
        yield ("\n  " if first else ",\n  ") + json.dumps(item, indent=1, allow_nan=False).replace(
            "\n", "\n  "
        )
        first = False
    yield "]" if first else "\n ]"
    rest = tail()
    yield ",\n" + json.dumps(rest, indent=1, allow_nan=False)[2:] if rest else "\n}"
