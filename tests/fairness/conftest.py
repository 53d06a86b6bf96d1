"""The fairness tests' corpora, written once per session (they are large: see
tests/fairness/simulate.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from simulate import Corpus, Fair, write_corpus


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    """``corpus(name, game, games, policy)``: the folder of that corpus, written on first
    use and kept for the session."""
    made: dict[str, Path] = {}
    root = tmp_path_factory.mktemp("corpora")

    def get(name: str, game: str, games: int, policy: Fair | None = None, seed: int = 0) -> Path:
        if name not in made:
            made[name] = write_corpus(root / name, game, games, policy or Fair(), seed)
        return made[name]

    return get
