"""Done when: conform passes our own serve for every game, player count, part and capability."""

from __future__ import annotations

import pytest

from oracle.conform import Conformance
from oracle.findings import DEFAULT_PARTS, Settings
from reference.registry import game_names, make_game
from tests.conform.conftest import SERVE
from tests.conform.test_coverage import covered


@pytest.mark.parametrize("game", game_names())
def test_conform_passes_our_own_serve(game: str) -> None:
    rules = make_game(game, {})
    counts = tuple(range(rules.min_players, rules.max_players + 1))
    settings = Settings(
        engine=f"{SERVE} --game {game}", game=game, players=counts, games=len(counts), seed=11
    )
    report = Conformance(settings).run()
    assert report.findings == [], [f.message for f in report.findings]
    assert report.passed()
    c = report.counts
    assert report.capabilities == ("legal", "next", "perft", "set_state", "state")
    # the play-outs: one per game asked for, then those that reach on purpose
    deliberate = covered(report).starts_played
    assert deliberate > 0 and c.games == len(counts) + deliberate
    assert c.engine_games == len(counts)
    assert c.paths_compared > 0 and c.paths_unanswered == 0
    assert c.legal_sets > 0 and c.probes > 0 and c.scenarios_passed > 0
    assert c.scenarios_failed == 0 and c.scenarios_skipped == 0
    assert {p for p, _ in report.cases} == set(DEFAULT_PARTS) - {"probes"}
