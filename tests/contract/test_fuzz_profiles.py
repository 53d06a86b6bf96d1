"""A profile with a value of the wrong shape is the user's error (BadOptions), never ours.

For every data key of every game, odd replacement values are tried. Making the game must
either refuse the profile with BadOptions, or accept it; an accepted profile must then play
a short seeded game without any crash (an engine that accepts a value must cope with it).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from oracle.play import PLAYER_NAMES, choose
from reference.core.errors import BadOptions, EngineInvariantError
from reference.core.game import step
from reference.registry import game_names, make_game

ODD: list[Any] = [None, "x", -1, 0, 1000, 10**6, [], {}, [None], {"x": -1}, True, 2.5]


def _cases() -> list[tuple[str, str]]:
    return [(n, key) for n in game_names() for key in make_game(n, {}).data.entries]


@pytest.mark.parametrize(("name", "key"), _cases())
def test_odd_profile_values_are_refused_or_played(name: str, key: str) -> None:
    crashes = []
    for value in ODD:
        try:
            game = make_game(name, {"profile": {key: value}})
        except BadOptions:
            continue
        rng = random.Random(0)
        try:
            state = game.new_game(PLAYER_NAMES[: game.min_players])
            for _ in range(300):
                if game.is_over(state):
                    break
                state = step(game, state, choose(game, state, rng))
        except BadOptions:
            continue  # refused at setup: still the user's error, clearly named
        except (EngineInvariantError, Exception) as exc:  # noqa: BLE001 - what we hunt
            crashes.append(f"{key}={value!r}: {type(exc).__name__}: {exc}")
    assert not crashes, "\n".join(crashes[:6])
