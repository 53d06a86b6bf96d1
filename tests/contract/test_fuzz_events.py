"""apply and legal_events agree, on events the generator never lists.

At positions of seeded play-outs, events are built by oracle.probes (events seen anywhere
in the game with one field changed). For each: if ``apply`` accepts it, it must be listed; if it is
listed, ``apply`` must accept it; and ``apply`` may only ever raise ``RuleViolation`` (or
``MalformedEvent``), never anything else, which would be our bug dressed as the user's.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from oracle.play import PLAYER_NAMES, choose
from oracle.probes import Pool, candidates, new_pool, remember
from reference.core.errors import MalformedEvent, RuleViolation
from reference.core.game import Game, step
from reference.registry import game_names, make_game

POSITIONS = 120
CANDIDATES = 150


def _pool(game: Game, players: int, seed: int) -> tuple[list[Any], Pool]:
    """States along one play-out, and every value seen per (event class, field)."""
    rng = random.Random(seed)
    state = game.new_game(PLAYER_NAMES[:players])
    states, values = [], new_pool()
    while not game.is_over(state):
        states.append(state)
        remember(values, game.legal_events(state))
        state = step(game, state, choose(game, state, rng))
    return states, values


@pytest.mark.parametrize("name", game_names())
def test_apply_and_legal_events_agree_on_arbitrary_events(name: str) -> None:
    game = make_game(name, {})
    rng = random.Random(7)
    problems: list[str] = []
    counts = {"applies": 0, "refused": 0}
    for players in range(game.min_players, game.max_players + 1):
        states, values = _pool(game, players, seed=players)
        for state in rng.sample(states, min(POSITIONS // 2, len(states))):
            listed = game.legal_events(state)
            for event in candidates(game, values, rng, CANDIDATES):
                try:
                    step(game, state, event)
                    applies = True
                except (RuleViolation, MalformedEvent):
                    applies = False
                except Exception as exc:  # noqa: BLE001 - exactly what this test hunts
                    problems.append(f"{event!r} raised {type(exc).__name__}: {exc}")
                    continue
                counts["applies" if applies else "refused"] += 1
                if applies != (event in listed):
                    how = "applies but is not listed" if applies else "is listed but breaks a rule"
                    problems.append(f"{event!r} {how} (to act: {game.to_act(state)})")
    assert counts["applies"] > 0 and counts["refused"] > 0, counts
    assert not problems, f"{len(problems)} disagreements, e.g.:\n" + "\n".join(problems[:8])
