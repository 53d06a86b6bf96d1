"""A Municipium profile may make the favour and the wreath supplies unlimited (``null`` for
``components.favours``, ``components.wreaths``; reference/core/stock.py), never the
citizens' bag (``components.citizens_per_kind``: its draws have odds by its counts).

The expectations are worked out from the rules:

- MUN-SETUP-02: one favour on each of the six meeting rooms' favour fields, the rest in the
  supply; MUN-PREFECT-04: after a prefect event an emptied favour field is refilled from the
  supply, none if it is empty (our ruling). A game with exactly six favours starts with an
  empty supply, so the first favour taken is not replaced; from an unlimited supply it
  always is, and the supply stays ``null``.
- MUN-BATHS-01: the baths' user moves its baths members to the temple and crowns one, if a
  wreath is left. With all ten wreaths worn none is left; from an unlimited supply one is.
- MUN-BASILICA-01, MUN-DECURION-02: spent favours go back to the supply; an unlimited one
  stays ``null``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest

import rules_oracle
from reference.municipium.engine import Municipium
from reference.municipium.invariants import Memo, invariant_failures
from rules_oracle import BadOptions

UNLIMITED = {"components.favours": None, "components.wreaths": None}
"""Both supplies a profile may make unlimited."""


def played(players: int, seed: int, profile: dict[str, Any]) -> tuple[list[str], list[Any]]:
    """A seeded game under ``profile``, every state path claimed after each event: its
    player names and its events (the result line last)."""
    lines = rules_oracle.play_log(
        "municipium", players, seed=seed, options={"profile": profile}, full=True
    )
    return json.loads(lines[0])["players"], [json.loads(line) for line in lines[1:]]


def claims(events: list[Any]) -> list[dict[str, Any]]:
    """The claimed state after each event (the result line has none)."""
    return [e["state"] for e in events if "state" in e]


# -- the profile ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "profile",
    [{"components.favours": None}, {"components.wreaths": None}, UNLIMITED],
    ids=["favours", "wreaths", "both"],
)
def test_a_profile_with_an_unlimited_supply_is_accepted_and_the_state_reads_null(
    profile: dict[str, Any],
) -> None:
    rules = rules_oracle.load("municipium", profile=profile)
    position = rules.setup(["red", "blue", "green"])
    for key, field in (
        ("components.favours", "favour_supply"),
        ("components.wreaths", "wreath_supply"),
    ):
        if key in profile:
            assert rules.data(key) is None
            assert position[field] is None
        else:
            assert isinstance(position[field], int)
    # MUN-SETUP-02 holds either way: a favour on each of the six meeting rooms' fields.
    favoured = [name for name, place in position["institutions"].items() if place["favour"]]
    assert favoured == ["tavern", "baths", "emporium", "basilica", "forum", "praetorium"]


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_a_seeded_play_out_under_unlimited_supplies_validates_and_claims_null(
    players: int, seed: int
) -> None:
    names, events = played(players, seed, UNLIMITED)
    verdict = rules_oracle.validate_events(
        "municipium", names, events, options={"profile": UNLIMITED}
    )
    assert verdict.kind == "valid", verdict.message
    assert "result" in events[-1]
    states = claims(events)
    assert all(s["favour_supply"] is None and s["wreath_supply"] is None for s in states)
    # MUN-PREFECT-04: a favour taken from a field is replaced at once, from a supply that
    # never runs out: after every event all six meeting rooms hold their favour.
    rooms = ("tavern", "baths", "emporium", "basilica", "forum", "praetorium")
    assert all(s[f"institutions.{room}.favour"] is True for s in states for room in rooms)


def test_a_limited_supply_of_six_favours_does_leave_a_field_empty() -> None:
    """The same property the other way (so the test above could fail): six favours fill
    the six fields and leave the supply empty; the first favour taken is not replaced."""
    profile = {"components.favours": 6}
    names, events = played(2, 1, profile)
    verdict = rules_oracle.validate_events(
        "municipium", names, events, options={"profile": profile}
    )
    assert verdict.kind == "valid", verdict.message
    states = claims(events)
    assert states[0]["favour_supply"] == 0
    assert any(
        s[k] is False for s in states for k in s if k.endswith(".favour") and "temple" not in k
    )


# -- positions where the limited supply has run out --------------------------------------------


def two_families(profile: dict[str, Any], values: dict[str, Any]) -> rules_oracle.Position:
    """A two-family game under ``profile``, all members placed, red to move in round 1,
    with ``values`` set (the members' places among them)."""
    position = rules_oracle.load("municipium", profile=profile).setup(["red", "blue"])
    placed = {
        "phase": "move",
        "round": 1,
        "current": "red",
        "players.red.unplaced": 0,
        "players.blue.unplaced": 0,
    }
    return position.with_values({**placed, **values})


@pytest.mark.parametrize(
    ("favours", "field", "supply"),
    [(6, False, 0), (None, True, None)],
    ids=["six favours: none left", "unlimited"],
)
def test_a_favour_taken_from_a_field_is_replaced_only_while_the_supply_lasts(
    favours: int | None, field: bool, supply: int | None
) -> None:
    # Red (all seven members in the forum) plays the family card "Prefect" (F1) and sends
    # the prefect from the basilica to the forum: red has most influence there and takes
    # its favour (MUN-PREFECT-01). The refill (MUN-PREFECT-04) needs a favour in the supply.
    position = two_families(
        {"components.favours": favours},
        {
            "players.red.members.forum": 7,
            "players.blue.members.temple": 7,
            "temple_order": ["blue", "red"],
        },
    )
    assert position["favour_supply"] == supply  # 6 - 6 fields = 0; unlimited: null
    position = position.apply({"type": "play_family_card", "player": "red", "card": "F1"})
    after = position.apply({"type": "move_prefect", "player": "red", "institution": "forum"})
    assert after["prefect"] == "forum"
    assert after["players.red.favours"] == 1
    assert after["institutions.forum.favour"] is field
    assert after["favour_supply"] == supply
    assert (after["phase"], after["current"]) == ("move", "blue")


@pytest.mark.parametrize(
    ("profile", "supply", "plain", "wreathed"),
    [({}, 0, 2, 5), ({"components.wreaths": None}, None, 1, 6)],
    ids=["ten wreaths, all worn", "unlimited"],
)
def test_the_baths_crown_a_member_only_while_a_wreath_is_left(
    profile: dict[str, Any], supply: int | None, plain: int, wreathed: int
) -> None:
    # Ten wreaths (the default), all worn: red five in the temple, blue five in the forum.
    # Red also has two plain members in the baths and plays "Your Powers" (F3): red leads
    # the temple (10 against 0) and the baths, so the temple re-ranks (no decision) and red
    # uses the baths (MUN-BATHS-01): both members go to the temple, one crowned if a wreath
    # is left. None is left of ten; an unlimited supply always has one.
    values: dict[str, Any] = {
        "players.red.wreathed.temple": 5,
        "players.red.members.baths": 2,
        "players.blue.wreathed.forum": 5,
        "players.blue.members.forum": 2,
        "temple_order": ["red", "blue"],
    }
    if supply is not None:
        values["wreath_supply"] = 0
    position = two_families(profile, values)
    position = position.apply({"type": "play_family_card", "player": "red", "card": "F3"})
    assert (position["phase"], position["power"], position["power_user"]) == (
        "power",
        "baths",
        "red",
    )
    after = position.apply({"type": "use_baths", "player": "red"})
    assert after["players.red.members.baths"] == after["players.red.wreathed.baths"] == 0
    assert after["players.red.members.temple"] == plain
    assert after["players.red.wreathed.temple"] == wreathed
    assert after["wreath_supply"] == supply


@pytest.mark.parametrize(
    ("favours", "supply_before", "supply_after"),
    [(15, 6, 9), (None, None, None)],
    ids=["fifteen favours", "unlimited"],
)
def test_favours_spent_at_the_basilica_go_back_to_the_supply(
    favours: int | None, supply_before: int | None, supply_after: int | None
) -> None:
    # Red holds three favours (15 - 6 on the fields - 3 = 6 in the supply) and leads the
    # basilica alone; "Your Powers" (F3) gives red the basilica, and red exchanges the three
    # favours for a decurion (MUN-BASILICA-01): they go back to the supply, 6 + 3 = 9, and
    # an unlimited supply stays null.
    values: dict[str, Any] = {
        "players.red.members.basilica": 7,
        "players.blue.members.forum": 7,
        "players.red.favours": 3,
        "temple_order": ["red", "blue"],
    }
    if favours is not None:
        values["favour_supply"] = supply_before
    position = two_families({"components.favours": favours}, values)
    position = position.apply({"type": "play_family_card", "player": "red", "card": "F3"})
    assert (position["power"], position["power_user"]) == ("basilica", "red")
    tokens = ["favour", "favour", "favour"]
    after = position.apply({"type": "basilica_exchange", "player": "red", "tokens": tokens})
    assert (after["players.red.favours"], after["players.red.decurions"]) == (0, 1)
    assert after["favour_supply"] == supply_after


# -- what may not be null, and the bounds -------------------------------------------------------


def test_an_unlimited_bag_is_refused_saying_why() -> None:
    with pytest.raises(BadOptions) as refused:
        rules_oracle.load("municipium", profile={"components.citizens_per_kind": None})
    assert refused.value.message == (
        "data key components.citizens_per_kind: expected a whole number 3..99 (not null: the "
        "bag cannot be unlimited, as a draw's odds are each kind's share of the bag "
        "(MUN-BAG-01) and an endless bag has no shares), got None"
    )


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        # The bounds of the supplies are there only against absurd sizes: null is named.
        ("components.favours", 5000, "a whole number 6..99 or null (unlimited)"),
        ("components.favours", 5, "a whole number 6..99 or null (unlimited)"),
        ("components.wreaths", 100, "a whole number 0..99 or null (unlimited)"),
        ("components.wreaths", -1, "a whole number 0..99 or null (unlimited)"),
        # The bag and the counts that are not supplies never take null: it is not named.
        ("components.citizens_per_kind", 500, "a whole number 3..99"),
        ("components.members_per_family", None, "a whole number 1..20"),
        ("components.decurions_to_end", None, "a whole number 1..99"),
        ("components.basilica_exchange_size", None, "a whole number 1..10"),
        ("components.citizen_field_min_players", None, "a whole number 2..99"),
    ],
)
def test_a_count_out_of_bounds_names_null_only_where_null_is_allowed(
    key: str, value: Any, expected: str
) -> None:
    with pytest.raises(BadOptions) as refused:
        rules_oracle.load("municipium", profile={key: value})
    assert refused.value.message == f"data key {key}: expected {expected}, got {value!r}"


