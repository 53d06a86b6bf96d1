"""The Municipium rule set: setup, whose decision it is, the legal events, apply, the end."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement
from typing import Any

import attrs

from reference.core.catalogue import Catalogue
from reference.core.datafile import DataSet
from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import CHANCE, Result, check_actor, player_names_ok
from reference.municipium import rules_powers as powers
from reference.municipium import rules_turn as turn
from reference.municipium.events import (
    EVENT_TYPES,
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
from reference.municipium.invariants import field_refill_failures, invariant_failures
from reference.municipium.options import MunicipiumOptions
from reference.municipium.rules_flow import bag_size, member_tag
from reference.municipium.state import Institution, PlayerState, State, evolve
from reference.municipium.tables import FAVOUR, KINDS, Tables

Handler = Callable[[Tables, State, Any], State]

HANDLERS: dict[type[Any], Handler] = {
    DrawCitizen: turn.draw_citizen,
    RevealCard: turn.reveal_card,
    PlaceMember: turn.place_member,
    MoveMember: turn.move_member,
    DrawCommon: turn.draw_common,
    PlayFamilyCard: turn.play_family_card,
    MovePrefect: turn.move_prefect,
    PlaceCitizen: turn.place_citizen,
    EndPower: powers.end_power,
    TavernPull: powers.tavern_pull,
    UseBaths: powers.use_baths,
    EmporiumDraw: powers.emporium_draw,
    BasilicaExchange: powers.basilica_exchange,
    BasilicaDraw: powers.basilica_draw,
    ForumTakeFromPlayer: powers.forum_take_from_player,
    ForumTakeFromInstitution: powers.forum_take_from_institution,
    RelocateMember: powers.relocate_member,
}
"""One handler per event class (a test checks the two lists match)."""


@attrs.define
class Municipium:
    """Municipium (Knizia, Valley Games 2008) for 2-4 players, configured by options + data."""

    options: MunicipiumOptions
    catalogue: Catalogue
    data: DataSet
    tables: Tables
    name: str = "municipium"
    min_players: int = 2
    max_players: int = 4
    event_types: tuple[type[Any], ...] = EVENT_TYPES
    state_type: type[Any] = State

    # --- setup ----------------------------------------------------------------------------

    def new_game(self, players: Sequence[str]) -> State:
        """The standard setup (MUN-SETUP-01..07); the first name is the start player.

        >>> from reference.municipium import make
        >>> make({}).new_game(["red", "blue"]).phase
        'placement'
        """
        # MUN-SETUP-07: two to four players, named uniquely.
        why = player_names_ok(players, self.min_players, self.max_players)
        if why is not None:
            raise BadOptions(why)
        t = self.tables
        # MUN-SETUP-01: one home citizen in each institution, the rest in the bag.
        # MUN-SETUP-02: a favour on each meeting room's favour field, the rest in the supply.
        bag = {kind: t.citizens_per_kind for kind in KINDS}
        places: dict[str, Institution] = {}
        for name in t.order:
            bag[t.home[name]] -= 1
            places[name] = Institution(
                citizens=1, favour=name in t.meeting_rooms, citizen_field=None
            )
        if min(bag.values()) < 0:
            raise BadOptions("components.citizens_per_kind is too small for the setup")
        # MUN-SETUP-05: seven members and the three family cards face up per family; the
        # common deck is shuffled (kept sorted here: each reveal is a chance event).
        family = tuple(t.family_cards)
        members = {name: 0 for name in t.order}
        seats = {
            p: PlayerState(
                members=dict(members),
                wreathed=dict(members),
                unplaced=t.members,
                citizens={kind: 0 for kind in KINDS},
                favours=0,
                decurions=0,
                family_cards=family,
                spent_cards=(),
            )
            for p in players
        }
        # MUN-SETUP-04: with 3-4 players the citizen fields are drawn first (chance events).
        # MUN-SETUP-06: the first name in seat order is the start player.
        # MUN-SETUP-03: the prefect starts in the basilica (board.prefect_start).
        fields = len(players) >= t.field_min_players
        return State(
            phase="setup" if fields else "placement",
            current=players[0],
            round=0,
            players=seats,
            institutions=places,
            prefect=t.prefect_start,
            bag=bag,
            favour_supply=t.favours - len(t.meeting_rooms),
            wreath_supply=t.wreaths,
            temple_order=tuple(players),
            common_deck=tuple(sorted(t.common_cards)),
            common_discard=(),
        )

    # --- whose decision -------------------------------------------------------------------

    def to_act(self, state: State) -> str:
        """The player who decides next, or CHANCE for a draw from the bag or the deck."""
        if state.phase in ("setup", "draw", "reveal"):
            return CHANCE
        if state.phase == "place":
            return state.chooser or state.current
        if state.phase == "power":
            return state.power_user or state.current
        return state.current

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        """Each citizen kind in proportion to the bag, or each deck card equally likely."""
        if state.phase in ("setup", "draw"):
            total = bag_size(state)
            return [(DrawCitizen(k), state.bag[k] / total) for k in KINDS if state.bag[k] > 0]
        if state.phase == "reveal":
            deck = state.common_deck
            return [(RevealCard(card), 1 / len(deck)) for card in deck]
        return []

    def legal_events(self, state: State) -> list[Any]:
        """Every legal event, in a stable order."""
        phase = state.phase
        t = self.tables
        if phase in ("setup", "draw", "reveal"):
            return [event for event, _ in self.chance_outcomes(state)]
        actor = self.to_act(state)
        if phase == "placement":
            return [PlaceMember(actor, name) for name in t.order]
        if phase == "move":
            cards: list[Any] = [DrawCommon(actor)]
            cards += [PlayFamilyCard(actor, c) for c in state.players[actor].family_cards]
            return self._moves(state, actor) + cards
        if phase == "prefect":
            return [MovePrefect(actor, n) for n in t.meeting_rooms if n != state.prefect]
        if phase == "place":
            return [PlaceCitizen(actor, n) for n in t.homes_of[state.drawn or ""]]
        if phase == "power":
            return self._power_events(state, actor) + [EndPower(actor)]
        return []

    def _moves(self, state: State, actor: str) -> list[Any]:
        if state.moved_far or len(state.moved) >= 2:
            return []
        player = state.players[actor]
        near = self.tables.neighbours
        out: list[Any] = []
        for origin in self.tables.order:
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

    def _power_events(self, state: State, actor: str) -> list[Any]:
        t = self.tables
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
            return self._basilica_events(state, actor)
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

    def _basilica_events(self, state: State, actor: str) -> list[Any]:
        player = state.players[actor]
        held = dict(player.citizens)
        held[FAVOUR] = player.favours
        names = [k for k in (*KINDS, FAVOUR) if held[k] > 0]
        out: list[Any] = []
        for combo in combinations_with_replacement(names, self.tables.basilica_size):
            if all(combo.count(k) <= held[k] for k in set(combo)):
                out.append(BasilicaExchange(actor, combo))
        if bag_size(state) > 0:
            out.append(BasilicaDraw(actor))
        return out

    # --- apply ----------------------------------------------------------------------------

    def apply(self, state: State, event: Any) -> State:
        """The state after ``event``.

        Raises:
            MalformedEvent: the event is not a Municipium event.
            RuleViolation: the event breaks a rule (its id is in data/rules.yaml).

        >>> from reference.municipium import make
        >>> from reference.municipium.events import PlaceMember
        >>> g = make({})
        >>> g.apply(g.new_game(["red", "blue"]), PlaceMember("red", "temple")).current
        'blue'
        """
        handler = HANDLERS.get(type(event))
        if handler is None:
            known = ", ".join(e.type for e in EVENT_TYPES)  # type: ignore[attr-defined]
            raise MalformedEvent(f"not a municipium event: {event!r} (known: {known})")
        if state.phase == "over":
            # CORE-END-01: once the game has ended no event is accepted.
            raise RuleViolation("CORE-END-01", "the game is over; no further events are allowed")
        turn.expect_known_names(state, event)  # an unknown name is malformed (MUN-BOARD-01)
        # MUN-TURN-01: only the player to act (or chance, for a draw) may make the event.
        check_actor(self, state, event, "MUN-TURN-01")
        new_state = handler(self.tables, state, event)
        mode = self.options.end_mode
        if mode != "finish_round" and new_state.phase != "over":
            target = self.tables.decurions_to_end
            if any(p.decurions >= target for p in new_state.players.values()):
                if mode == "immediate":
                    # MUN-END-01 (end_mode immediate): the first family to reach the target
                    # wins at once.
                    new_state = evolve(new_state, phase="over")
                elif new_state.phase == "move" and new_state.current != state.current:
                    # MUN-END-01 (end_mode finish_turn): the turn in which a family reached
                    # the target is finished, then the game ends.
                    new_state = evolve(
                        new_state, phase="over", current=state.current, round=state.round
                    )
        return new_state

    # --- the end --------------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""
        return state.phase == "over"

    def result(self, state: State) -> Result:
        """MUN-END-02: most decurions wins; a tie goes to most favours plus citizens.
        MUN-END-04: a further tie is shared (our ruling)."""
        scores = {name: p.decurions for name, p in state.players.items()}

        def rank(name: str) -> tuple[int, int]:
            p = state.players[name]
            return (p.decurions, p.favours + sum(p.citizens.values()))

        best = max(rank(name) for name in state.players)
        winners = tuple(name for name in state.players if rank(name) == best)
        return Result(scores=scores, winners=winners)

    def invariant_failures(self, state: State) -> list[str]:
        """Every broken invariant of ``state`` (see invariants.py)."""
        return invariant_failures(self.tables, state)

    def position_failures(self, state: State) -> list[str]:
        """Why a hand-written position could not arise in play: the invariants, and every
        field refilled while its supply lasts (see invariants.field_refill_failures)."""
        return invariant_failures(self.tables, state) + field_refill_failures(self.tables, state)


def check_event_handlers() -> list[str]:
    """Event classes without a handler and handlers without an event class (should be [])."""
    missing = [e.__name__ for e in EVENT_TYPES if e not in HANDLERS]
    extra = [e.__name__ for e in HANDLERS if e not in EVENT_TYPES]
    return missing + extra
