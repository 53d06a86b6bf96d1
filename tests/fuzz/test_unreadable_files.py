"""A file that cannot be read (an I/O error while reading a log) is the user's problem,
said with the file and line, never our crash.

Reproducers of a fuzz run, each failing on the code before its fix. Each bad input must
end as the user's problem: a verdict naming the file and line, an ERROR result, or a usage
error (exit 2); never exit 3, never a lost report (expected exit codes: docs/cli.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bad_input import played, write_log

from oracle.games import GameCache
from oracle.replay import validate_log


class _FailingHandle:
    def __enter__(self) -> _FailingHandle:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def readline(self, _: int) -> bytes:
        raise OSError(5, "Input/output error")


class FailingPath(type(Path())):  # type: ignore[misc]
    """A file that opens but fails to read (a bad disk, a network file system)."""

    def open(self, *_: Any, **__: Any) -> Any:  # type: ignore[override]
        return _FailingHandle()


def test_an_io_error_reading_a_log_is_the_users_problem(tmp_path: Path) -> None:
    path = FailingPath(write_log(tmp_path, list(played("milestones")[:2])))
    verdict = validate_log(path, GameCache())
    assert (verdict.kind, verdict.line) == ("malformed", 1)
    assert "cannot read: Input/output error" in verdict.message
    assert verdict.log == str(path)
