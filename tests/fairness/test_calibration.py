"""Calibration: fair draws are found biased at most at the stated rate. 200 corpora of fair
draws, simulated through the public API (``ChanceTally.add_outcomes``) at the chance nodes
of real games of all four games, each tested at alpha 0.01 with Holm's correction over all
its tests: at most 2% of them may be rejected (the correction keeps the family-wise rate at
or below 1%)."""

from __future__ import annotations

import random

import pytest
from simulate import Fair, Outcomes, chance_nodes

import rules_oracle

CORPORA = 200
SIZES = (4, 8, 16, 60)
"""Games per game and corpus, in turn: small corpora (most groups insufficient, the
chi-square on pooled categories) as well as large ones (groups tested as fair)."""


@pytest.fixture(scope="module")
def nodes() -> dict[str, list[list[Outcomes]]]:
    """The chance nodes of eight fair games of each game: positions to draw from again."""
    return {game: chance_nodes(game, 8, seed=100) for game in rules_oracle.GAMES}


@pytest.mark.slow
def test_fair_corpora_are_rejected_at_most_at_the_stated_rate(
    nodes: dict[str, list[list[Outcomes]]],
) -> None:
    fair = Fair()
    rejected, verdicts = [], {"fair": 0, "biased": 0, "insufficient": 0}
    for c in range(CORPORA):
        rng = random.Random(c)
        tally = rules_oracle.ChanceTally(seed=c)
        size = SIZES[c % len(SIZES)]
        for game, games in nodes.items():
            for k in range(size):
                tally.start(f"{game}-{k}")
                for outcomes in games[k % len(games)]:
                    tally.add_outcomes(game, outcomes, fair(outcomes, rng))
        result = tally.test(alpha=0.01)
        for g in result.groups:
            verdicts[g.verdict] += 1
        if result.biased:
            rejected.append(c)
    print(f"rejected {len(rejected)} of {CORPORA}: {rejected}; groups {verdicts}")  # -s
    assert len(rejected) <= 0.02 * CORPORA, rejected
    assert verdicts["fair"] > 0 and verdicts["insufficient"] > 0, verdicts
