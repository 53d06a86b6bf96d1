"""A progress bar on standard error, for runs long enough to want one.

It shows only when standard error is a terminal, and only once the run has lasted a moment
(a short run prints nothing extra); it never writes to standard output, so reports stay
byte-identical. rich is imported only when the bar is shown.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from types import TracebackType
from typing import Any, TypeVar

T = TypeVar("T")

MOMENT = 1.0
"""Seconds a run lasts before a bar appears."""


class ProgressBar:
    """Counts items as they pass; draws a transient rich bar once the run lasts a moment."""

    def __init__(self, label: str, enabled: bool | None = None, moment: float = MOMENT) -> None:
        self._label = label
        self._enabled = sys.stderr.isatty() if enabled is None else enabled
        self._moment = moment
        self._start = time.monotonic()
        self._bar: Any = None
        self._task: Any = None
        self._count = 0

    def watch(self, items: Iterable[T]) -> Iterator[T]:
        """The items, counted as each is handed on."""
        for item in items:
            yield item
            self.advance()

    def advance(self) -> None:
        """One more item done."""
        self._count += 1
        if self._bar is not None:
            self._bar.advance(self._task)
        elif self._enabled and time.monotonic() - self._start > self._moment:
            self._show()

    def _show(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self._bar = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}: {task.completed} checked"),
            BarColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
            # the report goes on to standard output untouched, unless that is the same
            # terminal, where it is printed above the bar
            redirect_stdout=sys.stdout.isatty(),
            redirect_stderr=False,
        )
        self._task = self._bar.add_task(self._label, total=None, completed=self._count)
        self._bar.start()

    def close(self) -> None:
        """Take the bar away (it leaves no trace on the terminal)."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
