"""Perft counts worked out by hand from the rules (docs/games/<game>.md), and what a count is
(docs/perft.md): one step per event, chance outcomes included, once per distinct outcome;
independent decisions once per order; nothing beyond the end of the game."""

from __future__ import annotations

from math import comb
from pathlib import Path

import pytest

import rules_oracle
from rules_oracle import PLAYER_NAMES


def counts(position: rules_oracle.Position, depths: range) -> list[int]:
    return [rules_oracle.perft(position, d).count for d in depths]


def test_municipium_placement_is_seven_choices_each_time() -> None:
    # MUN-PLACE-01: in seat order each family places one member in any of the seven
    # institutions; with 2 players there is no chance event before round 1
    position = rules_oracle.load("municipium").setup(["red", "blue"])
    assert counts(position, range(1, 5)) == [7**d for d in range(1, 5)]


def test_municipium_setup_draws_count_each_kind_once_not_each_citizen() -> None:
    # 3 players: a citizen is drawn for each of the six meeting rooms (MUN-BAG-01): 4 kinds
    # in the bag (15 of each, so no kind runs out in six draws), each kind one outcome
    # whatever its share; then the first member goes to any of the 7 institutions
    position = rules_oracle.load("municipium").setup(PLAYER_NAMES[:3])
    assert counts(position, range(1, 8)) == [4**d for d in range(1, 7)] + [4**6 * 7]


def test_pillars_round_preparation() -> None:
    # 14 ordinary advantage cards, two on Kingsbridge spaces 1 and 2 (order matters); two of
    # round 1's four craftsmen to Shiring spaces 1 and 2 (order matters); two of the nine
    # resource cards set aside (a pair, in any order: one event)
    position = rules_oracle.load("pillars").setup(["red", "blue"])
    first = 14 * 13
    assert counts(position, range(1, 4)) == [first, first * 4 * 3, first * 4 * 3 * comb(9, 2)]


def test_milestones_bonus_tiles_run_out_by_kind() -> None:
    # 5 kinds of bonus tile, 3 of each, one revealed per bush (15 bushes): up to three
    # reveals any kind may come; the 4th reveal of a kind is impossible. So the sequences
    # are the words over 5 letters with no letter more than 3 times
    position = rules_oracle.load("milestones").setup(["red", "blue"])
    four = 5**4 - 5  # all four the same kind
    five = 5**5 - 5 * (comb(5, 4) * 4 + 1)  # a kind four or five times
    six = 5**6 - 5 * (comb(6, 4) * 4**2 + comb(6, 5) * 4 + 1)  # (two kinds 4+ needs 8)
    assert counts(position, range(1, 7)) == [5, 25, 125, four, five, six]


def test_palmyra_starting_tiles() -> None:
    # the first seat draws a large tile, then a small one: 12 codes of each size (three
    # landscapes, plain or one of three icons)
    position = rules_oracle.load("palmyra").setup(PLAYER_NAMES[:3])
    assert counts(position, range(1, 3)) == [12, 12 * 12]


def test_independent_decisions_count_once_per_order() -> None:
    # the division event: every queued player discards one craftsman, in any order
    # (PIL-EVENT-03): depth 1 is any one discard, depth 2 an ordered pair of players, ...
    suite = rules_oracle.PERFT_SUITES_DIR / "pillars.yaml"
    position = _suite_position(suite, "division-3p")
    queue = position["queue"]
    held = [len(position[f"players.{name}.craftsmen"]) for name in queue]
    assert len(held) == 3 and position["stage"] == "division"
    a, b, c = held
    expected = [a + b + c, 2 * (a * b + b * c + c * a), 6 * a * b * c]
    assert counts(position, range(1, 4)) == expected


def _suite_position(path: Path, entry: str) -> rules_oracle.Position:
    """A suite position through the public API: its events played from the setup."""
    import yaml

    data = yaml.safe_load(path.read_text())
    found = next(p for p in data["positions"] if p["id"] == entry)
    position = rules_oracle.load(data["game"], found.get("options")).setup(found["players"])
    for event in found.get("given", {}).get("events", []):
        position = position.apply(event)
    return position


def test_depth_zero_is_one_sequence_and_a_finished_game_has_no_longer_one() -> None:
    position = rules_oracle.load("palmyra").setup(["red", "blue"])
    assert rules_oracle.perft(position, 0).count == 1
    lines = rules_oracle.play_log("palmyra", 2, seed=3)
    import json

    _, *events, _ = (json.loads(line) for line in lines)
    for event in events:
        position = position.apply(event)
    assert position.is_over
    assert [rules_oracle.perft(position, d).count for d in range(4)] == [1, 0, 0, 0]
    assert rules_oracle.perft(position, 2, divide=True).divide == ()


def test_divide_lists_the_legal_events_in_order_and_adds_up() -> None:
    position = _suite_position(rules_oracle.PERFT_SUITES_DIR / "municipium.yaml", "forum")
    result = rules_oracle.perft(position, 3, divide=True)
    assert result.divide is not None
    assert [event for event, _ in result.divide] == position.legal()
    assert sum(n for _, n in result.divide) == result.count
    for event, n in result.divide:
        assert rules_oracle.perft(position.apply(event), 2).count == n


def test_worker_processes_give_the_same_counts() -> None:
    position = _suite_position(rules_oracle.PERFT_SUITES_DIR / "palmyra.yaml", "choose-extra")
    alone = rules_oracle.perft(position, 4, divide=True)
    shared = rules_oracle.perft(position, 4, divide=True, jobs=2)
    assert (shared.count, shared.divide) == (alone.count, alone.divide)
    assert alone.count == 661  # the suite's count at depth 4


def test_a_depth_below_0_or_over_the_maximum_is_refused() -> None:
    position = rules_oracle.load("pillars").setup(["red", "blue"])
    assert rules_oracle.PERFT_MAX_DEPTH == 100
    for depth in (-1, 101, 100_000):
        with pytest.raises(rules_oracle.BadOptions, match="0 to 100"):
            rules_oracle.perft(position, depth)


def test_the_deepest_count_runs_where_the_game_ends_within_it() -> None:
    # Three events before a Palmyra game's end no sequence of 100 events exists: 0 (the
    # count stops at the end; it never recurses 100 deep).
    rules = rules_oracle.load("palmyra")
    played = [rules.setup(["red", "blue"])]
    while not played[-1].is_over:
        played.append(played[-1].apply(played[-1].legal()[0]))
    near_end = played[-4]
    assert rules_oracle.perft(near_end, rules_oracle.PERFT_MAX_DEPTH).count == 0
    assert rules_oracle.perft(near_end, 1).count == len(near_end.legal())


def test_discards_over_the_limit_count_once_per_order() -> None:
    # two Shiring takers over the craftsman limit by one each discard in any order
    # (PIL-CRAFT-01): one discard of either, then the other's: every ordered pair
    suite = rules_oracle.PERFT_SUITES_DIR / "pillars.yaml"
    position = _suite_position(suite, "shiring-over-limit-4p")
    discards = [e for e in position.legal() if e["type"] == "discard_craftsman"]
    over = sorted({e["player"] for e in discards})
    held = {name: len(position[f"players.{name}.craftsmen"]) for name in over}
    assert len(over) == 2 and discards == position.legal()
    (x, a), (y, b) = held.items()
    assert [rules_oracle.perft(position, d).count for d in (1, 2)] == [a + b, 2 * a * b]
