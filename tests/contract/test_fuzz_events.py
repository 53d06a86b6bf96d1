"""apply and legal_events agree, on events the generator never lists.

At positions of seeded play-outs, events are built from every event class: events seen
anywhere in the game with one field changed to another value seen for that field, or to a
near or out-of-range value. For each: if ``apply`` accepts it, it must be listed; if it is
listed, ``apply`` must accept it; and ``apply`` may only ever raise ``RuleViolation`` (or
``MalformedEvent``), never anything else, which would be our bug dressed as the user's.
"""

from __future__ import annotations

import random
import types
import typing
from collections import defaultdict
from typing import Any

import attrs
import pytest

from oracle.play import PLAYER_NAMES, choose
from reference.core.errors import MalformedEvent, RuleViolation
from reference.core.game import Game, step
from reference.registry import game_names, make_game

POSITIONS = 120
CANDIDATES = 150


def _pool(
    game: Game, players: int, seed: int
) -> tuple[list[Any], dict[tuple[type, str], list[Any]]]:
    """States along one play-out, and every value seen per (event class, field)."""
    rng = random.Random(seed)
    state = game.new_game(PLAYER_NAMES[:players])
    states, values = [], defaultdict(list)
    while not game.is_over(state):
        states.append(state)
        for event in game.legal_events(state):
            for f in attrs.fields(type(event)):
                value = getattr(event, f.name)
                if value not in values[type(event), f.name]:
                    values[type(event), f.name].append(value)
        state = step(game, state, choose(game, state, rng))
    return states, values


def _odd_values(kind: Any) -> list[Any]:
    """Values a careless log might hold for a field of this type."""
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if kind is int:
        return [-1, 0, 1, 7, 99]
    if kind is str:
        return ["", "zzz", "chance"]
    if kind is bool:
        return [True, False]
    if origin is tuple:
        return [(), ("zzz",)] if args and args[0] is str else [(), (-1,), (0, 0)]
    if origin in (typing.Union, types.UnionType):
        return [None, *(_odd_values(a)[0] for a in args if a is not type(None))]
    return []


def _candidates(
    game: Game, state: Any, values: dict[tuple[type, str], list[Any]], rng: random.Random
) -> list[Any]:
    out = []
    hints = {cls: typing.get_type_hints(cls) for cls in game.event_types}
    for _ in range(CANDIDATES):
        cls = rng.choice(game.event_types)
        fields = [f.name for f in attrs.fields(cls)]
        if any((cls, name) not in values for name in fields):
            continue  # never listed in this game: no seen value to start from
        base = {name: rng.choice(values[cls, name]) for name in fields}
        if fields and rng.random() < 0.5:
            name = rng.choice(fields)
            odd = _odd_values(hints[cls][name])
            if odd:
                base[name] = rng.choice(odd)
        try:
            out.append(cls(**base))
        except (TypeError, ValueError):
            continue
    return out


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
            for event in _candidates(game, state, values, rng):
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
