"""The fairness tests' corpora, written once per session (they are large: see
tests/fairness/simulate.py), and the rule sets' usual checking.

These tests are about the statistics of chance draws, not about the engines' invariants:
the power tests replay thousands of games, so their rule sets check what each event changed
(as the product does) rather than every invariant after every event (the suite's default,
tests/conftest.py); every other test here keeps the default."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from simulate import Corpus, Fair, write_corpus

from reference.core.ruleset import RuleSet


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    """``corpus(name, game, games, policy)``: the folder of that corpus, written on first
    use and kept for the session."""
    made: dict[str, Path] = {}
    root = tmp_path_factory.mktemp("corpora")

    def get(name: str, game: str, games: int, policy: Fair | None = None, seed: int = 0) -> Path:
        if name not in made:
            with pytest.MonkeyPatch.context() as patch:  # the writers are forked from here
                patch.setattr(RuleSet, "full_checks", False)
                made[name] = write_corpus(root / name, game, games, policy or Fair(), seed)
        return made[name]

    return get


@pytest.fixture
def product_checks(
    invariants_checked_in_full: None, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Rule sets check invariants as the product does (for the large replays)."""
    monkeypatch.setattr(RuleSet, "full_checks", False)
    yield
