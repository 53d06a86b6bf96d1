"""``rules-oracle perft`` reports: text, or JSON (``report-perft``, a schema in
rules_oracle/schemas/report-perft.schema.json).

A count in text is what perft tools print, so a script can diff two engines' output: with
divide, one line per first event (``<event JSON> <count>``, in our legal order), an empty
line, then the total alone on the last line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from oracle.perft import PerftResult
from oracle.perft_files import PerftCheck

REPORT_FORMAT = "rules-oracle-perft-report"
REPORT_VERSION = 1


def count_text(result: PerftResult) -> str:
    """The count (after the divide lines and an empty line, when divided)."""
    if result.divide is None:
        return str(result.count)
    lines = [f"{json.dumps(event)} {n}" for event, n in result.divide]
    return "\n".join([*lines, "", str(result.count)])


def count_json(
    result: PerftResult,
    game: str,
    players: Sequence[str],
    options: dict[str, Any],
    position: str,
) -> dict[str, Any]:
    """The ``report-perft`` JSON of one count; ``position`` names where it started (the
    file, or ``setup``)."""
    report: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "game": game,
        "players": list(players),
        "options": options,
        "position": position,
        "depth": result.depth,
        "count": result.count,
    }
    if result.divide is not None:
        report["divide"] = [{"event": event, "count": n} for event, n in result.divide]
    report["seconds"] = round(result.seconds, 3)
    return report


def suite_text(checks: Sequence[PerftCheck], path: str, seconds: float) -> str:
    """A line per position (``ok`` or what differs), then the totals."""
    lines = []
    for check in checks:
        if check.error is not None:
            lines.append(f"ERROR {check.id} ({path}:{check.line}): {check.error}")
            continue
        deepest = max(check.expected)
        if check.passed:
            lines.append(
                f"ok {check.id}: perft({deepest}) = {check.counted[deepest]} "
                f"({check.seconds:.2f} s)"
            )
            continue
        wrong = [
            f"perft({d}) = {check.counted.get(d)}, the suite says {n}"
            for d, n in sorted(check.expected.items())
            if check.counted.get(d) != n
        ]
        lines.append(f"FAIL {check.id} ({path}:{check.line}): " + "; ".join(wrong))
    passed = sum(c.passed for c in checks)
    lines.append(f"{passed} passed, {len(checks) - passed} failed ({seconds:.1f} s)")
    return "\n".join(lines)


def suite_json(
    checks: Sequence[PerftCheck], path: str, game: str, seconds: float
) -> dict[str, Any]:
    """The ``report-perft`` JSON of a suite checked on our engine."""
    positions = []
    for check in checks:
        item: dict[str, Any] = {
            "id": check.id,
            "line": check.line,
            "passed": check.passed,
            "expected": {str(d): n for d, n in sorted(check.expected.items())},
            "counted": {str(d): n for d, n in sorted(check.counted.items())},
            "seconds": round(check.seconds, 3),
        }
        if check.error is not None:
            item["error"] = check.error
        positions.append(item)
    return {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "suite": path,
        "game": game,
        "passed": all(c.passed for c in checks),
        "positions": positions,
        "seconds": round(seconds, 3),
    }
