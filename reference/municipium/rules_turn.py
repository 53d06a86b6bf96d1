"""Setup draws, initial placement, the move step, the card step and the citizen draws."""

from __future__ import annotations

from typing import Any

import attrs

from reference.core.errors import MalformedEvent, RuleViolation
from reference.municipium.events import (
    EVENT_TYPES,
    DrawCitizen,
    DrawCommon,
    MoveMember,
    MovePrefect,
    PlaceCitizen,
    PlaceMember,
    PlayFamilyCard,
    RevealCard,
)
from reference.municipium.rules_flow import (
    add,
    citizen_event,
    continue_card_draws,
    end_turn,
    gain_citizens,
    initial_temple_order,
    joined_common_area,
    member_tag,
    moved_one,
    next_power,
    noted,
    prefect_event,
    ranking,
)
from reference.municipium.state import State, evolve
from reference.municipium.tables import INSTITUTIONS, KINDS, Card, Tables


def expect_phase(state: State, *phases: str) -> None:
    """MUN-TURN-02: a turn runs move step, then one card, then the card's events in order;
    an event of another step is out of order."""
    if state.phase not in phases:
        raise RuleViolation(
            "MUN-TURN-02",
            f"this event belongs to the {'/'.join(phases)} step, but the game is at {state.phase}",
        )


def expect_institution(name: str) -> None:
    """MUN-BOARD-01: the board has seven institutions, 0 temple to 6 praetorium. Any other
    name names nothing in the game: the event is malformed, no rule is judged."""
    if name not in INSTITUTIONS:
        known = ", ".join(INSTITUTIONS)
        raise MalformedEvent(f"{name!r} is not an institution (known: {known})", "institution")


def expect_kind(kind: str) -> None:
    """The four kinds of citizen; any other name is a malformed event."""
    if kind not in KINDS:
        raise MalformedEvent(
            f"{kind!r} is not a kind of citizen (known: {', '.join(KINDS)})", "kind"
        )


NameFields = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""An event class's fields that give names: institutions, paths of institutions, citizen
kinds and families, each in the order ``expect_known_names`` checks them."""

ANY_NAME_FIELDS: NameFields = (
    ("institution", "origin", "destination"),
    ("path",),
    ("kind",),
    ("family", "victim"),
)
"""Every field of any event that gives a name (for an event class not in ``NAME_FIELDS``)."""


def name_fields(cls: type) -> NameFields:
    """The fields of ``cls`` (an attrs event class) among ``ANY_NAME_FIELDS``, in order."""
    own = attrs.fields_dict(cls)
    return (
        tuple(f for f in ANY_NAME_FIELDS[0] if f in own),
        tuple(f for f in ANY_NAME_FIELDS[1] if f in own),
        tuple(f for f in ANY_NAME_FIELDS[2] if f in own),
        tuple(f for f in ANY_NAME_FIELDS[3] if f in own),
    )


NAME_FIELDS: dict[type, NameFields] = {cls: name_fields(cls) for cls in EVENT_TYPES}
"""Each event class's name fields, found once (the classes are fixed; so are their fields)."""


def expect_known_names(state: State, event: Any) -> None:
    """Every name an event gives (institutions, citizen kinds, families) names something in
    this game; else the event is malformed, before any rule is judged (even whose turn)."""
    places, paths, kinds, families = NAME_FIELDS.get(type(event), ANY_NAME_FIELDS)
    # A known name passes at once; only an unknown one goes on to its verdict.
    for field in places:
        value = getattr(event, field, None)
        if isinstance(value, str) and value not in INSTITUTIONS:
            expect_institution(value)
    for field in paths:
        for value in getattr(event, field, ()):
            if value not in INSTITUTIONS:
                expect_institution(value)
    for field in kinds:
        kind = getattr(event, field, None)
        if isinstance(kind, str) and kind not in KINDS:
            expect_kind(kind)
    for field in families:
        value = getattr(event, field, None)
        if isinstance(value, str) and value not in state.players:
            expect_family(state, value, field)


