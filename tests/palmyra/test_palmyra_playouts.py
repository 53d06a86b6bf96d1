"""Seeded random play-outs of Palmyra over every mode and player count."""

from __future__ import annotations

import random
from typing import Any

import cattrs
import pytest

from reference.core.errors import RuleViolation
from reference.core.game import CHANCE, step
from reference.palmyra import make
from reference.palmyra.engine import PalmyraGame

MAX_EVENTS = 5000
CONVERTER = cattrs.Converter()

MODES: list[tuple[dict[str, Any], tuple[int, ...]]] = [
    ({}, (2, 3, 4, 5)),
    ({"mode": "advanced"}, (2, 3, 4, 5)),
    ({"mode": "solo"}, (1,)),
    (
        {
            "icon_match": "add",
            "match_timing": "after_move",
            "tax_threshold": "at_least",
            "flip_timing": "after_chain",
            "lone_icon": "forbidden",
            "tiles_end": "draw_fails",
        },
        (2, 4),
    ),
]


def pick(game: PalmyraGame, state: Any, rng: random.Random) -> Any:
    """A uniform legal action, or a chance outcome by its weight."""
    if game.to_act(state) == CHANCE:
        outcomes = game.chance_outcomes(state)
        events = [e for e, _ in outcomes]
        return rng.choices(events, weights=[w for _, w in outcomes])[0]
    return rng.choice(game.legal_events(state))


def play(game: PalmyraGame, players: int, seed: int, check_all: bool) -> tuple[Any, int]:
    """Play one game to the end; returns the final state and the event count."""
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    state = game.new_game(names)
    for n in range(MAX_EVENTS):
        if game.is_over(state):
            return state, n
        events = game.legal_events(state)
        assert events, f"no legal event at step {n} in phase {state.phase}"
        if check_all or n % 25 == 0:
            for event in events:
                step(game, state, event)  # every listed event applies
            assert CONVERTER.structure(CONVERTER.unstructure(state), type(state)) == state
        state = step(game, state, pick(game, state, rng))
    raise AssertionError(f"game not over after {MAX_EVENTS} events")


@pytest.mark.parametrize("options,counts", MODES)
def test_palmyra_random_playouts_end_soundly(
    options: dict[str, Any], counts: tuple[int, ...]
) -> None:
    game = make(options)
    for players in counts:
        for seed in range(6):
            state, _ = play(game, players, seed, check_all=seed == 0)
            result = game.result(state)
            assert set(result.scores) == set(state.players)
            assert state.end in ("tiles", "bank")


def test_palmyra_chance_weights_sum_to_one() -> None:
    game = make({})
    state = game.new_game(["a", "b", "c"])
    total = sum(w for _, w in game.chance_outcomes(state))
    assert abs(total - 1.0) < 1e-9


def test_palmyra_legal_events_are_unique() -> None:
    game = make({"mode": "advanced"})
    rng = random.Random(3)
    state = game.new_game(["a", "b", "c"])
    while not game.is_over(state):
        events = game.legal_events(state)
        assert len(events) == len(set(events))
        state = step(game, state, pick(game, state, rng))


def test_palmyra_illegal_events_never_listed() -> None:
    """A random wrong event (another player's) is refused with PAL-TURN-01."""
    game = make({})
    state = game.new_game(["a", "b"])
    rng = random.Random(5)
    while game.to_act(state) == CHANCE:
        state = step(game, state, pick(game, state, rng))
    wrong = game.legal_events(state)[0]
    other = "b" if wrong.player == "a" else "a"
    import attrs

    with pytest.raises(RuleViolation) as info:
        game.apply(state, attrs.evolve(wrong, player=other))
    assert info.value.rule_id == "PAL-TURN-01"
