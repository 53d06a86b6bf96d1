"""Seeded random play-outs of Municipium over every player count, invariants at every step."""

from __future__ import annotations

import random
from typing import Any

import cattrs
import pytest

from reference.core.game import CHANCE, step
from reference.municipium import make
from reference.municipium.engine import Municipium

PLAYERS = ("red", "blue", "green", "yellow")
MAX_EVENTS = 5_000
SEEDS = range(12)


def choose(game: Municipium, state: Any, rng: random.Random) -> Any:
    """A chance outcome by its weight, or a uniform legal choice."""
    if game.to_act(state) == CHANCE:
        outcomes = game.chance_outcomes(state)
        return rng.choices([e for e, _ in outcomes], [w for _, w in outcomes])[0]
    return rng.choice(game.legal_events(state))


def play_out(game: Municipium, count: int, seed: int, sample_every: int = 37) -> Any:
    """Play one game to the end, checking the contract at a sample of steps."""
    rng = random.Random(seed)
    converter = cattrs.Converter()
    state = game.new_game(PLAYERS[:count])
    assert game.invariant_failures(state) == []
    events = 0
    while not game.is_over(state):
        legal = game.legal_events(state)
        assert legal, f"{game.to_act(state)} is to act with no legal event"
        if events % sample_every == 0:
            for event in legal:  # every listed event applies (step checks invariants)
                step(game, state, event)
            back = converter.structure(converter.unstructure(state), game.state_type)
            assert back == state
        if game.to_act(state) == CHANCE:
            weights = [w for _, w in game.chance_outcomes(state)]
            assert abs(sum(weights) - 1) < 1e-9
        state = step(game, state, choose(game, state, rng))
        events += 1
        assert events < MAX_EVENTS, "the game does not end"
    assert game.legal_events(state) == []
    return state


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_ends_soundly(count: int, seed: int) -> None:
    game = make({})
    state = play_out(game, count, seed)
    result = game.result(state)
    target = game.tables.decurions_to_end
    assert max(p.decurions for p in state.players.values()) >= target
    assert result.winners
    best = max(result.scores.values())
    assert all(result.scores[w] == best for w in result.winners)
    # MUN-END-01 (finish_round): the game ends after the last seat's turn.
    assert state.current == PLAYERS[count - 1]


@pytest.mark.parametrize("seed", range(4))
def test_immediate_end_mode_stops_at_target(seed: int) -> None:
    game = make({"end_mode": "immediate"})
    state = play_out(game, 3, seed)
    target = game.tables.decurions_to_end
    assert max(p.decurions for p in state.players.values()) >= target


def test_variant_b_roads_play_out() -> None:
    roads = [
        ["tavern", "baths"],
        ["baths", "emporium"],
        ["emporium", "basilica"],
        ["basilica", "forum"],
        ["forum", "praetorium"],
        ["praetorium", "tavern"],
        ["temple", "tavern"],
        ["temple", "praetorium"],
    ]
    game = make({"profile": {"board.roads": roads}})
    play_out(game, 4, 1)


@pytest.mark.parametrize("seed", range(4))
def test_finish_turn_end_mode_ends_after_the_turn(seed: int) -> None:
    game = make({"end_mode": "finish_turn"})
    state = play_out(game, 4, seed)
    target = game.tables.decurions_to_end
    assert max(p.decurions for p in state.players.values()) >= target


def test_setup_with_a_small_bag_still_reaches_placement() -> None:
    """MUN-CITIZEN-04: with few citizens (a profile) the bag can run dry while the citizen
    fields are drawn; the fields left empty stay empty and placement begins (the game used
    to wait for a draw from an empty bag, with no legal event)."""
    game = make({"profile": {"components.citizens_per_kind": 3}})
    for count in (3, 4):
        state = play_out(game, count, 0)
        assert game.is_over(state)
