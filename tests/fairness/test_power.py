"""Power and calibration on real play logs: corpora written through the public API
(``play_log`` with a chance policy) whose draws are biased are found biased, naming what is
favoured; the fair corpora of the same sizes pass. Slow (thousands of games); the corpora
are written once per session (conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from simulate import Corpus, Favouring, Reseeded, Sticky, tally_of

import rules_oracle
from rules_oracle import FairnessResult, GroupResult

pytestmark = pytest.mark.slow


def judged(folder: Path) -> FairnessResult:
    tally, verdicts = tally_of([folder])
    assert {v.kind for v in verdicts} == {"valid"}
    result = tally.test()
    print(f"{folder.name}:\n{rules_oracle.fairness_text(result)}")  # shown with -s
    return result


def group(result: FairnessResult, kind: str) -> GroupResult:
    return next(g for g in result.groups if g.type == kind)


def test_palmyra_tile_draws_favouring_one_code(corpus: Corpus) -> None:
    # 500 games, the L:D tiles drawn with weight 1.1 against every other tile's 1.
    biased = judged(corpus("palmyra-L:D", "palmyra", 500, Favouring("tile", "L:D", 1.1)))
    tiles = group(biased, "draw_tile")
    assert tiles.verdict == "biased"
    assert tiles.furthest(1)[0].label == "L:D" and tiles.furthest(1)[0].z > 0
    assert "L:D: observed" in rules_oracle.fairness_text(biased)
    fair = judged(corpus("palmyra-fair", "palmyra", 500))
    assert not fair.biased
    assert group(fair, "draw_tile").verdict == "fair"  # 500 games are enough draws


def test_pillars_bag_draws_favouring_one_colour(corpus: Corpus) -> None:
    # 500 games, red's master builders drawn from the bag with weight 1.2.
    biased = judged(corpus("pillars-red", "pillars", 500, Favouring("owner", "red", 1.2)))
    builders = group(biased, "draw_master_builder")
    assert builders.verdict == "biased"
    assert builders.furthest(1)[0].label == "red" and builders.furthest(1)[0].z > 0
    others = [g for g in biased.groups if g.type != "draw_master_builder"]
    assert all(g.verdict != "biased" for g in others)
    fair = judged(corpus("pillars-fair", "pillars", 500))
    assert not fair.biased
    assert group(fair, "draw_master_builder").verdict == "fair"


def test_a_sticky_generator_fails_the_independence_tests(corpus: Corpus) -> None:
    # 1,000 Municipium games whose generator repeats the previous outcome of the same kind
    # with probability 0.05 while it can.
    sticky = judged(corpus("municipium-sticky", "municipium", 1000, Sticky(0.05)))
    assert sticky.biased
    rejecting = {
        t.id
        for g in sticky.groups
        for t in g.tests
        if g.verdict == "biased" and t.p_holm <= sticky.settings.alpha
    }
    assert rejecting & {"lag1", "runs"}, rejecting
    fair = judged(corpus("municipium-fair", "municipium", 1000))
    assert not fair.biased
    assert {g.verdict for g in fair.groups} == {"fair"}


@pytest.mark.parametrize(
    ("game", "kind"),
    [
        ("palmyra", "draw_tile"),
        ("milestones", "draw_worker_tile"),
        ("municipium", "draw_citizen"),
        ("pillars", "draw_master_builder"),
    ],
)
def test_a_generator_reseeded_alike_every_game_fails_an_across_games_test(
    corpus: Corpus, game: str, kind: str
) -> None:
    # 60 games whose chance draws come from a generator seeded with 11 at every game; the
    # players' events (and the player counts) differ from game to game. Each draw is fair
    # given its own game so far: what shows is that a draw follows the one at the same place
    # a game before (of its kind where a game's kinds draw alike, the same chance event of
    # any kind where one generator serves them all, as here in Pillars and Municipium).
    reseeded = judged(corpus(f"{game}-reseeded", game, 60, Reseeded(11)))
    draws = group(reseeded, kind)
    assert draws.verdict == "biased"
    across = [t for t in draws.tests if t.id in ("across_games", "across_stream")]
    assert len(across) == 2
    deciding = min(across, key=lambda t: t.p_holm)
    assert deciding.statistic > 0 and deciding.p_holm <= reseeded.settings.alpha
    fair = judged(corpus(f"{game}-fair-60", game, 60))
    assert not fair.biased
