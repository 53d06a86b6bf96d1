"""The institution powers, used by the family with most influence in the institution.

The temple's power runs at once (see ``rules_flow.next_power``); the others are optional and
wait here for their user's decision (or ``end_power``).
"""

from __future__ import annotations

from reference.core.errors import RuleViolation
from reference.core.stock import holds, put_back, take
from reference.municipium.events import (
    BasilicaDraw,
    BasilicaExchange,
    EmporiumDraw,
    EndPower,
    ForumTakeFromInstitution,
    ForumTakeFromPlayer,
    RelocateMember,
    TavernPull,
    UseBaths,
)
from reference.municipium.rules_flow import (
    add,
    gain_citizens,
    member_tag,
    moved_one,
    next_power,
    start_draw,
    with_player,
)
from reference.municipium.rules_turn import expect_institution, expect_phase
from reference.municipium.state import State, evolve
from reference.municipium.tables import FAVOUR, KINDS, Tables


def expect_power(state: State, institution: str) -> None:
    """MUN-POWER-04: only the power of the institution now activated can be used."""
    expect_phase(state, "power")
    if state.power != institution:
        raise RuleViolation(
            "MUN-POWER-04", f"the {state.power} is activated, not the {institution}"
        )


def end_power(t: Tables, state: State, event: EndPower) -> State:
    """MUN-POWER-03: the powers other than the temple's may be declined or stopped."""
    expect_phase(state, "power")
    return next_power(state, t)


def tavern_pull(t: Tables, state: State, event: TavernPull) -> State:
    """MUN-TAVERN-01: move one or more members of one family from one institution (not the
    tavern) to the tavern; any family, the user's own or another's."""
    expect_power(state, "tavern")
    expect_institution(event.origin)
    if event.origin == "tavern":
        raise RuleViolation("MUN-TAVERN-01", "members are pulled from another institution")
    family = state.players[event.family]
    if event.plain < 0 or event.wreathed < 0 or event.plain + event.wreathed < 1:
        raise RuleViolation("MUN-TAVERN-01", "the tavern pulls one or more members")
    if family.members[event.origin] < event.plain or (
        family.wreathed[event.origin] < event.wreathed
    ):
        raise RuleViolation(
            "MUN-TAVERN-01", f"{event.family} has not that many members in the {event.origin}"
        )
    family = evolve(
        family,
        members=add(add(family.members, event.origin, -event.plain), "tavern", event.plain),
        wreathed=add(add(family.wreathed, event.origin, -event.wreathed), "tavern", event.wreathed),
    )
    return next_power(with_player(state, event.family, family), t)


def use_baths(t: Tables, state: State, event: UseBaths) -> State:
    """MUN-BATHS-01: all the user's members in the baths go to the temple and one of them
    gets a wreath (if one is left, always from an unlimited supply, and a moved member has
    none)."""
    expect_power(state, "baths")
    player = state.players[event.player]
    plain = player.members["baths"]
    wreathed = player.wreathed["baths"]
    # An unlimited supply (components.wreaths null) always has a wreath left.
    crown = 1 if plain > 0 and holds(state.wreath_supply, 1) else 0
    player = evolve(
        player,
        members=add(add(player.members, "baths", -plain), "temple", plain - crown),
        wreathed=add(add(player.wreathed, "baths", -wreathed), "temple", wreathed + crown),
    )
    wreaths = take(state.wreath_supply, crown)[1]
    state = with_player(state, event.player, player, wreath_supply=wreaths)
    return next_power(state, t)


def _power_draw(state: State, power: str, player: str) -> State:
    """A power's draw from the bag begins (MUN-CITIZEN-04: not from an empty bag)."""
    expect_power(state, power)
    drawing = start_draw(state, power, player)
    if drawing is None:
        raise RuleViolation("MUN-CITIZEN-04", "the bag is empty; no citizen can be drawn")
    return drawing


def emporium_draw(t: Tables, state: State, event: EmporiumDraw) -> State:
    """MUN-EMPORIUM-01: draw one citizen and place it in its home before drawing again."""
    return _power_draw(state, "emporium", event.player)


