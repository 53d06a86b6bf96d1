"""A profile with a value of the wrong shape is the user's error (BadOptions), never ours.

For every data key of every game, odd replacement values are tried. Making the game must
either refuse the profile with BadOptions, or accept it; an accepted profile must then play
a short seeded game without any crash (an engine that accepts a value must cope with it).
"""

from __future__ import annotations

import copy as copy_module
import random
import time
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


NESTED_ODD: list[Any] = [None, "x", -1, 10**7, [], {}, ["x"], {"x": 1}]
"""Values put in place of one value nested inside a data entry (a card's field, a list item)."""


def _nested_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value nested inside ``value`` (keys and list indices)."""
    out: list[tuple[Any, ...]] = [path] if path else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _nested_paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _nested_paths(v, (*path, i))
    return out


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A deep copy of ``value`` with the value at ``path`` replaced by ``new``."""
    copy = copy_module.deepcopy(value)
    node = copy
    for step_ in path[:-1]:
        node = node[step_]
    node[path[-1]] = new
    return copy


def _nested_cases() -> list[tuple[str, str]]:
    return [
        (n, key)
        for n in game_names()
        for key, entry in make_game(n, {}).data.entries.items()
        if isinstance(entry.value, dict | list)
    ]


@pytest.mark.parametrize(("name", "key"), _nested_cases())
def test_odd_nested_profile_values_are_refused_or_played(name: str, key: str) -> None:
    """A card's field, a list item, a nested count: an odd value there is refused with
    BadOptions when the game is made, or plays a short game without a crash, in bounded
    time (no value may make the listing of legal events explode)."""
    value = make_game(name, {}).data.entries[key].value
    paths = _nested_paths(value)
    picked = random.Random(f"{name}:{key}").sample(paths, min(3, len(paths)))
    crashes = []
    for path in picked:
        for odd in NESTED_ODD:
            profile = {key: _replaced(value, path, odd)}
            try:
                game = make_game(name, {"profile": profile})
            except BadOptions:
                continue
            except Exception as exc:  # noqa: BLE001 - what we hunt
                crashes.append(f"{key}{list(path)}={odd!r}: {type(exc).__name__}: {exc}")
                continue
            started = time.monotonic()
            try:
                rng = random.Random(0)
                state = game.new_game(PLAYER_NAMES[: game.min_players])
                for _ in range(150):
                    if game.is_over(state):
                        break
                    state = step(game, state, choose(game, state, rng))
            except BadOptions:
                continue
            except Exception as exc:  # noqa: BLE001 - what we hunt
                crashes.append(f"{key}{list(path)}={odd!r}: {type(exc).__name__}: {exc}")
            if time.monotonic() - started > 10:
                crashes.append(f"{key}{list(path)}={odd!r}: 150 events took over 10 s")
    assert not crashes, "\n".join(crashes[:6])
