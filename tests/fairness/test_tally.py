"""The tallies and tests of chance draws, on draws whose sums are worked out by hand."""

from __future__ import annotations

import json
import math
import random
import statistics
from pathlib import Path

import numpy as np
import pytest

import rules_oracle
from oracle.chance import KINDS, Draw, GroupTally, Tally, labels, log_draws
from oracle.fairness import Settings, _across, chi_square, holm, judge, max_z, sample_size
from oracle.games import GameCache


def draw(keys: tuple[str, ...], probabilities: tuple[float, ...], drawn: int) -> Draw:
    return Draw("municipium", "draw_citizen", keys, probabilities, drawn)


def test_two_draws_sum_their_expectations_and_covariances() -> None:
    group = GroupTally("municipium", "draw_citizen")
    group.add(draw(("a", "b"), (0.5, 0.5), 0), 0.5, True)
    group.add(draw(("a", "b"), (0.25, 0.75), 1), 0.5, False)
    # expected a: 0.5 + 0.25; b: 0.5 + 0.75. var a: 0.5*0.5 + 0.25*0.75 = 0.4375.
    assert group.labels == ["a", "b"]
    assert group.observed == [1.0, 1.0]
    assert np.allclose(group.expected, [0.75, 1.25])
    assert np.allclose(group.covariance, [[0.4375, -0.4375], [-0.4375, 0.4375]])
    # PIT: a drawn at (0.5, 0.5) -> 0 + 0.5 * 0.5; b drawn at (0.25, 0.75) -> 0.25 + 0.5 * 0.75.
    assert list(group.pits) == [0.25, 0.625]
    assert group.starts == [0] and group.sequences == 1


def test_a_draw_of_several_items_counts_each_item() -> None:
    group = GroupTally("pillars", "reveal_craftsmen")
    pair = Draw("pillars", "reveal_craftsmen", (("a", "b"), ("a", "c")), (0.5, 0.5), 1)
    group.add(pair, 0.0, True)
    # a is always drawn (mean 1, variance 0); b and c each half the time, never together.
    assert group.labels == ["a", "b", "c"]
    assert group.observed == [1.0, 0.0, 1.0]
    assert np.allclose(group.expected, [1.0, 0.5, 0.5])
    assert np.allclose(group.covariance, np.array([[0, 0, 0], [0, 0.25, -0.25], [0, -0.25, 0.25]]))


def test_a_draw_with_one_outcome_is_left_out() -> None:
    group = GroupTally("municipium", "draw_citizen")
    group.add(draw(("a",), (1.0,), 0), 0.3, True)
    assert (group.draws, group.forced, len(group.pits)) == (0, 1, 0)


def test_merged_tallies_equal_one_tally_of_all_draws() -> None:
    draws = [draw(("a", "b", "c"), (0.2, 0.3, 0.5), i % 3) for i in range(9)]
    whole = Tally(5)
    whole.start("x")
    for d in draws[:4]:
        whole.add(d)
    whole.start("y")
    for d in draws[4:]:
        whole.add(d)
    first, second = Tally(5), Tally(5)
    first.start("x")
    for d in draws[:4]:
        first.add(d)
    second.start("y")
    for d in draws[4:]:
        second.add(d)
    first.merge(second)
    mine, theirs = (
        whole.groups["municipium", "draw_citizen"],
        first.groups["municipium", "draw_citizen"],
    )
    assert mine.observed == theirs.observed and list(mine.pits) == list(theirs.pits)
    assert np.allclose(mine.covariance, theirs.covariance) and mine.starts == theirs.starts == [
        0,
        4,
    ]


def test_labels_of_keys() -> None:
    assert labels("L:D") == ("L:D",)
    assert labels(3) == ("3",)
    assert labels(("mason_1", "tool_maker_1")) == ("mason_1", "tool_maker_1")


def test_holm_adjusts_by_rank() -> None:
    # Sorted 0.01, 0.03, 0.04: times 3, 2, 1 -> 0.03, 0.06, 0.04 -> running max 0.06.
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_sample_size_for_one_degree_of_freedom() -> None:
    # df 1: power 0.9 at alpha 0.01 needs sqrt(lambda) = z(0.995) + z(0.9) = 2.5758 + 1.2816,
    # lambda = 14.879; n = lambda / w^2 = 1487.9 -> 1488 draws for w = 0.1.
    assert sample_size(1, Settings(0.1, 0.9, 0.01)) == 1488
    assert sample_size(1, Settings(0.2, 0.9, 0.01)) == 372
    assert sample_size(5, Settings()) > sample_size(1, Settings())