def basilica_exchange(t: Tables, state: State, event: BasilicaExchange) -> State:
    """MUN-BASILICA-01: trade any three of one's citizens and/or favours for a decurion."""
    expect_power(state, "basilica")
    if len(event.tokens) != t.basilica_size:
        raise RuleViolation(
            "MUN-BASILICA-01", f"the basilica takes exactly {t.basilica_size} tokens"
        )
    player = state.players[event.player]
    citizens = dict(player.citizens)
    favours = player.favours
    bag = dict(state.bag)
    for token in event.tokens:
        if token == FAVOUR and favours > 0:
            favours -= 1
        elif token in KINDS and citizens[token] > 0:
            citizens[token] -= 1
            bag[token] += 1
        else:
            raise RuleViolation(
                "MUN-BASILICA-01", f"{event.player} does not hold the tokens {list(event.tokens)}"
            )
    spent = player.favours - favours
    player = evolve(player, citizens=citizens, favours=favours, decurions=player.decurions + 1)
    supply = put_back(state.favour_supply, spent)  # an unlimited supply stays unlimited
    state = with_player(state, event.player, player, bag=bag, favour_supply=supply)
    return next_power(state, t)


def basilica_draw(t: Tables, state: State, event: BasilicaDraw) -> State:
    """MUN-BASILICA-02: draw a citizen from the bag and keep it."""
    return _power_draw(state, "basilica", event.player)


def forum_take_from_player(t: Tables, state: State, event: ForumTakeFromPlayer) -> State:
    """MUN-FORUM-01: take one citizen of one's choice from another family."""
    expect_power(state, "forum")
    if event.victim == event.player:
        raise RuleViolation("MUN-FORUM-01", f"{event.victim!r} is not another family")
    victim = state.players[event.victim]
    if victim.citizens[event.kind] == 0:
        raise RuleViolation("MUN-FORUM-01", f"{event.victim} holds no {event.kind} citizen")
    victim = evolve(victim, citizens=add(victim.citizens, event.kind, -1))
    state = with_player(state, event.victim, victim)
    state = gain_citizens(state, event.player, event.kind, 1, t, rule="MUN-FORUM-01")
    return next_power(state, t)


def forum_take_from_institution(t: Tables, state: State, event: ForumTakeFromInstitution) -> State:
    """MUN-FORUM-02: take one citizen from an institution's common area (never a field)."""
    expect_power(state, "forum")
    expect_institution(event.institution)
    place = state.institutions[event.institution]
    if place.citizens == 0:
        raise RuleViolation(
            "MUN-FORUM-02", f"the {event.institution}'s common area holds no citizen"
        )
    places = {**state.institutions, event.institution: evolve(place, citizens=place.citizens - 1)}
    kind = t.home[event.institution]
    state = gain_citizens(state, event.player, kind, 1, t, rule="MUN-FORUM-02", institutions=places)
    return next_power(state, t)


def relocate_member(t: Tables, state: State, event: RelocateMember) -> State:
    """MUN-PRAETORIUM-01: move any of one's members to any institution, each at most once."""
    expect_power(state, "praetorium")
    expect_institution(event.origin)
    expect_institution(event.destination)
    if event.origin == event.destination:
        raise RuleViolation("MUN-PRAETORIUM-01", "a relocated member changes institution")
    player = state.players[event.player]
    here = (player.wreathed if event.wreathed else player.members)[event.origin]
    if here - state.relocated.count(member_tag(event.origin, event.wreathed)) <= 0:
        raise RuleViolation(
            "MUN-PRAETORIUM-01",
            f"{event.player} has no member left to relocate in the {event.origin}",
        )
    if event.wreathed:
        wreathed = moved_one(player.wreathed, event.origin, event.destination)
        player = evolve(player, wreathed=wreathed)
    else:
        player = evolve(player, members=moved_one(player.members, event.origin, event.destination))
    tag = member_tag(event.destination, event.wreathed)
    return with_player(state, event.player, player, relocated=(*state.relocated, tag))
