"""Register the toy dice race (tests/oracle/toygame) for the oracle's own tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reference import registry


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(registry.GAMES, "toy", "toygame")
    yield
