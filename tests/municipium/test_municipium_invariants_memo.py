"""The invariant memo (reference/municipium/invariants.py): a family record or the
institutions' dict that is the very same object as last time is not counted again, and a
new object always is; every other law is counted on every state. Each test gives the memo
a state broken in one part after a sound one and expects what the full count finds
(tests/contract/test_invariant_shortcuts.py compares the two over whole play-outs)."""

from __future__ import annotations

import attrs

from reference.municipium.engine import Municipium
from reference.municipium.invariants import Memo, invariant_failures
from reference.municipium.state import State


def game() -> Municipium:
    return Municipium({})


def warmed(g: Municipium, state: State) -> Memo:
    """A memo that has checked ``state`` (sound) once."""
    memo = Memo()
    assert invariant_failures(g.tables, state, memo) == []
    assert memo.family and memo.places is not None
    return memo


def test_a_new_family_is_counted_again() -> None:
    # red takes an extra member out of nowhere: 1 more on the board than the game has.
    g = game()
    state = g.new_game(["red", "blue", "green"])
    memo = warmed(g, state)
    red = state.players["red"]
    members = dict(red.members, temple=red.members["temple"] + 1)
    players = dict(state.players, red=attrs.evolve(red, members=members))
    broken = attrs.evolve(state, players=players)
    members_now = sum(members.values()) + sum(red.wreathed.values())
    expected = f"red has {members_now} + {red.unplaced} members, not {g.tables.members}"
    assert invariant_failures(g.tables, broken, memo) == [expected]
    assert invariant_failures(g.tables, broken) == [expected]


def test_a_new_family_citizen_is_counted_in_the_totals() -> None:
    # blue gains a priest from nowhere: one priest too many in the game.
    g = game()
    state = g.new_game(["red", "blue"])
    memo = warmed(g, state)
    blue = state.players["blue"]
    citizens = dict(blue.citizens, priest=blue.citizens["priest"] + 1)
    players = dict(state.players, blue=attrs.evolve(blue, citizens=citizens))
    broken = attrs.evolve(state, players=players)
    per_kind = g.tables.citizens_per_kind
    expected = [f"{per_kind + 1} priest citizens in the game, not {per_kind}"]
    assert invariant_failures(g.tables, broken, memo) == expected


def test_new_institutions_are_counted_again() -> None:
    # The temple's common area (one citizen at setup) gets two more from the bag: the totals
    # hold, but three would have made a citizen event.
    g = game()
    state = g.new_game(["red", "blue"])
    memo = warmed(g, state)
    kind = g.tables.home["temple"]
    places = dict(state.institutions)
    added = 3 - places["temple"].citizens
    places["temple"] = attrs.evolve(places["temple"], citizens=3)
    bag = dict(state.bag, **{kind: state.bag[kind] - added})
    broken = attrs.evolve(state, institutions=places, bag=bag)
    expected = ["the temple holds 3 citizens; 3 trigger a citizen event"]
    assert invariant_failures(g.tables, broken, memo) == expected


def test_the_same_unsound_parts_give_the_same_failures_from_the_memo() -> None:
    # The memo keeps what was wrong too: the very same broken families and institutions
    # are reported again on the next state that shares them.
    g = game()
    state = g.new_game(["red", "blue"])
    red = state.players["red"]
    players = dict(state.players, red=attrs.evolve(red, unplaced=red.unplaced + 2))
    places = dict(state.institutions)
    places["forum"] = attrs.evolve(places["forum"], citizens=5)
    broken = attrs.evolve(state, players=players, institutions=places)
    memo = Memo()
    first = invariant_failures(g.tables, broken, memo)
    assert any("red has" in f for f in first)
    assert any("the forum holds 5 citizens" in f for f in first)
    again = attrs.evolve(broken, current="blue")
    assert again.players is broken.players and again.institutions is broken.institutions
    assert invariant_failures(g.tables, again, memo) == first
    assert invariant_failures(g.tables, again) == first


def test_the_same_institutions_with_fewer_families_are_checked_again() -> None:
    # A citizen field is sound with 3 families, not with 2: the memo of the institutions
    # holds only for the same number of families.
    g = game()
    three = g.new_game(["red", "blue", "green"])
    room = g.tables.meeting_rooms[0]
    kind = g.tables.home[room]
    places = dict(three.institutions)
    places[room] = attrs.evolve(places[room], citizen_field=kind)
    bag = dict(three.bag, **{kind: three.bag[kind] - 1})
    sound = attrs.evolve(three, institutions=places, bag=bag)
    memo = warmed(g, sound)
    players = {n: p for n, p in sound.players.items() if n != "green"}
    two = attrs.evolve(sound, players=players, temple_order=("red", "blue"), current="red")
    assert two.institutions is sound.institutions
    expected = invariant_failures(g.tables, two)
    assert f"the {room} has a citizen field in a 2-player game" in expected
    assert invariant_failures(g.tables, two, memo) == expected


def test_a_changed_bag_alone_is_counted_again() -> None:
    # A soldier appears in the bag; the families and institutions are the very same objects.
    g = game()
    state = g.new_game(["red", "blue"])
    memo = warmed(g, state)
    broken = attrs.evolve(state, bag=dict(state.bag, soldier=state.bag["soldier"] + 1))
    assert broken.players is state.players and broken.institutions is state.institutions
    per_kind = g.tables.citizens_per_kind
    expected = [f"{per_kind + 1} soldier citizens in the game, not {per_kind}"]
    assert invariant_failures(g.tables, broken, memo) == expected
    assert invariant_failures(g.tables, broken) == expected


