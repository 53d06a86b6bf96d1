"""The suites' counts by a second method that never asks the engine for its legal events:
every event the event classes allow, from the game's vocabulary, kept if ``apply`` accepts it
(tests/perft/schema_events.py)."""

from __future__ import annotations

import pytest
import schema_events
from broken_engine import Broken

from oracle.perft import spot_position
from oracle.perft_files import Suite, load_suite, suite_path
from reference.core.game import Game
from reference.registry import game_names


def suite(game: str) -> Suite:
    return load_suite(suite_path(game))


def at(game: str, entry_id: str) -> tuple[Game, object, dict[int, int]]:
    """Our rule set, the state of a suite position, and the suite's counts there."""
    found = suite(game)
    entry = next(e for e in found.entries if e.id == entry_id)
    position = spot_position(entry.spot(game))
    return position.rules._game, position._state, entry.perft  # noqa: SLF001


@pytest.mark.slow
@pytest.mark.parametrize("game", game_names())
def test_every_suite_position_at_depth_one(game: str) -> None:
    """The legal events of every position of the suite, rare phases and options included."""
    every = schema_events.CANDIDATES[game]
    for entry in suite(game).entries:
        rules, state, perft = at(game, entry.id)
        assert schema_events.count(rules, state, 1, every) == perft[1], entry.id


def test_a_solo_position_at_depth_two() -> None:
    """The quick one: the solo game's turn, two events deep."""
    rules, state, perft = at("palmyra", "solo")
    assert schema_events.count(rules, state, 2, schema_events.CANDIDATES["palmyra"]) == perft[2]


DEEPER = [
    ("pillars", "division-3p", 2),
    ("pillars", "last-round-cathedral", 2),
    ("milestones", "setup-2p", 3),
    ("milestones", "first-turn", 2),
    ("palmyra", "first-turn", 3),
    ("municipium", "first-move", 2),
    ("municipium", "setup-3p", 3),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "entry_id", "depth"), DEEPER)
def test_suite_counts_deeper(game: str, entry_id: str, depth: int) -> None:
    rules, state, perft = at(game, entry_id)
    every = schema_events.CANDIDATES[game]
    assert schema_events.count(rules, state, depth, every) == perft[depth]


def test_the_second_method_sees_an_event_apply_should_refuse() -> None:
    """It can fail: a rule set whose apply takes one use too many of a craftsman (the broken
    engine's plant) gets one more accepted event at the last round's cathedral step."""
    rules, state, perft = at("pillars", "last-round-cathedral")
    every = schema_events.CANDIDATES["pillars"]
    assert schema_events.count(rules, state, 1, every) == perft[1]
    broken = Broken(rules, "extra-use")
    assert schema_events.count(broken, state, 1, every) == perft[1] + 1
