"""Turning verdicts and scenario results into text or JSON."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from oracle.replay import Verdict
from oracle.scenarios import ScenarioResult

T = TypeVar("T")

MAX_SHOWN_DEPTH = 100
"""Deeper values are shown as a note (the log reader refuses values over 64 levels)."""
MAX_SHOWN_CHARS = 2_000
"""A value shown in a text line is cut after this many characters."""

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
    lines = [text_safe(head)]
    if v.kind == "illegal" and v.citation:
        lines.append(text_safe(f"  source: {v.citation}"))
    for d in v.divergences:
        lines.append(
            f"  {text_safe(d.path)}: claimed {shown(d.claimed)}, reference {shown(d.reference)}"
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
    data: dict[str, Any] = json_safe(v)
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
    return text_safe(text)


def scenario_json(r: ScenarioResult) -> dict[str, Any]:
    """A scenario result as a JSON object."""
    data: dict[str, Any] = json_safe(r)
    return data


def junit(suite: str, cases: list[tuple[str, str, str | None, str]]) -> str:
    """A JUnit XML report: one test case per (name, class, failure kind or None, message)."""
    failures = sum(1 for _, _, kind, _ in cases if kind == "failure")
    errors = sum(1 for _, _, kind, _ in cases if kind == "error")
    root = ET.Element(
        "testsuite",
        name=xml_safe(suite),
        tests=str(len(cases)),
        failures=str(failures),
        errors=str(errors),
    )
    for name, classname, kind, message in cases:
        case = ET.SubElement(root, "testcase", name=xml_safe(name), classname=xml_safe(classname))
        if kind is not None:
            first = message.splitlines()[0] if message else ""
            node = ET.SubElement(case, kind, message=xml_safe(first))
            node.text = xml_safe(message)
    return ET.tostring(root, encoding="unicode")


def verdicts_junit(verdicts: list[Verdict], strict: bool) -> str:
    """Validation verdicts as JUnit: a failing verdict is a failure, our bug an error."""
    texts, _ = each_rendered(verdicts, verdict_text, lambda v, exc: unrenderable(v.log, exc))
    cases = []
    for v, text in zip(verdicts, texts, strict=True):
        kind = None
        if v.kind == "internal_error" or text.startswith("internal error in rules-oracle"):
            kind = "error"
        elif v.fails(strict):
            kind = "failure"
        cases.append((v.log, v.game or "log", kind, text))
    return junit("rules-oracle validate", cases)


def scenarios_junit(results: list[ScenarioResult]) -> str:
    """Scenario results as JUnit: fail is a failure, a broken file or our bug an error."""
    kinds = {"pass": None, "fail": "failure", "error": "error", "internal_error": "error"}
    texts, _ = each_rendered(results, scenario_text, lambda r, exc: unrenderable(r.path, exc))
    cases = [
        (r.id or r.path, r.game or "scenario", kinds[r.status], text)
        for r, text in zip(results, texts, strict=True)
    ]
    return junit("rules-oracle scenarios", cases)
