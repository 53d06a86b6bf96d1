"""The engine's shortcuts answer exactly as the longer ways they replace, over the states of
seeded play-outs: a space is free for a builder exactly when ``free_spaces`` lists it, the
cubes counted against the resource limit are each kind's usable cubes added up, and the
first pending player is the player to act (what the shell's turn rule relies on)."""

from __future__ import annotations

import random

import attrs
import pytest

from reference.core.game import step
from reference.pillars import make
from reference.pillars.engine import Pillars
from reference.pillars.flow import counted_resources, usable
from reference.pillars.rules_cards import free_spaces, space_free
from reference.pillars.state import State, evolve


def _states(game: Pillars, seed: int, players: int) -> list[State]:
    rng = random.Random(seed)
    state = game.new_game([f"p{i}" for i in range(players)])
    seen = [state]
    while not game.is_over(state):
        state = step(game, state, rng.choice(game.legal_events(state)))
        seen.append(state)
    return seen


@pytest.mark.parametrize("ordered", ["first_free", "any_free"])
def test_PIL_BUILD_11_space_free_is_membership_of_free_spaces(ordered: str) -> None:
    game = make({"ordered_spaces": ordered})
    checked = 0
    for seed, players in ((1, 2), (2, 4)):
        for state in _states(game, seed, players):
            if state.phase != "builders":
                continue
            listed = free_spaces(game.tables, state)
            for space in game.tables.spaces:
                assert space_free(game.tables, state, space) == (space in listed), space
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("metal_counts", [True, False])
def test_PIL_CATH_06_counted_resources_adds_up_usable_cubes(metal_counts: bool) -> None:
    game = make({})
    ctx = attrs.evolve(
        game.tables, t=attrs.evolve(game.tables.t, resource_limit_counts_metal=metal_counts)
    )
    kinds = ("sand", "wood", "stone", "metal") if metal_counts else ("sand", "wood", "stone")
    state = game.new_game(["red", "blue"])
    red = state.players["red"]
    for owed in ({}, {"stone": 2}, {"metal": 1, "sand": 3}):
        p = evolve(red, resources={"sand": 1, "wood": 2, "stone": 0, "metal": 4}, owed=owed)
        assert counted_resources(ctx, p) == sum(usable(p, r) for r in kinds)


def test_the_first_pending_player_is_the_player_to_act() -> None:
    game = make({})
    for seed, players in ((3, 3), (4, 4)):
        for state in _states(game, seed, players)[:-1]:
            assert game.pending(state)[0] == game.to_act(state)
