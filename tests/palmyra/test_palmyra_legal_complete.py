"""legal_events lists ALL legal events: every candidate outside the list is refused.

At sampled positions of seeded play-outs, a broad superset of well-formed events is tried;
an event applies exactly when ``legal_events`` lists it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from reference.core.errors import RuleViolation
from reference.core.game import CHANCE, step
from reference.palmyra import make
from reference.palmyra.engine import PalmyraGame
from reference.palmyra.events import (
    ChooseExtraTile,
    CollectTaxes,
    Conquer,
    DrawTile,
    EndAction,
    FlipTile,
    MovePiece,
    PlaceTile,
    Reorganise,
)
from reference.palmyra.lattice import CENTRE, neighbours, touching
from reference.palmyra.state import State
from reference.palmyra.tiles import TILES


def candidates(state: State, actor: str) -> list[Any]:
    """Well-formed events of every type for ``actor`` (a superset of the legal ones)."""
    out: list[Any] = [DrawTile(code) for code in TILES]
    for piece in ("legion", "censor"):
        out += [Conquer(actor, piece), CollectTaxes(actor, piece)]
    for stack in ("large", "small"):
        out += [Reorganise(actor, stack, take) for take in (False, True)]
        out.append(ChooseExtraTile(actor, stack))
    out.append(EndAction(actor))
    player = state.players[actor]
    cells = set(touching(state.city)) | set(state.board) | set(state.city)
    for pos in (player.legion, player.censor):
        if pos != CENTRE:
            cells |= set(neighbours(pos))
    for code in TILES:
        out.append(FlipTile(actor, code))
        out += [PlaceTile(actor, code, cell) for cell in sorted(cells)]
    for piece in ("legion", "censor"):
        out += [MovePiece(actor, piece, to) for to in (CENTRE, *sorted(cells))]
    return out


def applies(game: PalmyraGame, state: State, event: Any) -> bool:
    try:
        step(game, state, event)
    except RuleViolation:
        return False
    return True


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"mode": "advanced"},
        {"lone_icon": "forbidden", "flip_timing": "after_chain", "tiles_end": "draw_fails"},
    ],
)
def test_palmyra_legal_events_are_complete(options: dict[str, Any]) -> None:
    game = make(options)
    rng = random.Random(11)
    state = game.new_game(["a", "b", "c"])
    checked = 0
    n = 0
    while not game.is_over(state):
        legal = game.legal_events(state)
        if n % 9 == 0:
            actor = state.current
            listed = set(legal)
            for event in candidates(state, actor):
                assert applies(game, state, event) == (event in listed), event
            checked += 1
        if game.to_act(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            event = rng.choices([e for e, _ in outcomes], weights=[w for _, w in outcomes])[0]
        else:
            event = rng.choice(legal)
        state = step(game, state, event)
        n += 1
    assert checked > 10
