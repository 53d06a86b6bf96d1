"""Every JSON report any test makes through the CLI is checked against its schema."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from report_schemas import problems

import oracle.report


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
    yield
