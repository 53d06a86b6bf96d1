"""Issue 23 items 3 and 4: a turn or step refusal says why the refused player is not asked
(with the rule), and a craftsman-limit verdict names the event that crossed the limit and
the step at which the discard was due.

The logs are planted: games steered through the API (``rules_oracle.load``) to the moment
another implementation gets wrong, then the event it would write. An implementation that
keeps a sixth craftsman is played under a craftsman limit of 6 (``board.craftsman_limit``)
and validated under ours (5, PIL-CRAFT-01).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import rules_oracle
from rules_oracle import Position

Event = dict[str, Any]
Prefer = Callable[[Event, Position], bool]
PLAYERS = ["red", "blue"]
STARTING_CRAFTSMEN = 3
"""PIL-SETUP-02 (RB p.2): woodworker, stonecutter and mortar mixer."""
OWN_LIMIT = 6
"""The other implementation's craftsman limit (ours is 5: PIL-CRAFT-01)."""


def steer(
    prefer: list[Prefer],
    stop: Callable[[Position, list[Event]], bool],
    profile: dict[str, Any] | None = None,
) -> tuple[list[Event], Position]:
    """A game where each step takes the first legal event the first preference matching
    any picks (else the first legal event), until ``stop``."""
    position = rules_oracle.load("pillars", profile=profile).setup(PLAYERS)
    events: list[Event] = []
    while not position.is_over and not stop(position, events):
        legal = position.legal()
        pick = next((e for wish in prefer for e in legal if wish(e, position)), legal[0])
        events.append(pick)
        position = position.apply(pick)
    return events, position


def red(position: Position) -> dict[str, Any]:
    return position.to_json()["players"]["red"]  # type: ignore[no-any-return]


def spaces_of(position: Position, name: str, location: str) -> list[str]:
    spaces = position.to_json()["spaces"]
    return [s for s, owner in spaces.items() if owner == name and s.startswith(location)]


# Item 3: why THIS player is not asked. PIL-ADV-08: a King's Court occupant pays no tax, so
# is never asked about the tax exemption; PIL-TAX-01: King's Court occupants pay nothing.

KINGS_COURT_REASON = (
    "red has a builder at King's Court, pays no tax this round and so is not asked about "
    "the tax exemption (PIL-TAX-01, PIL-ADV-08)"
)
EXEMPTION = {"type": "play_advantage", "player": "red", "card": "tax_exemption", "play": True}


def red_at_kings_court_with_the_exemption() -> tuple[list[Event], Position]:
    """Red takes the tax exemption at Kingsbridge and has a builder at King's Court when
    the tax die is rolled."""
    prefer: list[Prefer] = [
        lambda e, p: e["type"] == "reveal_advantages" and "tax_exemption" in e["cards"],
        lambda e, p: e["type"] == "draw_master_builder" and e["owner"] == "red",
        lambda e, p: (
            e["type"] == "place_master_builder"
            and e["player"] == "red"
            and p.to_json()["kingsbridge"].get(e["space"]) == "tax_exemption"
        ),
        lambda e, p: (
            e["type"] == "place_master_builder"
            and e["player"] == "red"
            and e["space"].startswith("kings_court")
        ),
    ]

    def stop(position: Position, events: list[Event]) -> bool:
        rolled = bool(events) and events[-1]["type"] == "roll_tax"
        holds = "tax_exemption" in red(position)["advantages"]
        return rolled and holds and bool(spaces_of(position, "red", "kings_court"))

    return steer(prefer, stop)


def test_a_kings_court_occupant_playing_the_exemption_is_told_why_not() -> None:
    events, position = red_at_kings_court_with_the_exemption()
    verdict = rules_oracle.validate_events("pillars", PLAYERS, [*events, EXEMPTION])
    assert (verdict.kind, verdict.event_index) == ("illegal", len(events))
    assert (verdict.player, verdict.action) == ("red", "play_advantage")
    # Nobody else holds the one exemption card, so nobody is asked at step 9: whoever is
    # asked next, the refusal (PIL-TURN-01 if that is blue, PIL-TURN-02 if red, who is
    # asked something else) says why red is not asked about the exemption.
    expected = "PIL-TURN-02" if position.to_act == "red" else "PIL-TURN-01"
    assert verdict.rule_id == expected
    assert verdict.message.endswith(KINGS_COURT_REASON)


def test_the_reason_comes_with_another_players_turn_too() -> None:
    events, position = red_at_kings_court_with_the_exemption()
    while position.to_act != "blue":  # on to blue's next decision this round
        events.append(position.legal()[0])
        position = position.apply(events[-1])
    verdict = rules_oracle.validate_events("pillars", PLAYERS, [*events, EXEMPTION])
    assert (verdict.kind, verdict.rule_id, verdict.event_index) == (
        "illegal",
        "PIL-TURN-01",
        len(events),
    )
    assert verdict.message.startswith("blue is to act, not red: blue ")
    assert verdict.message.endswith(KINGS_COURT_REASON)


