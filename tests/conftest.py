"""Shared test set-up: crashes under CliRunner fail the test; every JSON report a test
makes through the CLI is checked against its schema; the fuzz suite's size.

Under typer's CliRunner an exception escaping a command prints no traceback: the runner
catches it and reports exit code 1, the same code as a failing log. So every
``CliRunner.invoke`` in this suite is checked here: an exception other than the command's
own ``SystemExit`` fails the test at once (a test that expects a crash catches the
AssertionError). Each test still asserts the exact exit code. Rule sets check their
invariants as the product does (a game's invariant shortcuts are compared with the full
count in tests/contract/test_invariant_shortcuts.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from report_schemas import problems
from typer.testing import CliRunner, Result

import oracle.report

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


def _checked(name: str, build: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    def build_and_check(*args: Any, **kwargs: Any) -> dict[str, Any]:
        report = build(*args, **kwargs)
        wrong = problems(name, report)
        if wrong:
            raise AssertionError(f"the {name} report breaks its schema: {wrong[:5]}")
        return report

    return build_and_check


def _checked_chunks(build: Callable[..., Iterator[str]]) -> Callable[..., list[str]]:
    def build_and_check(*args: Any, **kwargs: Any) -> list[str]:
        text = "".join(build(*args, **kwargs))
        wrong = problems("report-validate", json.loads(text))
        if wrong:
            raise AssertionError(f"the report-validate report breaks its schema: {wrong[:5]}")
        return [text]

    return build_and_check


@pytest.fixture(autouse=True)
def reports_fit_their_schemas(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # The CLI imports its report builders where it uses them, so patching oracle.report
    # reaches every command.
    for attribute, schema in (
        ("validate_report", "report-validate"),
        ("scenarios_report", "report-scenarios"),
    ):
        monkeypatch.setattr(
            oracle.report, attribute, _checked(schema, getattr(oracle.report, attribute))
        )
    monkeypatch.setattr(
        oracle.report,
        "validate_report_chunks",
        _checked_chunks(oracle.report.validate_report_chunks),
    )