def test_chi_square_of_two_categories_is_the_square_of_z() -> None:
    # 400 fair coin flips with 230 heads: z = 30 / 10 = 3, chi-square 9 on 1 df.
    difference = np.array([30.0, -30.0])
    covariance = np.array([[100.0, -100.0], [-100.0, 100.0]])
    found = chi_square(difference, covariance, np.array([200.0, 200.0]))
    assert found is not None and found.df == 1
    assert found.statistic == pytest.approx(9.0)
    assert found.p == pytest.approx(0.0026998, rel=1e-4)
    largest = max_z(difference, np.array([10.0, 10.0]), np.array([200.0, 200.0]))
    assert largest is not None and largest.statistic == pytest.approx(3.0)
    assert largest.p == pytest.approx(2 * 2 * 0.0013499, rel=1e-3)  # two outcomes, two-sided


def test_rare_categories_are_pooled() -> None:
    # 100 draws at p = (0.01, 0.02, 0.97): expected 1 and 2 are pooled (3), then with 97:
    # one bucket, always 100 draws: no degree of freedom is left.
    p = np.array([0.01, 0.02, 0.97])
    covariance = 100 * (np.diag(p) - np.outer(p, p))
    assert chi_square(np.array([1.0, 1.0, -2.0]), covariance, 100 * p) is None
    # At 1000 draws (10, 20, 970) nothing is pooled: two degrees of freedom.
    found = chi_square(np.array([1.0, 1.0, -2.0]), 10 * covariance, 1000 * p)
    assert found is not None and found.df == 2


def test_too_few_draws_are_insufficient_never_fair() -> None:
    tally, rng = Tally(0), random.Random(1)
    tally.start("g")
    for _ in range(40):
        tally.add(draw(("a", "b"), (0.5, 0.5), rng.randrange(2)))
    group = judge(tally).groups[0]
    assert group.required == 1488 and group.draws == 40
    assert group.verdict == "insufficient"


def test_enough_balanced_draws_are_fair_and_a_lopsided_run_is_biased() -> None:
    fair, lopsided, rng = Tally(0), Tally(0), random.Random(2)
    fair.start("g")
    lopsided.start("g")
    for i in range(2000):
        fair.add(draw(("a", "b"), (0.5, 0.5), rng.randrange(2)))
        lopsided.add(draw(("a", "b"), (0.5, 0.5), 0 if i % 10 else 1))
    assert judge(fair).groups[0].verdict == "fair"
    biased = judge(lopsided).groups[0]
    assert biased.verdict == "biased"
    assert biased.furthest(1)[0].label == "a" and biased.furthest(1)[0].z > 0
    alternating = Tally(0)
    alternating.start("g")
    for i in range(2000):
        alternating.add(draw(("a", "b"), (0.5, 0.5), i % 2))
    found = judge(alternating).groups[0]
    assert found.verdict == "biased" and found.deciding is not None
    assert found.deciding.id in ("lag1", "runs")  # every count as expected: only order shows


def test_the_same_draws_game_after_game_fail_the_across_games_test_alone_of_the_fit_tests() -> None:
    # 300 games of 12 coin tosses, each game the same six heads and six tails in the same
    # order. Every count is as expected (1,800 each) and each game's PIT values are uniform
    # (half below 1/2, spread evenly by the randomization), so the fit tests see nothing. A
    # draw and the same draw of the game before always fall in the same half: with normal
    # scores X, Y of independent uniforms on one half, E[XY] = E[|Z|]^2 = 2 / pi.
    pattern = (0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 1)
    tally = Tally(0)
    for game in range(300):
        tally.start(f"g{game}")
        for side in pattern:
            tally.add(draw(("a", "b"), (0.5, 0.5), side))
    [group] = judge(tally).groups
    tests = {t.id: t for t in group.tests}
    assert group.verdict == "biased"
    assert tests["across_games"].p_holm <= 0.01
    assert abs(tests["across_games"].statistic - 2 / math.pi) < 0.05
    assert all(tests[t].p_holm > 0.01 for t in ("chi_square", "pit_uniform"))
    assert [o.observed for o in group.outcomes] == [1800.0, 1800.0]


