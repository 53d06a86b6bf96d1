"""Issue 23 items 3 and 4 beyond Pillars: the other games' reasons, through the one
mechanism (``RuleSet.why_not``, ``RuleSet.owes`` dated by oracle/owed.py). Logs are played
through the API to the moment in question, then the event another implementation writes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import rules_oracle
from rules_oracle import Position

PLAYERS = ["red", "blue"]


def play_until(game: str, stop: Callable[[dict[str, Any]], bool]) -> tuple[list[Any], Position]:
    """The first legal event each step, until ``stop`` holds of the position (as JSON)."""
    position = rules_oracle.load(game).setup(PLAYERS)
    events = []
    while not position.is_over and not stop(position.to_json()):
        events.append(position.legal()[0])
        position = position.apply(events[-1])
    assert not position.is_over
    return events, position


def test_milestones_dates_the_castle_tax_skipped() -> None:
    # MIL-CASTLE-04: the Castle tax is settled before the player does anything else.
    events, position = play_until(
        "milestones", lambda s: s["phase"] == "turns" and bool(s["returns_due"] or s["cover_due"])
    )
    player = position.to_act
    landing = events[-1]
    assert (landing["type"], landing["player"]) == ("move", player)
    assert position.to_json()["players"][player]["position"] == "castle"
    skipped = {"type": "end_turn", "player": player}
    verdict = rules_oracle.validate_events("milestones", PLAYERS, [*events, skipped])
    assert (verdict.kind, verdict.rule_id, verdict.event_index) == (
        "illegal",
        "MIL-CASTLE-04",
        len(events),
    )
    assert f"; since event {len(events) - 1} (move), {player} owes the Castle tax" in (
        verdict.message
    )


def test_municipium_says_a_power_is_its_majority_familys() -> None:
    # MUN-POWER-01: each power is used by the family with most influence there, whoever
    # played the card.
    events, position = play_until(
        "municipium",
        lambda s: s["phase"] == "power" and s["power_user"] not in (None, s["current"]),
    )
    state = position.to_json()
    user, played = state["power_user"], state["current"]
    event = dict(position.legal()[0], player=played)
    verdict = rules_oracle.validate_events("municipium", PLAYERS, [*events, event])
    assert (verdict.rule_id, verdict.event_index) == ("MUN-TURN-01", len(events))
    assert verdict.message.endswith(
        f"the {state['power']}'s power is used by the family with most influence there, "
        f"{user}, whoever played the card (MUN-POWER-01)"
    )