def test_a_player_who_passed_in_phase_one_is_told_so() -> None:
    prefer: list[Prefer] = [lambda e, p: e["type"] == "pass_cards" and e["player"] == "red"]
    events, position = steer(prefer, lambda p, e: bool(e) and e[-1]["type"] == "pass_cards")
    assert position.to_act == "blue"
    card = position.to_json()["card_supply"][0]
    resource = card.split("_")[0] in ("gravel", "forest", "quarry")  # docs/games/pillars.md
    taken = {"type": "take_resource_card" if resource else "take_craftsman", "player": "red"}
    taken["card"] = card
    verdict = rules_oracle.validate_events("pillars", PLAYERS, [*events, taken])
    assert (verdict.rule_id, verdict.event_index) == ("PIL-TURN-01", len(events))
    assert verdict.message.endswith(
        "red passed in Phase I and takes no more cards this round (PIL-CARDS-05)"
    )


# Item 4: a limit verdict names the event that crossed the limit and when the discard was due.


def count(position: Position) -> int:
    return len(red(position)["craftsmen"])


def test_a_sixth_craftsman_bought_and_kept_names_the_purchase() -> None:
    prefer: list[Prefer] = [lambda e, p: e["type"] == "take_craftsman" and e["player"] == "red"]
    limit = {"board.craftsman_limit": OWN_LIMIT}
    events, position = steer(prefer, lambda p, e: count(p) == 6, limit)
    # By hand: the sixth is the third craftsman red bought, the last event (no Shiring).
    bought = [
        i for i, e in enumerate(events) if e["type"] == "take_craftsman" and e["player"] == "red"
    ]
    assert not any(spaces_of(position, "red", "shiring"))
    assert STARTING_CRAFTSMEN + len(bought) == 6 and bought[-1] == len(events) - 1
    sixth = events[-1]["card"]
    follow = position.legal()[0]  # what the other implementation does next
    verdict = rules_oracle.validate_events("pillars", PLAYERS, [*events, follow])
    assert (verdict.kind, verdict.event_index) == ("illegal", len(events))
    # PIL-CRAFT-01: red's own other event is refused by the limit rule, another's by the
    # turn rule (red is asked first: the discard).
    assert verdict.rule_id == ("PIL-CRAFT-01" if follow["player"] == "red" else "PIL-TURN-01")
    assert verdict.message.endswith(
        f"; since event {len(events) - 1} (take_craftsman), red owes a discard: red holds 6 "
        f"craftsmen, over the limit of 5; the newest, {sixth}, was bought in Phase I; the "
        "discard was due at once, before the next card is taken (PIL-CRAFT-01)"
    )


def test_a_sixth_craftsman_from_shiring_names_step_10() -> None:
    def first_shiring(e: Event, p: Position) -> bool:
        on = spaces_of(p, "red", "shiring")
        return e["player"] == "red" and e["space"].startswith("shiring") and not on

    prefer: list[Prefer] = [
        lambda e, p: e["type"] == "draw_master_builder" and e["owner"] == "red",
        lambda e, p: e["type"] == "place_master_builder" and count(p) == 5 and first_shiring(e, p),
        lambda e, p: e["type"] == "take_craftsman" and e["player"] == "red" and count(p) < 5,
    ]
    limit = {"board.craftsman_limit": OWN_LIMIT}
    events, position = steer(prefer, lambda p, e: count(p) == 6, limit)
    # By hand: five craftsmen, one builder on a Shiring space; the tax roll runs steps 9 and
    # 10 (nobody holds a tax exemption), and step 10 hands red the sixth.
    assert events[-1]["type"] == "roll_tax"
    [space] = spaces_of(position, "red", "shiring")
    before = rules_oracle.load("pillars").setup(PLAYERS)
    for event in events[:-1]:
        before = before.apply(event)
    newest = before.to_json()["shiring"][space]  # PIL-SHIRING-01: the card on red's space
    follow = position.legal()[0]
    verdict = rules_oracle.validate_events("pillars", PLAYERS, [*events, follow])
    assert (verdict.kind, verdict.event_index) == ("illegal", len(events))
    assert verdict.rule_id == ("PIL-CRAFT-01" if follow["player"] == "red" else "PIL-TURN-01")
    assert verdict.message.endswith(
        f"; since event {len(events) - 1} (roll_tax), red owes a discard: red holds 6 "
        f"craftsmen, over the limit of 5; the newest, {newest}, came from Shiring at step 10; "
        "the discard was due at step 10, before step 11 (PIL-CRAFT-01)"
    )
