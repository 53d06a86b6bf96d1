"""Reports of many verdicts or scenario results: text, JSON (docs/schemas/) or JUnit XML."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from rules_oracle._errors import BadOptions

if TYPE_CHECKING:
    from oracle.replay import Verdict
    from oracle.report import JunitCase
    from oracle.scenarios import ScenarioResult

__all__ = [
    "ValidateReport",
    "describe",
    "progress",
    "scenarios_report",
]

T = TypeVar("T")

FORMATS = ("text", "json", "junit")
"""The report formats: text lines, JSON (``report-validate``/``report-scenarios``), JUnit."""
UNRENDERABLE = "unrenderable"
"""The count, beside the verdict kinds, of verdicts the report could not render (our bug)."""
FAILING = ("malformed", "illegal", "divergent")
"""Verdict kinds that fail a run (``incomplete`` too when strict)."""


def progress(items: Iterable[T], label: str) -> Iterator[T]:
    """The items, handed on as they come; a transient progress bar on standard error counts
    them when it is a terminal and the run lasts more than a moment (never on stdout)."""
    from oracle.progress import ProgressBar

    with ProgressBar(label) as bar:
        yield from bar.watch(items)


def describe(item: Verdict | ScenarioResult) -> str:
    """The report's text for one verdict or one scenario result, as ``validate`` and
    ``scenarios`` print it (a first line, then any indented detail lines)."""
    from oracle import report_text
    from oracle.replay import Verdict

    if isinstance(item, Verdict):
        return report_text.verdict_text(item)
    from oracle.scenarios import ScenarioResult

    if isinstance(item, ScenarioResult):
        return report_text.scenario_text(item)
    raise BadOptions(f"describe takes a Verdict or a ScenarioResult, not {type(item).__name__}")


def _name(item: Verdict | ScenarioResult) -> str:
    """The file a verdict or scenario result is about."""
    return str(getattr(item, "log", None) or getattr(item, "path", "?"))


def _text_failed(item: Verdict | ScenarioResult, exc: Exception) -> str:
    from oracle.report_text import text_safe, unrenderable

    return f"{text_safe(_name(item))}: {unrenderable(_name(item), exc)}"


def _json_failed(item: Verdict | ScenarioResult, exc: Exception) -> dict[str, str]:
    from oracle.report_text import json_safe, unrenderable

    return {
        "file": json_safe(_name(item)),
        "status": "internal_error",
        "message": unrenderable(_name(item), exc),
    }


def _checked_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise BadOptions(f"unknown report format {fmt!r} (known: {', '.join(FORMATS)})")
    return fmt


class ValidateReport:
    """The report of a run of verdicts, written piece by piece as they arrive (a long run
    is never held in memory), and its totals.

    ``fmt`` is ``text`` (a line per verdict, then the totals), ``json`` (the
    ``report-validate`` schema) or ``junit``. ``at`` prints each verdict's ``state_at``
    (text); ``strict`` makes an incomplete log fail; ``quiet`` prints only failures and
    the totals (text). A verdict the report cannot render is reported as our bug, in its
    place, and the others still are.

        report = ValidateReport("text")
        for chunk in report.chunks(rules_oracle.validate_files(["logs/"])):
            sys.stdout.write(chunk)
        sys.exit(report.exit_code())
    """

    def __init__(
        self, fmt: str = "text", *, at: int | None = None, strict: bool = False, quiet: bool = False
    ) -> None:
        self.fmt = _checked_format(fmt)
        self.at, self.strict, self.quiet = at, strict, quiet
        self.counts: Counter[str] = Counter()
        """Verdicts by kind so far, and ``unrenderable``: those the report could not render."""

    def exit_code(self) -> int:
        """3 if a verdict was our bug (internal error, or unrenderable), 1 if a log failed,
        else 0: the ``rules-oracle validate`` exit code."""
        counts = self.counts
        if counts["internal_error"] > 0 or counts[UNRENDERABLE] > 0:
            return 3
        failed = any(counts[kind] for kind in FAILING)
        return 1 if failed or (self.strict and counts["incomplete"] > 0) else 0

    def _counted(self, verdicts: Iterable[Verdict]) -> Iterator[Verdict]:
        for verdict in verdicts:
            self.counts[verdict.kind] += 1
            yield verdict

    def _rendered(
        self,
        render: Callable[[Verdict], Any],
        failed: Callable[[Verdict, Exception], Any],
        verdict: Verdict,
    ) -> Any:
        """``render(verdict)``; if that fails (our bug), ``failed`` says so and it is counted."""
        try:
            return render(verdict)
        except Exception as exc:  # noqa: BLE001 - reported as ours, never hidden, never fatal
            self.counts[UNRENDERABLE] += 1
            return failed(verdict, exc)

    def _case(self, case: JunitCase, verdict: Verdict) -> JunitCase:
        """A verdict's JUnit case; one ``verdict_case`` could not render is counted as ours."""
        if case[3] == "internal_error" and verdict.kind != "internal_error":
            self.counts[UNRENDERABLE] += 1
        return case

    def chunks(self, verdicts: Iterable[Verdict]) -> Iterator[str]:
        """The report's text, piece by piece, each verdict counted as it arrives."""
        counted = self._counted(verdicts)
        if self.fmt == "text":
            yield from self._text(counted)
            return
        from oracle import report  # JSON and JUnit: not loaded for a text report

        if self.fmt == "json":
            items = (self._rendered(report.verdict_json, _json_failed, v) for v in counted)
            yield from report.validate_report_chunks(items, self.counts, self.strict)
            yield "\n"
            return
        # junit (the format was checked when the report was made)
        started = time.monotonic()
        cases = (self._case(report.verdict_case(v, self.strict), v) for v in counted)
        clock = lambda: time.monotonic() - started  # noqa: E731
        yield from report.junit_chunks("rules-oracle validate", cases, clock)
        yield "\n"

    def _text(self, verdicts: Iterator[Verdict]) -> Iterator[str]:
        from oracle import report_text as report  # the text lines only (fast start)

        at = self.at
        noted: set[tuple[str | None, tuple[str, ...]]] = set()
        for verdict in verdicts:
            if self.quiet and not verdict.fails(self.strict):
                continue
            # The placeholder data in force is noted once per run (per game and data).
            key = (verdict.game, verdict.placeholders)
            render = partial(report.verdict_text, placeholders_noted=key in noted)
            yield self._rendered(render, _text_failed, verdict) + "\n"
            if verdict.kind not in ("illegal", "malformed"):
                noted.add(key)
            if at is not None and verdict.state_at is not None:
                yield json.dumps(verdict.state_at, indent=1, allow_nan=False) + "\n"
            elif at is not None and verdict.kind != "malformed":
                yield f"  (the log has fewer than {at} events that replayed)\n"
        yield report.totals_text(self.counts) + "\n"


def scenarios_report(
    results: Sequence[ScenarioResult], fmt: str = "text", seconds: float = 0.0
) -> tuple[str, int]:
    """The report of scenario results, and how many results it could not render (our bug,
    said so in the result's place). ``fmt``: ``text`` (a line per result, then ``N
    passed, M failed``), ``json`` (the ``report-scenarios`` schema) or ``junit`` (with the
    run's ``seconds``)."""
    from oracle import report

    fmt = _checked_format(fmt)
    if fmt == "json":
        items, broken = report.each_rendered(list(results), report.scenario_json, _json_failed)
        return json.dumps(report.scenarios_report(items), indent=1, allow_nan=False), broken
    lines, broken = report.each_rendered(list(results), report.scenario_text, _text_failed)
    if fmt == "junit":  # the cases' text is rendered as above
        return report.scenarios_junit(list(results), seconds), broken
    passed = sum(r.status == "pass" for r in results)
    return "\n".join([*lines, f"{passed} passed, {len(results) - passed} failed"]), broken
