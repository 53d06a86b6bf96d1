"""Verdicts and scenario results as text lines: all a text ``validate`` needs, so a
one-log call imports neither the JSON, JUnit nor scenario reports (``oracle.report``)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:  # types only: validating logs needs no scenarios (fast start)
    from oracle.replay import Verdict
    from oracle.scenarios import ScenarioResult

MAX_SHOWN_DEPTH = 100
"""Deeper values are shown as a note (the log reader refuses values over 64 levels)."""
MAX_SHOWN_CHARS = 2_000
"""A value shown in a text line is cut after this many characters."""
_SURROGATE = "[\ud800-\udfff]"
_TERMINAL_UNSAFE = "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]"
"""Patterns, compiled (by ``re``, which keeps them) only when a text has a character that is
not printable: every character either matches is a control character or a surrogate, which
``str.isprintable`` refuses, so a printable text is left as it is without them (fast start)."""


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def text_safe(text: str) -> str:
    """``text`` fit for a terminal: control characters (but newline and tab) and lone
    surrogates written as visible escapes (``\\x1b``, ``\\ud800``)."""
    if text.isprintable():  # no control character, no surrogate: nothing to escape
        return text
    return re.sub(_TERMINAL_UNSAFE, _escaped, text)


def json_safe(value: Any, depth: int = 0) -> Any:
    """JSON data fit for any JSON reader (attrs objects become objects of their fields):
    lone surrogates in text (keys too) replaced by U+FFFD, and anything nested deeper than
    MAX_SHOWN_DEPTH replaced by a note."""
    if isinstance(value, str):
        if value.isprintable():  # no surrogate in it
            return value
        return re.sub(_SURROGATE, "\ufffd", value)
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
        rule = v.rule_id or "no rule id"
        head += f": {who}: {rule} ({v.rule_title or 'no title'}): {v.message}"
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
        lines += [text_safe(line) for line in _blame_lines(d)]
    if (v.placeholders or v.placeholder_rules) and v.kind != "malformed":
        if v.kind == "illegal":
            lines.append("  this verdict rests on unconfirmed values: " + basis_text(v))
        elif not placeholders_noted:
            lines.append(
                "  placeholder data in force (unconfirmed values; replace with --profile): "
                + ", ".join(v.placeholders)
            )
    return "\n".join(lines + _teaching_lines(v))


def _blame_lines(d: Any) -> list[str]:
    """Blame by the rules for one divergence (oracle.explain): the events since the last
    claim that agreed at which the rules changed or decided the value, most suspect first."""
    since = (
        "the setup" if d.agreed_at is None else f"event {d.agreed_at} (its last claim that agreed)"
    )
    if not d.blame:
        if d.causes or d.agreed_at is not None:
            return [f"    no rule changed or decided it since {since}"]
        return []
    lines = [f"    blame by the rules, since {since}, most suspect first:"]
    for suspect in d.blame:
        why = f" [{suspect.suspicion}]" if suspect.suspicion else ""
        lines.append(f"      {suspect.text}{why}")
    if d.blame_more:
        lines.append(f"      ... and {d.blame_more} more event{'s' if d.blame_more > 1 else ''}")
    return lines


STATUS_WORDS = {
    "rulebook": "the rulebook says so",
    "seed": "from the seed documents",
    "secondary": "from a secondary source, not the rulebook",
    "ruling": "our ruling, where the sources are silent",
    "placeholder": "a placeholder nobody has confirmed",
}
"""What each rule status means, in words (reports and replay pages)."""


def _teaching_lines(v: Verdict) -> list[str]:
    """What would have been legal: the rule's standing, the option that allows the event,
    and the events that were legal there."""
    lines = []
    if v.rule_status:
        lines.append(f"  rule status: {v.rule_status} ({STATUS_WORDS.get(v.rule_status, '?')})")
    if v.legal_under:
        setting = ", ".join(f"{k}={json.dumps(value)}" for k, value in v.legal_under.items())
        lines.append(f"  legal with option {setting} (checked by replaying the log with it)")
    lines += _readings_lines(v)
    if v.legal_count is not None:
        heading = legal_heading(v)
        if v.legal_count == 0:
            lines.append("  nothing was legal there")
        elif v.legal_count <= len(v.legal):
            lines.append(f"  {heading} ({v.legal_count}):")
        else:
            lines.append(f"  {heading}: {v.legal_count}, for example:")
        groups = legal_groups(v)
        if len(groups) == 1 and heading != "legal there":
            lines += [f"    {json.dumps(event)}" for event in v.legal]
        else:
            for player, events in groups:
                lines.append(f"    {player or 'chance'}:")
                lines += [f"      {json.dumps(event)}" for event in events]
    return lines


def _readings_lines(v: Verdict) -> list[str]:
    """What the readings search found (when it ran): each reading of the options under
    which the log validates or gets further, proven by replaying the log under it."""
    search = v.readings
    if search is None:
        return []
    cut = "" if search.complete else ", stopped at the search's time bound"
    tried = f"{search.tried} reading{'s' if search.tried != 1 else ''} replayed{cut}"
    if not search.found:
        return [f"  no other reading of the options validates it or gets further ({tried})"]
    lines = [f"  readings that fit better (each replayed; {tried}):"]
    return lines + [f"    {text_safe(reading.text())}" for reading in search.found]


def legal_groups(v: Verdict) -> list[tuple[str | None, list[dict[str, Any]]]]:
    """The events listed as legal, by the player whose they are (None: chance outcomes), in
    the order the list names them: where several players' decisions are pending (Pillars'
    independent decisions), each player's own."""
    groups: dict[str | None, list[dict[str, Any]]] = {}
    for event in v.legal:
        player = event.get("player")
        groups.setdefault(player if isinstance(player, str) else None, []).append(event)
    return list(groups.items())


def legal_heading(v: Verdict) -> str:
    """What the list of legal events is: the outcomes chance had due, the events of the
    player to act, or, when it holds other players' decisions too, the events legal there."""
    if v.to_act == "chance":
        return "chance outcomes due there"
    players = {event.get("player") for event in v.legal}
    if players <= {v.to_act}:
        return f"legal for {v.to_act} there"
    return "legal there"


def basis_text(item: Verdict | ScenarioResult) -> str:
    """The unconfirmed rules and data values a verdict or result rests on, in words."""
    rules = [f"rule {rule_id} is a placeholder" for rule_id in item.placeholder_rules]
    return "; ".join(rules + [f"data {key} is a placeholder" for key in item.placeholders])


VERDICT_STATUSES = ("valid", "incomplete", "malformed", "illegal", "divergent", "internal_error")


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
        text += f" [rests on placeholders: {basis_text(r)}]"
    return text_safe(text)


def totals_text(counts: Mapping[str, int]) -> str:
    """The closing line of a text report."""
    s = {kind: counts.get(kind, 0) for kind in VERDICT_STATUSES}
    return (
        f"{sum(s.values())} logs: {s['valid']} valid, {s['incomplete']} incomplete, "
        f"{s['malformed']} malformed, {s['illegal']} illegal, {s['divergent']} divergent, "
        f"{s['internal_error']} internal errors"
    )