def test_one_generator_reseeded_for_every_kind_fails_the_across_stream_test() -> None:
    # 300 games of 12 coin tosses of two kinds; the k-th toss of every game falls on the
    # same side (the pattern), but even games toss kinds A, B, A, B, ... and odd games B, A,
    # B, A, ...: the k-th chance event of a game follows the k-th of the game before (2/pi,
    # as above), while the j-th toss of kind A is toss 2j in one game and 2j + 1 in the
    # next, and those two agree in 3 of the 6 pairs: no correlation by kind.
    pattern = (0, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0)
    tally = Tally(0)
    for game in range(300):
        tally.start(f"g{game}")
        for k, side in enumerate(pattern):
            kind = "a" if (k + game) % 2 == 0 else "b"
            tally.add(Draw("municipium", kind, ("x", "y"), (0.5, 0.5), side))
    result = judge(tally)
    for group in result.groups:
        tests = {t.id: t for t in group.tests}
        assert tests["across_stream"].p_holm <= 0.01
        assert abs(tests["across_stream"].statistic - 2 / math.pi) < 0.05
        assert tests["across_games"].p_holm > 0.01
        assert abs(tests["across_games"].statistic) < 0.1


def test_merged_streams_equal_one_stream_of_all_draws() -> None:
    # Two kinds interleaved over three sequences, tallied whole and in two batches.
    rng = random.Random(4)
    sequences = [
        [
            Draw("municipium", rng.choice(("a", "b")), ("x", "y"), (0.5, 0.5), rng.randrange(2))
            for _ in range(n)
        ]
        for n in (5, 7, 6)
    ]
    whole, first, second = Tally(1), Tally(1), Tally(1)
    for name, draws in zip("xyz", sequences, strict=True):
        for tally in (whole, first if name == "x" else second):
            tally.start(name)
            for d in draws:
                tally.add(d)
    first.merge(second)
    assert list(whole.streams["municipium"].pits) == list(first.streams["municipium"].pits)
    assert whole.streams["municipium"].starts == first.streams["municipium"].starts == [0, 5, 12]
    for key, group in whole.groups.items():
        assert list(group.in_stream) == list(first.groups[key].in_stream)
    by_kind = [{g.type: g for g in judge(t).groups} for t in (whole, first)]
    assert by_kind[0] == by_kind[1] and set(by_kind[0]) == {"a", "b"}


def test_across_games_pairs_the_j_th_draws_of_successive_sequences() -> None:
    # Three sequences of 3, 2 and 3 values: the pairs are (0.1, 0.2), (0.9, 0.8) and
    # (0.2, 0.3), (0.8, 0.7); the third value of the first and last are unpaired.
    pits = np.array([0.1, 0.9, 0.6, 0.2, 0.8, 0.3, 0.7, 0.4])
    found = _across(pits, [0, 3, 5])
    assert found is not None and found.id == "across_games"
    earlier, later = [0.1, 0.9, 0.2, 0.8], [0.2, 0.8, 0.3, 0.7]
    normal = statistics.NormalDist()
    expected = statistics.correlation(
        [normal.inv_cdf(u) for u in earlier], [normal.inv_cdf(u) for u in later]
    )
    assert found.statistic == pytest.approx(expected)
    assert _across(pits[:5], [0, 3]) is None  # two pairs are too few


def test_every_chance_event_of_play_is_a_listed_kind() -> None:
    for game in rules_oracle.GAMES:
        rules = rules_oracle.load(game)
        for players in (rules.min_players, rules.max_players):
            lines = rules_oracle.play_log(game, players, seed=players)
            chance = {
                event["type"] for event in map(json.loads, lines[1:-1]) if "player" not in event
            }
            assert chance, game
            assert {(game, kind) for kind in chance} <= set(KINDS), game


