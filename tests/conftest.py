"""Shared test set-up: crashes under CliRunner fail the test; the fuzz suite's size.

Under typer's CliRunner an exception escaping a command prints no traceback: the runner
catches it and reports exit code 1, the same code as a failing log. So every
``CliRunner.invoke`` in this suite is checked here: an exception other than the command's
own ``SystemExit`` fails the test at once (a test that expects a crash catches the
AssertionError). Each test still asserts the exact exit code.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner, Result

_REAL_INVOKE = CliRunner.invoke


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fuzz-long",
        action="store_true",
        default=False,
        help="run tests/fuzz at a large size (thousands of inputs per kind)",
    )


def _checked_invoke(self: CliRunner, *args: Any, **kwargs: Any) -> Result:
    result = _REAL_INVOKE(self, *args, **kwargs)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(
            f"the command crashed (CliRunner hid it as exit {result.exit_code}): "
            f"{type(result.exception).__name__}: {result.exception}"
        ) from result.exception
    return result


@pytest.fixture(autouse=True)
def cli_crashes_fail_the_test(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(CliRunner, "invoke", _checked_invoke)
    yield
