"""Seeded random play-outs of Milestones over 2-4 players, invariants checked after every step."""

from __future__ import annotations

import random

import cattrs
import pytest

from reference.core.errors import RuleViolation
from reference.core.game import CHANCE, step
from reference.milestones import make
from reference.milestones.state import State

GAME = make({})
CONVERTER = cattrs.Converter()
MAX_EVENTS = 20_000
SEEDS = range(8)


def choose(rng: random.Random, state: State) -> object:
    """A uniformly random legal action, or a chance outcome by its weight."""
    if GAME.to_act(state) == CHANCE:
        outcomes = GAME.chance_outcomes(state)
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        return rng.choices([e for e, _ in outcomes], [p for _, p in outcomes])[0]
    return rng.choice(GAME.legal_events(state))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_milestones_random_playout(players: int, seed: int) -> None:
    rng = random.Random(seed * 10 + players)
    state = GAME.new_game([f"p{i}" for i in range(players)])
    events = 0
    while not GAME.is_over(state):
        legal = GAME.legal_events(state)
        assert legal, f"no legal event at step {events}"
        if events % 97 == 0:
            assert len(set(legal)) == len(legal), "an event is listed twice"
            assert legal == GAME.legal_events(state), "the order is not stable"
            # every listed event applies (the list and apply agree)
            for event in legal:
                try:
                    GAME.apply(state, event)
                except RuleViolation as exc:  # pragma: no cover - a failure path
                    pytest.fail(f"listed event {event!r} is illegal: {exc}")
            again = CONVERTER.structure(CONVERTER.unstructure(state), type(state))
            assert again == state
        state = step(GAME, state, choose(rng, state))
        events += 1
        assert events < MAX_EVENTS, "the game did not end"
    result = GAME.result(state)
    assert set(result.scores) == set(state.players)
    assert result.winners
    assert GAME.legal_events(state) == []
    assert sum(state.majority_vp.values()) <= 25 * players


def test_milestones_playout_on_fixture_map() -> None:
    """The small T1 map with explicit tiles also plays to the end."""
    from milestones_fixture import t1_game

    game = t1_game()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game(["a", "b", "c"])
        for _ in range(MAX_EVENTS):
            if game.is_over(state):
                break
            if game.to_act(state) == CHANCE:
                outcomes = game.chance_outcomes(state)
                event = rng.choices([e for e, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                event = rng.choice(game.legal_events(state))
            state = step(game, state, event)
        assert game.is_over(state)