def test_a_log_draws_stop_at_its_first_problem(tmp_path: Path) -> None:
    lines = rules_oracle.play_log("municipium", 2, seed=3)
    events = [json.loads(line) for line in lines[1:-1]]
    draws_at = [i for i, e in enumerate(events) if "player" not in e]
    cut = draws_at[5]  # the sixth draw is replaced by a citizen kind that does not exist
    broken = dict(events[cut])
    broken["kind"] = "centurion"
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join([lines[0], *map(json.dumps, [*events[:cut], broken])]) + "\n")
    verdict, draws = log_draws(path, GameCache())
    assert verdict.kind in ("illegal", "malformed") and verdict.line == cut + 2
    assert len(draws) == 5
    assert all(d.line is not None and d.line < cut + 2 for d in draws)
    whole = tmp_path / "whole.jsonl"
    whole.write_text("\n".join(lines) + "\n")
    verdict, draws = log_draws(whole, GameCache())
    assert verdict.kind == "valid" and len(draws) == len(draws_at)


def test_a_divergent_claim_leaves_out_its_event(tmp_path: Path) -> None:
    lines = rules_oracle.play_log("municipium", 2, seed=3)
    events = [json.loads(line) for line in lines[1:-1]]
    first_draw = next(i for i, e in enumerate(events) if "player" not in e)
    events[first_draw]["state"] = {"phase": "no such phase"}
    path = tmp_path / "divergent.jsonl"
    path.write_text("\n".join([lines[0], *map(json.dumps, events)]) + "\n")
    verdict, draws = log_draws(path, GameCache())
    assert verdict.kind == "divergent" and verdict.line == first_draw + 2
    assert draws == []


def test_a_public_tally_counts_a_draw_at_a_position() -> None:
    position = rules_oracle.load("pillars").setup(["red", "blue"])
    tally = rules_oracle.ChanceTally()
    outcomes = position.chance_outcomes()
    tally.add(position, outcomes[3][0])
    assert tally.draws == 1
    with pytest.raises(rules_oracle.BadOptions):
        tally.add(position, {"type": "reveal_advantages", "cards": ["nobody", "nothing"]})
    with pytest.raises(rules_oracle.BadOptions):
        tally.test(alpha=1.5)
    result = tally.test()
    assert [g.type for g in result.groups] == ["reveal_advantages"]
    assert math.isclose(sum(o.expected for o in result.groups[0].outcomes), 2.0)


def test_play_log_draws_chance_outcomes_by_a_policy() -> None:
    def always_last(
        outcomes: list[tuple[dict[str, object], float]], rng: random.Random
    ) -> dict[str, object]:
        return outcomes[-1][0]

    lines = rules_oracle.play_log("municipium", 2, seed=4, chance=always_last)
    first_draw = next(e for e in map(json.loads, lines[1:]) if e.get("type") == "draw_citizen")
    assert first_draw["kind"] == "priest"  # the last of the citizen kinds listed at set-up
    assert (
        rules_oracle.validate_events(
            "municipium", ["red", "blue"], map(json.loads, lines[1:-1])
        ).kind
        == "valid"
    )

    def nothing_listed(
        outcomes: list[tuple[dict[str, object], float]], rng: random.Random
    ) -> dict[str, object]:
        return {"type": "draw_citizen", "kind": "senator"}

    with pytest.raises(ValueError, match="not one of the outcomes"):
        rules_oracle.play_log("municipium", 2, seed=4, chance=nothing_listed)


def test_a_skewed_count_is_judged_by_its_skew_corrected_z() -> None:
    # A count with sd 1 and third cumulant 0.142 (skew 0.142), 4.9 sd above its mean:
    # Cornish-Fisher gives 4.9 - 0.142 * (4.9^2 - 1) / 6 = 4.3554; 4.9 below it, -5.4446.
    sds, expected = np.array([1.0]), np.array([50.0])
    above = max_z(np.array([4.9]), sds, expected, np.array([0.142]))
    below = max_z(np.array([-4.9]), sds, expected, np.array([0.142]))
    assert above is not None and above.statistic == pytest.approx(4.3554, abs=1e-4)
    assert below is not None and below.statistic == pytest.approx(5.4446, abs=1e-4)
    plain = max_z(np.array([4.9]), sds, expected)
    assert plain is not None and plain.p < above.p