def expect_family(state: State, name: str, field: str) -> None:
    """A family of this game; any other name is a malformed event."""
    if name not in state.players:
        known = ", ".join(state.players)
        raise MalformedEvent(
            f"{field} {name!r} is not a family in this game (known: {known})", field
        )


# --- chance: citizens from the bag --------------------------------------------------------


def draw_citizen(t: Tables, state: State, event: DrawCitizen) -> State:
    """A citizen comes out of the bag and goes where the draw was made for."""
    expect_phase(state, "setup", "draw")
    # MUN-BAG-01: a drawn citizen is one still in the bag.
    if state.bag[event.kind] == 0:
        raise RuleViolation("MUN-BAG-01", f"no {event.kind} citizen is left in the bag")
    bag = add(state.bag, event.kind, -1)
    if state.phase == "setup":
        return _setup_field(state, t, event.kind, bag)
    if state.draw_for == "field":
        target = state.field_for or ""
        places = dict(state.institutions)
        places[target] = evolve(places[target], citizen_field=event.kind)
        if t.recorder is not None:
            refill = evolve(state, institutions=places, bag=bag)
            why = f"a {event.kind} drawn for the citizen field"
            noted(t, "MUN-PREFECT-04", refill, (f"institutions.{target}.citizen_field",), why)
        return end_turn(state, t, institutions=places, bag=bag)
    if state.draw_for == "basilica":
        # MUN-BASILICA-02: the drawn citizen goes in front of the basilica's user (taken from
        # the bag in the same copy).
        user = state.power_user or ""
        state = gain_citizens(state, user, event.kind, 1, t, rule="MUN-BASILICA-02", bag=bag)
        return next_power(state, t)
    homes = t.homes_of[event.kind]
    if len(homes) == 1:
        # The one home: the citizen is placed at once (the draw and placement in one copy).
        return _placed(state, t, homes[0], bag=bag)
    return evolve(state, bag=bag, drawn=event.kind, phase="place")


def _setup_field(state: State, t: Tables, kind: str, bag: dict[str, int]) -> State:
    """MUN-SETUP-04: with 3-4 players each meeting room's citizen field gets a drawn citizen
    (``bag``: the bag without it)."""
    places = state.institutions
    for name in t.meeting_rooms:
        place = places[name]
        if place.citizen_field is None:
            places = dict(places)
            places[name] = evolve(place, citizen_field=kind)
            break
    filled = all(places[n].citizen_field is not None for n in t.meeting_rooms)
    if t.recorder is not None:
        noted(t, "MUN-SETUP-04", evolve(state, bag=bag, institutions=places), ("institutions",))
    # MUN-CITIZEN-04: an empty bag gives nothing; the fields left empty stay empty (only a
    # profile with few citizens can empty the bag here).
    if filled or sum(bag.values()) == 0:
        first = next(iter(state.players))
        return evolve(state, bag=bag, institutions=places, phase="placement", current=first)
    return evolve(state, bag=bag, institutions=places)


def place_citizen(t: Tables, state: State, event: PlaceCitizen) -> State:
    """The chooser puts the drawn citizen in one of its kind's home institutions."""
    expect_phase(state, "place")
    expect_institution(event.institution)
    # MUN-CITIZEN-03: a drawn citizen goes to an institution that is home to its kind.
    kind = state.drawn or ""
    if event.institution not in t.homes_of[kind]:
        homes = " or ".join(t.homes_of[kind])
        raise RuleViolation("MUN-CITIZEN-03", f"a {kind} goes to the {homes}")
    return _placed(state, t, event.institution)


