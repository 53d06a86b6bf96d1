"""Every JSON report any test makes through the CLI is checked against its schema."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from report_schemas import problems

import oracle.cli


def _checked(name: str, build: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    def build_and_check(*args: Any, **kwargs: Any) -> dict[str, Any]:
        report = build(*args, **kwargs)
        wrong = problems(name, report)
        if wrong:
            raise AssertionError(f"the {name} report breaks its schema: {wrong[:5]}")
        return report

    return build_and_check


@pytest.fixture(autouse=True)
def reports_fit_their_schemas(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for attribute, schema in (
        ("validate_report", "report-validate"),
        ("scenarios_report", "report-scenarios"),
    ):
        monkeypatch.setattr(oracle.cli, attribute, _checked(schema, getattr(oracle.cli, attribute)))
    yield
