"""Bad input never crashes the engine: every well-typed event is applied or refused by a rule,
but for one naming a player who is not in the game: that is malformed, before any rule."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from reference.core.errors import MalformedEvent, RuleViolation
from reference.core.game import CHANCE, step
from reference.milestones import make
from reference.milestones.events import EVENT_TYPES
from reference.milestones.state import State

GAME = make({})
STRINGS = [
    "",
    "p0",
    "p1",
    "W1",
    "W8",
    "W9",
    "0,0",
    "1,0",
    "9,9",
    "U0,0",
    "D3,1",
    "Ux",
    "T01",
    "T99",
    "stone",
    "coin",
    "gold",
    "lumberjack",
    "baker",
    "a|b",
    "castle",
]
INTS = [-5, -1, 0, 1, 2, 11, 12, 1000]


def value_for(field: attrs.Attribute[Any], rng: random.Random) -> Any:
    """A random value of the field's declared JSON type."""
    kind = str(field.type)
    if "tuple" in kind:
        return tuple(rng.choice(STRINGS) for _ in range(rng.randint(0, 3)))
    if "int" in kind:
        return rng.choice(INTS)
    return rng.choice(STRINGS)


def positions() -> list[State]:
    """A few positions along a seeded play-out: setup, draft, turns."""
    rng = random.Random(5)
    state = GAME.new_game(["p0", "p1"])
    seen = [state]
    for i in range(400):
        if GAME.to_act(state) == CHANCE:
            outcomes = GAME.chance_outcomes(state)
            event = rng.choices([e for e, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            event = rng.choice(GAME.legal_events(state))
        state = step(GAME, state, event)
        if i % 25 == 0:
            seen.append(state)
    return seen


@pytest.mark.parametrize("cls", EVENT_TYPES, ids=[c.type for c in EVENT_TYPES])
def test_milestones_garbage_fields_are_rule_violations(cls: type) -> None:
    rng = random.Random(cls.type)
    ids = set(GAME.catalogue.ids())
    for state in positions():
        for _ in range(30):
            fields = {f.name: value_for(f, rng) for f in attrs.fields(cls)}
            try:
                step(GAME, state, cls(**fields))
            except RuleViolation as exc:
                assert exc.rule_id in ids
                assert fields.get("player", "p0") in state.players
            except MalformedEvent as exc:
                assert exc.field == "player" and fields["player"] not in state.players
