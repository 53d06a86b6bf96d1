"""An event is read before any rule is judged: one that cannot be read is malformed wherever
it comes (out of turn, in the wrong phase, after the end), never refused by a rule.

docs/protocol.md ("Judging an event") and each game's "Reading an event" promise it; the
events below are worked out from those pages: a player who is not in the game, and for each
game a field with a fixed list of names that names none, each sent where the turn rule or the
phase would refuse it if it were read.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

import rules_oracle
from rules_oracle import Illegal, Malformed, Position

PLAYERS = ("red", "blue")


@cache
def first_positions(game: str, events: int = 60) -> list[Position]:
    """The setup and the positions after each of the first events of the first-listed play."""
    position = rules_oracle.load(game).setup(PLAYERS)
    seen = [position]
    while len(seen) <= events and not position.is_over:
        position = position.apply(position.legal()[0])
        seen.append(position)
    return seen


@cache
def last_position(game: str) -> Position:
    """The end of a seeded random game."""
    rng = random.Random(7)
    position = rules_oracle.load(game).setup(PLAYERS)
    while not position.is_over:
        position = position.apply(rng.choice(position.legal()))
    return position


UNREADABLE: dict[str, list[dict[str, Any]]] = {
    "pillars": [{"type": "buy_resources", "player": "red", "resource": "gold", "count": 1}],
    "palmyra": [
        {"type": "place_tile", "player": "red", "tile": "L:Q", "cell": "1,0"},
        {"type": "place_tile", "player": "red", "tile": "L:D", "cell": "1, 0"},
        {"type": "conquer", "player": "red", "piece": "elephant"},
        {"type": "reorganise", "player": "red", "stack": "medium", "take_emperor": False},
        {"type": "move_piece", "player": "red", "piece": "legion", "to": "middle"},
    ],
    "municipium": [{"type": "place_member", "player": "red", "institution": "arena"}],
    "milestones": [],
}


@pytest.mark.parametrize("game", ["pillars", "milestones", "palmyra", "municipium"])
def test_a_player_not_in_the_game_is_unreadable_anywhere(game: str) -> None:
    positions = [*first_positions(game, 30), last_position(game)]
    for position in positions:
        event = next((e for e in position.legal() if "player" in e), None)
        if event is None:  # a chance node: take a player's action from another position
            event = next(e for p in positions for e in p.legal() if "player" in e)
        with pytest.raises(Malformed, match="'grey' is not in this game"):
            position.apply({**event, "player": "grey"})


@pytest.mark.parametrize(
    ("game", "event"), [(g, e) for g, events in UNREADABLE.items() for e in events]
)
def test_a_field_naming_nothing_is_unreadable_out_of_turn_out_of_phase_and_after_the_end(
    game: str, event: dict[str, Any]
) -> None:
    positions = [*first_positions(game), last_position(game)]
    assert positions[-1].is_over
    for position in positions:
        for player in PLAYERS:  # the player to act and the other: the turn rule never speaks
            with pytest.raises(Malformed):
                position.apply({**event, "player": player})


def test_the_same_event_readable_is_refused_by_the_turn_rule_or_the_end() -> None:
    """The contrast: with the field read, the rules judge it (here the turn and the end)."""
    position = first_positions("municipium", 1)[1]  # red placed a member: blue to act
    readable = {"type": "place_member", "player": "red", "institution": "forum"}
    with pytest.raises(Illegal) as caught:
        position.apply(readable)
    assert caught.value.rule_id == "MUN-TURN-01"
    with pytest.raises(Illegal) as caught:
        last_position("municipium").apply(readable)
    assert caught.value.rule_id == "CORE-END-01"
