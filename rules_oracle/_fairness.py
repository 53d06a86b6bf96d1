"""Fair chance: statistical tests of the chance outcomes in a corpus of logs, or of draws
made at positions (docs/fairness.md). The statistics need scipy (``rules-oracle[stats]``)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import partial
from itertools import chain
from typing import TYPE_CHECKING, Any

from oracle import corpus
from oracle.chance import Tally, fairness_batch, wire_draw
from oracle.corpus import BadCorpus
from oracle.fairness import (
    STATS_MISSING,
    Check,
    FairnessResult,
    GroupResult,
    Outcome,
    Settings,
    StatsMissing,
    judge,
    need_stats,
)

if TYPE_CHECKING:
    from oracle.position import Position
    from oracle.replay import Verdict

__all__ = [
    "STATS_MISSING",
    "ChanceTally",
    "Check",
    "FairnessReport",
    "FairnessResult",
    "GroupResult",
    "Outcome",
    "StatsMissing",
    "fairness_files",
    "fairness_page",
    "fairness_text",
    "stats_available",
]


def stats_available() -> bool:
    """Whether the statistics can run (scipy, the ``stats`` extra, is installed)."""
    try:
        need_stats()
    except StatsMissing:
        return False
    return True


def fairness_text(result: FairnessResult) -> str:
    """A result as the ``fairness`` command's text: a line per game and chance kind (with
    the outcomes furthest from expectation under a biased one), then the totals."""
    from oracle.fairness_report import fairness_text as text

    return text(result)


class ChanceTally:
    """Chance draws, grouped by game and chance kind, ready to be tested.

    Draws come from logs (``fairness_files``) or are added one by one: ``add(position,
    event)`` counts ``event``, drawn where chance acts at ``position``, against the
    distribution the reference gives there. ``start(name)`` begins a sequence (one game):
    the serial tests pair successive draws of one sequence only, the across-games tests
    each sequence's draws with the sequence before's. ``seed`` makes the
    randomized PIT values reproducible (each sequence's are seeded by it and its name).
    """

    def __init__(self, seed: int = 0) -> None:
        self._tally = Tally(seed)

    @property
    def seed(self) -> int:
        return self._tally.seed

    @property
    def draws(self) -> int:
        """Draws counted (forced ones, with a single outcome, left out)."""
        return self._tally.draws

    def start(self, sequence: str) -> None:
        """Draws added from now on belong to the sequence (a game) named ``sequence``."""
        self._tally.start(sequence)

    def add(self, position: Position, event: Mapping[str, Any]) -> None:
        """Count ``event`` (a wire event) drawn at ``position`` where chance acts; raises
        ``BadOptions`` when chance does not act there or the event is not an outcome."""
        self.add_outcomes(position.rules.name, position.chance_outcomes(), event)

    def add_outcomes(
        self,
        game: str,
        outcomes: Sequence[tuple[Mapping[str, Any], float]],
        event: Mapping[str, Any],
    ) -> None:
        """Count ``event`` drawn from ``outcomes`` (as ``Position.chance_outcomes()`` gives
        them: work them out once to draw many times from one position)."""
        from oracle.chance import NotAnOutcome
        from reference.core.errors import BadOptions

        if not outcomes:
            raise BadOptions("chance does not act at this position: no outcomes to draw from")
        try:
            self._tally.add(wire_draw(game, outcomes, event))
        except (NotAnOutcome, KeyError) as exc:
            raise BadOptions(f"not a chance outcome here: {event}") from exc

    def merge(self, other: ChanceTally) -> None:
        """Add another tally's draws (after this one's, for the serial and across-games
        tests)."""
        self._tally.merge(other._tally)

    def _merge_tally(self, tally: Tally) -> None:
        self._tally.merge(tally)

    def test(
        self, *, effect: float = 0.1, power: float = 0.9, alpha: float = 0.01
    ) -> FairnessResult:
        """Test every group (docs/fairness.md). Raises ``StatsMissing`` without scipy and
        ``BadOptions`` for settings out of range."""
        from reference.core.errors import BadOptions

        settings = Settings(effect, power, alpha)
        problem = settings.problem()
        if problem:
            raise BadOptions(problem)
        return judge(self._tally, settings)


def fairness_files(
    paths: Iterable[str | os.PathLike[str]] = (),
    *,
    tally: ChanceTally,
    from_list: str | os.PathLike[str] | None = None,
    profile: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
    dask: str | None = None,
) -> Iterator[Verdict]:
    """The verdict on every log named (as ``validate_files``, in the order named), each
    log's chance draws added to ``tally`` as its verdict is handed out. A failing log's
    draws stop before its first problem. Raises ``BadCorpus`` as ``validate_files`` does."""
    settings = corpus.Settings(dict(profile or {}), dict(options or {}))
    listed = None if from_list is None else os.fspath(from_list)
    found = corpus.log_paths([os.fspath(p) for p in paths], listed)
    first = next(found, None)
    if first is None:
        raise BadCorpus(NO_LOGS)
    names = chain([first], found)
    work = partial(fairness_batch, seed=tally.seed)
    if dask is not None:
        results = corpus.run_dask(work, names, settings, dask)
    else:
        results = corpus.run_local(work, names, settings, corpus.every_core(jobs))
    return _merged(results, tally)


NO_LOGS = "no log files found (a folder is searched for *.jsonl and *.jsonl.gz)"


def _merged(results: Iterator[tuple[Verdict, Tally]], tally: ChanceTally) -> Iterator[Verdict]:
    for verdict, draws in results:
        tally._merge_tally(draws)  # noqa: SLF001 - the same module's class
        yield verdict


class FairnessReport:
    """The report of a fairness run: the logs' verdicts as ``validate`` reports them, then
    a line per game and chance kind (text), or one JSON object (the ``report-fairness``
    schema). ``chunks(verdicts, tally)`` writes it piece by piece: the verdicts as they
    arrive, then the tests of ``tally`` (filled by then); ``result`` holds them after.

        tally = rules_oracle.ChanceTally()
        report = rules_oracle.FairnessReport("text")
        verdicts = rules_oracle.fairness_files(["logs"], tally=tally)
        for chunk in report.chunks(verdicts, tally):
            sys.stdout.write(chunk)
        sys.exit(report.exit_code())
    """

    def __init__(
        self,
        fmt: str = "text",
        *,
        quiet: bool = False,
        effect: float = 0.1,
        power: float = 0.9,
        alpha: float = 0.01,
    ) -> None:
        from rules_oracle._reports import ValidateReport

        self.fmt = fmt
        self.logs = ValidateReport("text" if fmt == "text" else "json", quiet=quiet)
        self.settings = {"effect": effect, "power": power, "alpha": alpha}
        problem = Settings(effect, power, alpha).problem()
        if problem:
            from reference.core.errors import BadOptions

            raise BadOptions(problem)
        self.result: FairnessResult | None = None

    def chunks(self, verdicts: Iterable[Verdict], tally: ChanceTally) -> Iterator[str]:
        need_stats()
        if self.fmt == "text":
            yield from self.logs.chunks(verdicts)
            from oracle.fairness_report import fairness_text

            self.result = tally.test(**self.settings)
            yield fairness_text(self.result) + "\n"
            return
        from oracle import report
        from oracle.fairness_report import fairness_json

        counted = self.logs._counted(verdicts)  # noqa: SLF001 - counted as validate counts
        items = (
            self.logs._rendered(report.verdict_json, _json_failed, v)  # noqa: SLF001
            for v in counted
        )

        def tail() -> dict[str, Any]:
            self.result = tally.test(**self.settings)
            summary = report.report_summary(
                self.logs.counts, report.VERDICT_STATUSES, report.validate_failing(False)
            )
            return {"summary": summary, "fairness": fairness_json(self.result)}

        shared = (report.shared_names(item) for item in items)
        yield from report.json_report_chunks(
            "results", shared, tail, report.report_head("fairness")
        )
        yield "\n"

    def tested_nothing(self) -> bool:
        """Whether no test could run: no draw with two or more outcomes in the logs (none
        of them a log, every log failing before its first draw, ...): never a pass."""
        return self.result is None or self.result.tests_run() == 0

    def exit_code(self) -> int:
        """3 if a verdict was our bug, 1 if a group is biased, 2 if no test could run
        (``tested_nothing``), else 0."""
        counts = self.logs.counts
        if counts["internal_error"] or counts["unrenderable"]:
            return 3
        if self.result is not None and self.result.biased:
            return 1
        return 2 if self.tested_nothing() else 0


def _json_failed(item: Verdict, exc: Exception) -> dict[str, str]:
    from rules_oracle._reports import _json_failed as failed

    return failed(item, exc)


def fairness_page(result: FairnessResult, title: str = "rules-oracle fairness") -> str:
    """A self-contained HTML page of a result: per group, observed against expected
    counts with bands, and the histogram of PIT values."""
    from oracle.fairness_report import fairness_page as page

    return page(result, title)