def test_a_changed_supply_or_drawn_citizen_alone_is_counted_again() -> None:
    # The same bag, families and institutions, but a favour more in the supply, a wreath
    # less, or a drawn citizen more: each breaks a total the memo has seen sound.
    g = game()
    state = g.new_game(["red", "blue"])
    memo = warmed(g, state)
    more_favours = attrs.evolve(state, favour_supply=state.favour_supply + 1)
    assert invariant_failures(g.tables, more_favours, memo) == [
        f"{g.tables.favours + 1} favours in the game, not {g.tables.favours}"
    ]
    fewer_wreaths = attrs.evolve(state, wreath_supply=state.wreath_supply - 1)
    assert invariant_failures(g.tables, fewer_wreaths, memo) == [
        f"{g.tables.wreaths - 1} wreaths in the game, not {g.tables.wreaths}"
    ]
    drawn = attrs.evolve(state, drawn="priest", phase="place")
    expected = invariant_failures(g.tables, drawn)
    assert any("priest citizens in the game" in f for f in expected)
    assert invariant_failures(g.tables, drawn, memo) == expected


def test_a_family_gone_with_its_citizens_is_counted_again() -> None:
    # green holds a priest (from the bag): sound. Then green leaves the game with it, the
    # other families' records untouched: the priest is missing from the totals.
    g = game()
    three = g.new_game(["red", "blue", "green"])
    green = three.players["green"]
    rich = attrs.evolve(green, citizens=dict(green.citizens, priest=1))
    bag = dict(three.bag, priest=three.bag["priest"] - 1)
    sound = attrs.evolve(three, players=dict(three.players, green=rich), bag=bag)
    memo = warmed(g, sound)
    players = {n: p for n, p in sound.players.items() if n != "green"}
    two = attrs.evolve(sound, players=players, temple_order=("red", "blue"), current="red")
    expected = invariant_failures(g.tables, two)
    per_kind = g.tables.citizens_per_kind
    assert f"{per_kind - 1} priest citizens in the game, not {per_kind}" in expected
    assert invariant_failures(g.tables, two, memo) == expected


def test_a_favour_or_field_citizen_where_no_meeting_room_is_is_reported() -> None:
    # The count passes over an institution whose meeting room holds nothing; one that
    # holds a favour or a field citizen is checked for having a meeting room at all.
    g = game()
    state = g.new_game(["red", "blue", "green"])
    bare = next(n for n in state.institutions if n not in g.tables.meeting_rooms)
    expected = [f"the {bare} has no meeting room but holds a favour or field citizen"]
    place = state.institutions[bare]
    favoured = attrs.evolve(
        state,
        institutions=dict(state.institutions, **{bare: attrs.evolve(place, favour=True)}),
        favour_supply=state.favour_supply - 1,
    )
    kind = g.tables.home[bare]
    fielded = attrs.evolve(
        state,
        institutions=dict(state.institutions, **{bare: attrs.evolve(place, citizen_field=kind)}),
        bag=dict(state.bag, **{kind: state.bag[kind] - 1}),
    )
    for broken in (favoured, fielded):
        memo = warmed(g, state)
        assert invariant_failures(g.tables, broken) == expected
        assert invariant_failures(g.tables, broken, memo) == expected


def test_a_negative_stock_is_reported_after_sound_stocks() -> None:
    # A supply gone negative (written past its validator, as a bug might) after sound
    # stocks, the families and institutions the very same objects: reported.
    g = game()
    state = g.new_game(["red", "blue"])
    memo = warmed(g, state)
    for field in ("favour_supply", "wreath_supply"):
        broken = attrs.evolve(state, current="blue")
        object.__setattr__(broken, field, -1)
        expected = invariant_failures(g.tables, broken)
        assert expected[0].startswith("a stock is negative")
        assert invariant_failures(g.tables, broken, memo) == expected


def test_a_moved_member_with_other_holdings_changed_is_counted_in_full() -> None:
    # A move makes a new family record, counted again: a move that also brings a wreath,
    # a citizen or a family card from nowhere is reported, and so is a move of a family
    # whose last count was unsound.
    g = game()
    state = g.new_game(["red", "blue"])
    red = state.players["red"]
    members = dict(red.members, temple=red.members["temple"] + 1)
    moved = attrs.evolve(red, members=members, unplaced=red.unplaced - 1)
    crowned = attrs.evolve(  # a wreath from nowhere, the members' count kept
        red,
        wreathed=dict(red.wreathed, temple=red.wreathed["temple"] + 1),
        unplaced=red.unplaced - 1,
    )
    richer = attrs.evolve(moved, citizens=dict(moved.citizens, soldier=1))
    doubled = attrs.evolve(moved, spent_cards=(red.family_cards[0],))
    for changed in (crowned, richer, doubled):
        memo = warmed(g, state)
        broken = attrs.evolve(state, players=dict(state.players, red=changed))
        expected = invariant_failures(g.tables, broken)
        assert expected
        assert invariant_failures(g.tables, broken, memo) == expected
    unsound = attrs.evolve(red, spent_cards=(red.family_cards[0],))
    first = attrs.evolve(state, players=dict(state.players, red=unsound))
    memo = Memo()
    expected = invariant_failures(g.tables, first, memo)
    assert expected
    again = attrs.evolve(
        first,
        players=dict(
            state.players, red=attrs.evolve(unsound, members=members, unplaced=red.unplaced - 1)
        ),
    )
    assert invariant_failures(g.tables, again, memo) == expected
