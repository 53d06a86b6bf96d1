"""Conservation and soundness checks run after every event (cheap: no copies)."""

from __future__ import annotations

from reference.municipium.state import PHASES, State
from reference.municipium.tables import KINDS, Tables


def invariant_failures(t: Tables, state: State) -> list[str]:
    """Every broken invariant: pieces conserved, sets exchanged, turn fields sane."""
    bad: list[str] = []
    players = state.players
    names = tuple(players)
    if min(state.bag.values()) < 0 or state.favour_supply < 0 or state.wreath_supply < 0:
        bad.append(f"a stock is negative: bag {state.bag}, favours {state.favour_supply}")
    if state.phase not in PHASES:
        bad.append(f"unknown phase {state.phase!r}")
    if state.current not in players:
        bad.append(f"current player {state.current!r} is not in the game")
    if sorted(state.temple_order) != sorted(names):
        bad.append(f"temple order {state.temple_order} is not the families {names}")
    citizens = dict(state.bag)
    favours = state.favour_supply
    wreaths = state.wreath_supply
    for name, p in players.items():
        crowned = sum(p.wreathed.values())
        on_board = sum(p.members.values()) + crowned
        if on_board + p.unplaced != t.members:
            bad.append(f"{name} has {on_board} + {p.unplaced} members, not {t.members}")
        held = 0
        for kind in KINDS:
            count = p.citizens[kind]
            citizens[kind] += count
            if count > 0:
                held += 1
        favours += p.favours
        wreaths += crowned
        # MUN-DECURION-01: a complete set never stays in front of a family.
        if held + p.favours >= len(KINDS):
            bad.append(f"{name} holds a complete set that was not exchanged")
        cards = p.family_cards + p.spent_cards
        if tuple(sorted(cards)) != t.family_ids:
            bad.append(f"{name}'s family cards {cards} are not {list(t.family_ids)}")
    fields = len(names) >= t.field_min_players
    home = t.home
    for name, place in state.institutions.items():
        citizens[home[name]] += place.citizens
        if place.citizens > 2:
            bad.append(f"the {name} holds {place.citizens} citizens; 3 trigger a citizen event")
        if place.favour:
            favours += 1
        if place.citizen_field is not None:
            citizens[place.citizen_field] += 1
            if not fields:
                bad.append(f"the {name} has a citizen field in a {len(names)}-player game")
        if name not in t.meeting_rooms and (place.favour or place.citizen_field is not None):
            bad.append(f"the {name} has no meeting room but holds a favour or field citizen")
    if state.drawn is not None:
        citizens[state.drawn] += 1
    for kind in KINDS:
        if citizens[kind] != t.citizens_per_kind:
            bad.append(f"{citizens[kind]} {kind} citizens in the game, not {t.citizens_per_kind}")
    if favours != t.favours:
        bad.append(f"{favours} favours in the game, not {t.favours}")
    if wreaths != t.wreaths:
        bad.append(f"{wreaths} wreaths in the game, not {t.wreaths}")
    if tuple(sorted(state.common_deck + state.common_discard)) != t.common_ids:
        bad.append("the common deck and discard pile do not hold the common cards once each")
    if state.prefect not in t.meeting_rooms:
        bad.append(f"the prefect stands in the {state.prefect}, which has no prefect field")
    if state.phase == "place" and state.drawn is None:
        bad.append("a citizen is to be placed but none was drawn")
    if state.phase != "place" and state.drawn is not None:
        bad.append("a drawn citizen was left unplaced")
    if state.phase == "power" and (state.power is None or state.power_user not in players):
        bad.append("a power is being used without an institution or user")
    return bad


def field_refill_failures(t: Tables, state: State) -> list[str]:
    """For a position written by hand (a scenario's given.state), not an invariant of play.

    MUN-PREFECT-04: an emptied favour field is refilled from the supply at once, and (3-4
    players) an emptied citizen field by the next draw, while the bag holds any. So in a
    game whose bag never ran dry only the setup draws and the one field being refilled may be
    empty, and nothing is refilled once the game is over. (Play can leave a field empty
    after the bag ran dry and later refilled; no hand-written position needs that.)
    """
    bad: list[str] = []
    fields = len(state.players) >= t.field_min_players
    if state.phase == "over":
        return bad
    bag_holds = sum(state.bag.values()) > 0
    refilling = state.field_for if state.phase == "draw" and state.draw_for == "field" else None
    for name in t.meeting_rooms:
        place = state.institutions[name]
        if state.favour_supply > 0 and not place.favour:
            bad.append(f"the {name}'s favour field is empty while the supply holds favours")
        empty = fields and place.citizen_field is None and name != refilling
        if empty and bag_holds and state.phase != "setup":
            bad.append(f"the {name}'s citizen field is empty while the bag holds citizens")
    return bad
