"""Who acts next, every legal event, and chance outcomes with their probabilities."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from reference.core.game import CHANCE
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
from reference.municipium.rules_flow import bag_size, member_tag
from reference.municipium.state import State
from reference.municipium.tables import FAVOUR, KINDS, Tables


def to_act(t: Tables, state: State) -> str:
    """The player who decides next, or CHANCE for a draw from the bag or the deck."""
    if state.phase in ("setup", "draw", "reveal"):
        return CHANCE
    if state.phase == "place":
        return state.chooser or state.current
    if state.phase == "power":
        return state.power_user or state.current
    return state.current


def chance_outcomes(t: Tables, state: State) -> list[tuple[Any, float]]:
    """Each citizen kind in proportion to the bag, or each deck card equally likely."""
    if state.phase in ("setup", "draw"):
        total = bag_size(state)
        return [(DrawCitizen(k), state.bag[k] / total) for k in KINDS if state.bag[k] > 0]
    if state.phase == "reveal":
        deck = state.common_deck
        return [(RevealCard(card), 1 / len(deck)) for card in deck]
    return []


def legal_events(t: Tables, state: State) -> list[Any]:
    """Every legal event, in a stable order."""
    phase = state.phase
    if phase in ("setup", "draw", "reveal"):
        return [event for event, _ in chance_outcomes(t, state)]
    actor = to_act(t, state)
    if phase == "placement":
        return [PlaceMember(actor, name) for name in t.order]
    if phase == "move":
        cards: list[Any] = [DrawCommon(actor)]
        cards += [PlayFamilyCard(actor, c) for c in state.players[actor].family_cards]
        return _moves(t, state, actor) + cards
    if phase == "prefect":
        return [MovePrefect(actor, n) for n in t.meeting_rooms if n != state.prefect]
    if phase == "place":
        return [PlaceCitizen(actor, n) for n in t.homes_of[state.drawn or ""]]
    if phase == "power":
        return _power_events(t, state, actor) + [EndPower(actor)]
    return []


def _moves(t: Tables, state: State, actor: str) -> list[Any]:
    if state.moved_far or len(state.moved) >= 2:
        return []
    player = state.players[actor]
    near = t.neighbours
    out: list[Any] = []
    for origin in t.order:
        for wreathed in (False, True):
            here = (player.wreathed if wreathed else player.members)[origin]
            if here - state.moved.count(member_tag(origin, wreathed)) <= 0:
                continue
            out += [MoveMember(actor, (origin, n), wreathed) for n in near[origin]]
            if not state.moved:
                out += [
                    MoveMember(actor, (origin, n, m), wreathed)
                    for n in near[origin]
                    for m in near[n]
                    if m != origin
                ]
    return out


def _power_events(t: Tables, state: State, actor: str) -> list[Any]:
    power = state.power
    if power == "tavern":
        return [
            TavernPull(actor, family, origin, plain, wreathed)
            for origin in t.order
            if origin != "tavern"
            for family, p in state.players.items()
            for plain in range(p.members[origin] + 1)
            for wreathed in range(p.wreathed[origin] + 1)
            if plain + wreathed > 0
        ]
    if power == "baths":
        return [UseBaths(actor)]
    if power == "emporium":
        return [EmporiumDraw(actor)] if bag_size(state) > 0 else []
    if power == "basilica":
        return _basilica_events(t, state, actor)
    if power == "forum":
        out: list[Any] = [
            ForumTakeFromPlayer(actor, victim, kind)
            for victim, p in state.players.items()
            if victim != actor
            for kind in KINDS
            if p.citizens[kind] > 0
        ]
        return out + [
            ForumTakeFromInstitution(actor, n)
            for n in t.order
            if state.institutions[n].citizens > 0
        ]
    if power == "praetorium":
        player = state.players[actor]
        out = []
        for origin in t.order:
            for wreathed in (False, True):
                here = (player.wreathed if wreathed else player.members)[origin]
                if here - state.relocated.count(member_tag(origin, wreathed)) > 0:
                    out += [
                        RelocateMember(actor, origin, dest, wreathed)
                        for dest in t.order
                        if dest != origin
                    ]
        return out
    return []


def _basilica_events(t: Tables, state: State, actor: str) -> list[Any]:
    player = state.players[actor]
    held = dict(player.citizens)
    held[FAVOUR] = player.favours
    names = [k for k in (*KINDS, FAVOUR) if held[k] > 0]
    out: list[Any] = []
    for combo in combinations_with_replacement(names, t.basilica_size):
        if all(combo.count(k) <= held[k] for k in set(combo)):
            out.append(BasilicaExchange(actor, combo))
    if bag_size(state) > 0:
        out.append(BasilicaDraw(actor))
    return out
