"""legal_events lists ALL legal events: every candidate outside the list is refused.

At sampled positions of seeded play-outs, a broad superset of well-formed events is tried;
an event applies exactly when ``legal_events`` lists it.
"""

from __future__ import annotations

import random
import re
from itertools import combinations_with_replacement, product
from pathlib import Path
from typing import Any

import pytest

from reference.core.errors import RuleViolation
from reference.core.game import CHANCE, step
from reference.municipium import make
from reference.municipium.engine import Municipium
from reference.municipium.events import (
    BasilicaDraw,
    BasilicaExchange,
    DrawCitizen,
    DrawCommon,
    EmporiumDraw,
    EndPower,
    ForumTakeFromInstitution,
    ForumTakeFromPlayer,
    MoveMember,
    MovePrefect,
    PlaceCitizen,
    PlaceMember,
    PlayFamilyCard,
    RelocateMember,
    RevealCard,
    TavernPull,
    UseBaths,
)
from reference.municipium.tables import FAVOUR, INSTITUTIONS, KINDS

PLAYERS = ("red", "blue", "green", "yellow")


def candidates(game: Municipium, state: Any, actor: str) -> list[Any]:
    """Well-formed events of every type for ``actor`` (a superset of the legal ones)."""
    names = list(state.players)
    out: list[Any] = [DrawCitizen(k) for k in KINDS]
    out += [RevealCard(c) for c in (*game.tables.common_cards, "Z99")]
    out += [PlaceMember(actor, i) for i in INSTITUTIONS]
    for w in (False, True):
        out += [MoveMember(actor, (a, b), w) for a, b in product(INSTITUTIONS, repeat=2)]
        out += [MoveMember(actor, p, w) for p in product(INSTITUTIONS, repeat=3)]
        out += [RelocateMember(actor, a, b, w) for a, b in product(INSTITUTIONS, repeat=2)]
    out += [DrawCommon(actor), EndPower(actor), UseBaths(actor), EmporiumDraw(actor)]
    out += [PlayFamilyCard(actor, c) for c in game.tables.family_cards]
    out += [MovePrefect(actor, i) for i in INSTITUTIONS]
    out += [PlaceCitizen(actor, i) for i in INSTITUTIONS]
    out += [
        TavernPull(actor, f, o, p, w)
        for f in names
        for o in INSTITUTIONS
        for p in range(4)
        for w in range(2)
    ]
    tokens = (*KINDS, FAVOUR)
    out += [BasilicaExchange(actor, c) for c in combinations_with_replacement(tokens, 3)]
    out += [BasilicaDraw(actor)]
    out += [ForumTakeFromPlayer(actor, v, k) for v in names for k in KINDS]
    out += [ForumTakeFromInstitution(actor, i) for i in INSTITUTIONS]
    return out


@pytest.mark.parametrize("count", [2, 3, 4])
def test_every_unlisted_event_is_refused(count: int) -> None:
    game = make({})
    rng = random.Random(count)
    state = game.new_game(PLAYERS[:count])
    checked = 0
    events = 0
    while not game.is_over(state) and events < 3000:
        legal = game.legal_events(state)
        if events % 23 == 0 or state.phase in ("power", "prefect", "place"):
            listed = {repr(e) for e in legal}
            actor = game.to_act(state)
            who = state.current if actor == CHANCE else actor
            for event in candidates(game, state, who):
                try:
                    step(game, state, event)
                    applied = True
                except RuleViolation:
                    applied = False
                assert applied == (repr(event) in listed), (state.phase, event)
            checked += 1
        state = step(game, state, rng.choice(legal))
        events += 1
    assert checked > 20


def test_every_rule_id_raised_is_catalogued() -> None:
    game = make({})
    used: set[str] = set()
    for path in Path(__file__).resolve().parents[2].joinpath("reference/municipium").glob("*.py"):
        used |= set(re.findall(r"MUN-[A-Z]+-\d\d", path.read_text()))
    assert used <= set(game.catalogue.ids())