def _placed(state: State, t: Tables, institution: str, **changes: Any) -> State:
    """The drawn citizen goes to ``institution``, then the emporium or the card goes on
    (``changes``: the caller's other edits, made in the same copy as the placement)."""
    placed = {**changes, "drawn": None}
    places = joined_common_area(state, institution)
    if places is None:
        state = citizen_event(state, t, institution, **placed)
        placed = {}
        if state.draw_for == "emporium":
            # MUN-EMPORIUM-01: a citizen event ends the emporium's draws.
            return next_power(state, t)
    else:
        # No citizen event: the citizen joins the common area in the copy that goes on.
        placed["institutions"] = places
        if t.recorder is not None:
            where = (f"institutions.{institution}.citizens",)
            noted(t, "MUN-CITIZEN-03", evolve(state, **placed), where, "a citizen joins")
    if state.draw_for == "emporium":
        return evolve(state, phase="power", draw_for="", chooser=None, **placed)
    return continue_card_draws(state, t, state.draws_left, **placed)


# --- initial placement --------------------------------------------------------------------


def place_member(t: Tables, state: State, event: PlaceMember) -> State:
    """MUN-PLACE-01: in seat order each family places one member at a time, in any
    institution and without limit, until all are placed; then the temple order is set."""
    expect_phase(state, "placement")
    expect_institution(event.institution)
    player = state.players[event.player]
    player = evolve(
        player, members=add(player.members, event.institution, 1), unplaced=player.unplaced - 1
    )
    players = dict(state.players)
    players[event.player] = player
    names = list(players)
    index = names.index(event.player)
    if index + 1 < len(names):
        return evolve(state, players=players, current=names[index + 1])
    if players[names[0]].unplaced > 0:
        return evolve(state, players=players, current=names[0])
    state = noted(t, "MUN-PLACE-01", evolve(state, players=players))
    state = noted(t, "MUN-PLACE-03", initial_temple_order(state), ("temple_order",))
    return evolve(state, phase="move", current=names[0], round=1)


# --- move step ----------------------------------------------------------------------------


def move_member(t: Tables, state: State, event: MoveMember) -> State:
    """Move step: one or two members one step each, or one member two steps (or none)."""
    expect_phase(state, "move")
    path = event.path
    for name in path:
        if name not in INSTITUTIONS:  # a known name passes at once
            expect_institution(name)
    steps = len(path) - 1
    moved = state.moved
    # MUN-MOVE-03: two one-step moves, or one two-step move, and nothing more.
    if state.moved_far or len(moved) >= 2:
        raise RuleViolation("MUN-MOVE-03", "this turn's movement is used up")
    if steps not in (1, 2):
        raise RuleViolation("MUN-MOVE-01", "a member moves one step or two steps")
    if steps == 2 and moved:
        raise RuleViolation(
            "MUN-MOVE-03", "a two-step move is the whole movement; a member already moved"
        )
    origin = path[0]
    wreathed = event.wreathed
    player = state.players[event.player]
    here = (player.wreathed if wreathed else player.members)[origin]
    # MUN-MOVE-04: the member is one's own, stands at the origin, and has not moved yet.
    if here - moved.count(member_tag(origin, wreathed)) <= 0:
        what = "wreathed member" if wreathed else "member"
        raise RuleViolation("MUN-MOVE-04", f"{event.player} has no unmoved {what} in {origin}")
    # MUN-MOVE-01: each step goes along a road to a neighbouring institution (the roads are
    # data, MUN-BOARD-02).
    neighbours = t.neighbours
    for a, b in zip(path, path[1:], strict=False):
        if b not in neighbours[a]:
            raise RuleViolation("MUN-MOVE-01", f"no road joins the {a} and the {b}")
    end = path[-1]
    # MUN-MOVE-02: a two-step move ends in another institution than it started.
    if steps == 2 and end == origin:
        raise RuleViolation("MUN-MOVE-02", "a two-step move must end in another institution")
    if wreathed:
        player = evolve(player, wreathed=moved_one(player.wreathed, origin, end))
    else:
        player = evolve(player, members=moved_one(player.members, origin, end))
    players = dict(state.players)
    players[event.player] = player
    if steps == 2:
        return evolve(state, players=players, moved_far=True)
    return evolve(state, players=players, moved=(*moved, member_tag(end, wreathed)))


# --- card step ----------------------------------------------------------------------------


