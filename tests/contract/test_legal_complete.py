"""Every game lists exactly what applies: at sampled positions of seeded play-outs, each
listed event applies and each well-formed candidate outside the list is refused.

The candidates are game-blind: every event seen listed anywhere in the play-out so far (with
the player to act put in), and each listed event with one field changed (a count one more or
one less, a name swapped for another name seen in that field, a flag flipped). So a
generator that forgets a move, or lists one the rules refuse, shows here for any game.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from oracle.play import PLAYER_NAMES, choose
from reference.core.errors import MalformedEvent, RuleViolation
from reference.core.game import CHANCE, Game, step
from reference.registry import game_names, make_game

EVERY = 7
"""Check every 7th position of a play-out."""
MOST_CANDIDATES = 160
"""Candidates tried per position (sampled from the game-blind set)."""


def _applies(game: Game, state: Any, event: Any) -> bool:
    try:
        step(game, state, event)
    except (RuleViolation, MalformedEvent):
        return False
    return True


def _variants(event: Any, seen: dict[str, set[Any]]) -> list[Any]:
    """``event`` with one field changed in every way the module doc names."""
    out: list[Any] = []
    for field in attrs.fields(type(event)):
        value = getattr(event, field.name)
        if field.name == "player":
            continue
        if isinstance(value, bool):
            out.append(attrs.evolve(event, **{field.name: not value}))
        elif isinstance(value, int):
            out += [attrs.evolve(event, **{field.name: value + d}) for d in (-1, 1)]
        elif isinstance(value, str):
            others = sorted(v for v in seen.get(field.name, ()) if v != value)
            out += [attrs.evolve(event, **{field.name: v}) for v in others]
    return out


def _as_actor(event: Any, actor: str) -> Any:
    if attrs.has(type(event)) and "player" in attrs.fields_dict(type(event)):
        return attrs.evolve(event, player=actor)
    return event


@pytest.mark.parametrize("name", game_names())
def test_every_game_lists_exactly_the_events_that_apply(name: str) -> None:
    game = make_game(name, {})
    rng = random.Random(5)
    pick = random.Random(9)
    state = game.new_game(PLAYER_NAMES[:3])
    pool: dict[Any, None] = {}
    seen: dict[str, set[Any]] = {}
    checked = 0
    for n in range(2000):
        if game.is_over(state):
            break
        legal = game.legal_events(state)
        for event in legal:
            pool.setdefault(event, None)
            for field in attrs.fields(type(event)):
                value = getattr(event, field.name)
                if isinstance(value, str) and field.name != "player":
                    seen.setdefault(field.name, set()).add(value)
        if n % EVERY == 0 and game.to_act(state) != CHANCE:
            actor = game.to_act(state)
            listed = set(legal)
            for event in legal:
                assert _applies(game, state, event), f"{name}: listed but refused: {event}"
            candidates = {_as_actor(e, actor) for e in pool}
            for event in legal:
                candidates.update(_variants(event, seen))
            tried = sorted(candidates - listed, key=repr)
            for event in pick.sample(tried, min(MOST_CANDIDATES, len(tried))):
                assert not _applies(game, state, event), f"{name}: applies, not listed: {event}"
            checked += 1
        state = step(game, state, choose(game, state, rng))
    assert checked >= 10, f"{name}: only {checked} positions checked"