# -- the invariants -----------------------------------------------------------------------------


def test_the_memo_gives_the_full_count_after_every_event_under_unlimited_supplies() -> None:
    """A play-out under unlimited supplies, the memo's answer (the rule set's) against the
    full count (no memo) after every event, on the sound state and on the same state with
    each supply made limited (a supply is unlimited exactly when the game's is)."""
    game = Municipium({"profile": UNLIMITED})
    rng = random.Random(7)
    state = game.new_game(["red", "blue", "green"])
    events = 0
    while True:
        assert game.invariant_failures(state) == invariant_failures(game.tables, state) == []
        for field, what in (("favour_supply", "favours"), ("wreath_supply", "wreaths")):
            bad = attrs.evolve(state, **{field: 0})
            expected = [f"{what}: the supply is unlimited only when the game's is"]
            assert invariant_failures(game.tables, bad) == expected
            assert game.invariant_failures(bad) == expected
        if game.is_over(state):
            break
        state = game.apply(state, rng.choice(game.legal_events(state)))
        events += 1
    assert events > 100


def test_a_limited_game_with_an_unlimited_supply_in_its_state_is_unsound() -> None:
    game = Municipium({})
    state = game.new_game(["red", "blue"])
    memo = Memo()
    assert invariant_failures(game.tables, state, memo) == []
    for field, what in (("favour_supply", "favours"), ("wreath_supply", "wreaths")):
        bad = attrs.evolve(state, **{field: None})
        expected = [f"{what}: the supply is unlimited only when the game's is"]
        assert invariant_failures(game.tables, bad) == expected
        assert invariant_failures(game.tables, bad, memo) == expected


def test_an_unlimited_supply_still_counts_the_citizens() -> None:
    # The favours are not counted under an unlimited supply, but a citizen from nowhere is
    # still one too many (15 of each kind), by the memo and the full count alike.
    game = Municipium({"profile": UNLIMITED})
    state = game.new_game(["red", "blue"])
    memo = Memo()
    assert invariant_failures(game.tables, state, memo) == []
    red = state.players["red"]
    richer = attrs.evolve(red, citizens={**red.citizens, "priest": 1}, favours=2)
    bad = attrs.evolve(state, players={**state.players, "red": richer})
    expected = ["16 priest citizens in the game, not 15"]
    assert invariant_failures(game.tables, bad) == expected
    assert invariant_failures(game.tables, bad, memo) == expected
