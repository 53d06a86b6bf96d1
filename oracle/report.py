"""Turning verdicts and scenario results into text or JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

if TYPE_CHECKING:  # types only: validating logs needs neither scenarios nor XML (fast start)
    from oracle.replay import Verdict
    from oracle.scenarios import ScenarioResult

T = TypeVar("T")

MAX_SHOWN_DEPTH = 100
"""Deeper values are shown as a note (the log reader refuses values over 64 levels)."""
MAX_SHOWN_CHARS = 2_000
"""A value shown in a text line is cut after this many characters."""
JUNIT_SPOOL_BYTES = 64 * 1024
"""JUnit cases wait in memory up to this many bytes, then on disk, so a long run's report
costs hardly more memory than a short one's."""

_SURROGATE = re.compile("[\ud800-\udfff]")
_TERMINAL_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_XML_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def text_safe(text: str) -> str:
    """``text`` fit for a terminal: control characters (but newline and tab) and lone
    surrogates written as visible escapes (``\\x1b``, ``\\ud800``)."""
    return _TERMINAL_UNSAFE.sub(_escaped, text)


def xml_safe(text: str) -> str:
    """``text`` fit for XML 1.0: characters it cannot carry written as visible escapes."""
    return _XML_UNSAFE.sub(_escaped, text)


def json_safe(value: Any, depth: int = 0) -> Any:
    """JSON data fit for any JSON reader (attrs objects become objects of their fields):
    lone surrogates in text (keys too) replaced by U+FFFD, and anything nested deeper than
    MAX_SHOWN_DEPTH replaced by a note."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if depth >= MAX_SHOWN_DEPTH:
        return f"<nested deeper than {MAX_SHOWN_DEPTH} levels>"
    if attrs.has(type(value)):
        return {
            f.name: json_safe(getattr(value, f.name), depth + 1) for f in attrs.fields(type(value))
        }
    if isinstance(value, dict):
        return {json_safe(str(k)): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v, depth + 1) for v in value]
    return json_safe(str(value))


def shown(value: Any) -> str:
    """A JSON value in one line of text, cut to MAX_SHOWN_CHARS characters."""
    text = json.dumps(json_safe(value), ensure_ascii=False)
    if len(text) > MAX_SHOWN_CHARS:
        text = text[:MAX_SHOWN_CHARS] + f"... ({len(text)} characters)"
    return text_safe(text)


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


def unrenderable(name: str, exc: Exception) -> str:
    """The message for an item the report could not render: our bug, said so."""
    return text_safe(
        f"internal error in rules-oracle, please report: cannot report {name!r}: "
        f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    )


def verdict_text(v: Verdict, placeholders_noted: bool = False) -> str:
    """A verdict in a few lines: the first says it all, the others give details.
    ``placeholders_noted``: the run already said which placeholder data is in force (the
    note is given once per run; a verdict resting on a placeholder still says so)."""
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
    lines = [text_safe(head)]
    if v.kind == "illegal" and v.citation:
        lines.append(text_safe(f"  source: {v.citation}"))
    for d in v.divergences:
        lines.append(
            f"  {text_safe(d.path)}: claimed {shown(d.claimed)}, reference {shown(d.reference)}"
        )
        if d.causes:
            lines.append(f"    <- {', '.join(d.causes)}")
    if (v.placeholders or v.placeholder_rules) and v.kind != "malformed":
        if v.kind == "illegal":
            lines.append("  this verdict rests on unconfirmed values: " + _basis_text(v))
        elif not placeholders_noted:
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
    data: dict[str, Any] = json_safe(v)
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
    return text_safe(text)


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
    suite: str, cases: Iterable[JunitCase], elapsed: Callable[[], float] = lambda: 0.0
) -> Iterator[str]:
    """A JUnit XML report (the Jenkins xUnit schema, tests/junit/junit-10.xsd), piece by
    piece: the cases wait in a spooled file (on disk past JUNIT_SPOOL_BYTES) until the
    counts that head the report are known, with the run's time in seconds (``elapsed()``
    once every case is out), when it ran (UTC) and on which host."""
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
        if not tests:
            yield head
            return
        yield head.removesuffix(" />") + ">"
        spool.seek(0)
        yield from iter(lambda: spool.read(1 << 16), "")
        yield "</testsuite>"


def junit(suite: str, cases: list[JunitCase], elapsed: float = 0.0) -> str:
    """A JUnit XML report: one test case per (name, class, failure element or None, failure
    type, message)."""
    return "".join(junit_chunks(suite, cases, lambda: elapsed))


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


def totals_text(counts: Mapping[str, int]) -> str:
    """The closing line of a text report."""
    s = {kind: counts.get(kind, 0) for kind in VERDICT_STATUSES}
    return (
        f"{sum(s.values())} logs: {s['valid']} valid, {s['incomplete']} incomplete, "
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