def draw_common(t: Tables, state: State, event: DrawCommon) -> State:
    """MUN-CARD-01: activate the top common card. MUN-CARD-03: an empty deck is first made
    again from the shuffled discard pile."""
    expect_phase(state, "move")
    if not state.common_deck:
        reshuffled = evolve(
            state,
            common_deck=tuple(sorted(state.common_discard)),
            common_discard=(),
            phase="reveal",
        )
        return noted(t, "MUN-CARD-03", reshuffled, ("common_deck", "common_discard"))
    return evolve(state, phase="reveal")


def reveal_card(t: Tables, state: State, event: RevealCard) -> State:
    """Chance: the top common card is revealed, laid on the discard pile, and carried out."""
    expect_phase(state, "reveal")
    # MUN-CARD-04: the revealed card is one of the cards still in the deck.
    if event.card not in state.common_deck:
        raise RuleViolation("MUN-CARD-04", f"common card {event.card!r} is not in the deck")
    deck = list(state.common_deck)
    deck.remove(event.card)
    # The deck and the discard pile change in the same copy as the card's first effects.
    return activate(
        t,
        state,
        t.common_cards[event.card],
        common_deck=tuple(deck),
        common_discard=(*state.common_discard, event.card),
    )


def play_family_card(t: Tables, state: State, event: PlayFamilyCard) -> State:
    """MUN-CARD-01 / MUN-CARD-02: play a face-up family card; it is turned face down."""
    expect_phase(state, "move")
    player = state.players[event.player]
    # MUN-CARD-02: only a family card still face up in front of you can be played.
    if event.card not in player.family_cards:
        raise RuleViolation(
            "MUN-CARD-02", f"{event.player} has no face-up family card {event.card!r}"
        )
    cards = list(player.family_cards)
    cards.remove(event.card)
    player = evolve(
        player, family_cards=tuple(cards), spent_cards=(*player.spent_cards, event.card)
    )
    # The card's first effects are made in the same copy (they read members, not cards).
    players = {**state.players, event.player: player}
    return activate(t, state, t.family_cards[event.card], players=players)


def activate(t: Tables, state: State, card: Card, **changes: Any) -> State:
    """Carry out one card: a prefect, citizen or power event (MUN-CARD-05 / MUN-CARD-06).
    ``changes``: the caller's own edits, made in the same copy as the card's first effects
    (with the card in hand); the card's rules never read the fields they change."""
    in_hand = {**changes, "card": card.id}
    if card.kind == "prefect":
        if card.target == "choose":
            return evolve(state, phase="prefect", **in_hand)
        if card.target == state.prefect:
            # MUN-PREFECT-06: the prefect is already there: he does not move, nothing happens.
            why = "the prefect already stands there: no prefect event"
            noted(t, "MUN-PREFECT-06", state, ("prefect",), why)
            return end_turn(state, t, **in_hand)
        return prefect_event(state, t, card.target, **in_hand)
    if card.kind == "citizen":
        return continue_card_draws(state, t, card.draws, **in_hand)
    names = card.institutions
    if names == ("leading",):
        # MUN-CARD-06: "Your Powers" activates every institution the active family leads.
        names = tuple(n for n in t.order if ranking(state, n)[:1] == [state.current])
    if t.recorder is not None and len(names) > 1:
        # MUN-POWER-02: several institutions, one after another in ascending number.
        why = f"in number order: {', '.join(names)}"
        noted(t, "MUN-POWER-02", state, ("powers",), why)
    return next_power(state, t, names, **in_hand)


def move_prefect(t: Tables, state: State, event: MovePrefect) -> State:
    """A prefect card with a free target: the active player sends the prefect."""
    expect_phase(state, "prefect")
    expect_institution(event.institution)
    # MUN-PREFECT-05: the prefect goes only to another institution with a meeting room.
    if event.institution not in t.meeting_rooms:
        raise RuleViolation("MUN-PREFECT-05", f"the {event.institution} has no prefect field")
    if event.institution == state.prefect:
        raise RuleViolation("MUN-PREFECT-05", f"the prefect already stands in the {state.prefect}")
    return prefect_event(state, t, event.institution)
