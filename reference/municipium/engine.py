"""The Municipium rule set: the ``Game`` protocol over the handlers of the rules modules."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reference.core.aliases import Term
from reference.core.datafile import DataSet
from reference.core.game import Event, Result
from reference.core.ruleset import Handler, RuleSet
from reference.municipium import events as ev
from reference.municipium import invariants, legal, rules_setup
from reference.municipium import rules_powers as powers
from reference.municipium import rules_turn as turn
from reference.municipium.invariants import field_refill_failures, invariant_failures
from reference.municipium.options import MunicipiumOptions
from reference.municipium.rules_flow import noted
from reference.municipium.state import State, evolve
from reference.municipium.tables import KINDS, Tables, read_tables

PACKAGE_DIR = Path(__file__).parent

HANDLERS: dict[type[Event], Handler[Tables, State]] = {
    ev.DrawCitizen: turn.draw_citizen,
    ev.RevealCard: turn.reveal_card,
    ev.PlaceMember: turn.place_member,
    ev.MoveMember: turn.move_member,
    ev.DrawCommon: turn.draw_common,
    ev.PlayFamilyCard: turn.play_family_card,
    ev.MovePrefect: turn.move_prefect,
    ev.PlaceCitizen: turn.place_citizen,
    ev.EndPower: powers.end_power,
    ev.TavernPull: powers.tavern_pull,
    ev.UseBaths: powers.use_baths,
    ev.EmporiumDraw: powers.emporium_draw,
    ev.BasilicaExchange: powers.basilica_exchange,
    ev.BasilicaDraw: powers.basilica_draw,
    ev.ForumTakeFromPlayer: powers.forum_take_from_player,
    ev.ForumTakeFromInstitution: powers.forum_take_from_institution,
    ev.RelocateMember: powers.relocate_member,
}
"""One handler per event class (a contract test checks the two lists match)."""


EVENT_RULES: dict[type, str] = {
    ev.DrawCitizen: "MUN-BAG-01",
    ev.RevealCard: "MUN-CARD-04",
    ev.PlaceMember: "MUN-PLACE-01",
    ev.MoveMember: "MUN-MOVE-01",
    ev.DrawCommon: "MUN-CARD-01",
    ev.PlayFamilyCard: "MUN-CARD-02",
    ev.MovePrefect: "MUN-PREFECT-05",
    ev.PlaceCitizen: "MUN-CITIZEN-03",
    ev.EndPower: "MUN-POWER-03",
    ev.TavernPull: "MUN-TAVERN-01",
    ev.UseBaths: "MUN-BATHS-01",
    ev.EmporiumDraw: "MUN-EMPORIUM-01",
    ev.BasilicaExchange: "MUN-BASILICA-01",
    ev.BasilicaDraw: "MUN-BASILICA-02",
    ev.ForumTakeFromPlayer: "MUN-FORUM-01",
    ev.ForumTakeFromInstitution: "MUN-FORUM-02",
    ev.RelocateMember: "MUN-PRAETORIUM-01",
}
"""The rule of each event class: what its changes are put down to when no trace point says
more (the rules' own trace points credit a citizen event to MUN-CITIZEN-01, the decurions
it makes to MUN-DECURION-01, ...), and the rule under which it is legal."""


SETUP_MADE: dict[str, tuple[str, ...]] = {
    "MUN-SETUP-01": ("institutions.*.citizens", "bag"),
    "MUN-SETUP-02": ("institutions.*.favour", "favour_supply"),
    "MUN-SETUP-03": ("prefect",),
    "MUN-SETUP-05": (
        "players.*.members",
        "players.*.wreathed",
        "players.*.unplaced",
        "players.*.family_cards",
        "common_deck",
    ),
    "MUN-SETUP-06": ("current", "temple_order"),
}
"""Which setup rule makes which values (explanations; the rest is the game's bookkeeping,
or empty: citizens, favours and decurions in front of the families start at 0)."""


class Municipium(RuleSet[MunicipiumOptions, Tables, State, Event]):
    """Municipium (Knizia, Valley Games 2008) for 2-4 players, configured by options + data.

    >>> from reference.municipium import make
    >>> from reference.municipium.events import PlaceMember
    >>> g = make({})
    >>> g.apply(g.new_game(["red", "blue"]), PlaceMember("red", "temple")).current
    'blue'
    """

    name = "municipium"
    turn_rule = "MUN-TURN-01"
    package_dir = PACKAGE_DIR
    min_players = 2
    max_players = 4
    options_type = MunicipiumOptions
    event_types: tuple[type[Event], ...] = ev.EVENT_TYPES
    state_type = State
    handlers = HANDLERS
    event_rules = EVENT_RULES
    result_rule = "MUN-END-02"
    setup_made = SETUP_MADE
    legal_rules = legal
    setup_rules = rules_setup

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self._memo = invariants.Memo()
        """The families' and institutions' counts last made, for this rule set only."""

    def why_to_act(self, state: State, player: str) -> str:
        """Why ``player`` is asked now, with the rule id (what a MUN-TURN-01 verdict adds)."""
        if state.phase == "place":
            return f"{player} places the citizen drawn for them (MUN-CITIZEN-03)"
        if state.phase == "power":
            return f"{player} has most influence in the {state.power} and uses it (MUN-POWER-01)"
        if state.phase == "prefect":
            return f"{player} sends the prefect for their card (MUN-PREFECT-05)"
        if state.phase == "placement":
            return f"{player} places a member, one each in seat order (MUN-PLACE-01)"
        return f"it is {player}'s turn: moves, then one card (MUN-TURN-02)"

    def why_not(self, state: State, event: Event) -> str:
        """Why the event's player is not asked now, where the rules say more than whose
        turn it is: a power is used by its majority family, whoever played the card."""
        player = getattr(event, "player", None)
        if state.phase == "power" and state.power_user and player != state.power_user:
            return (
                f"the {state.power}'s power is used by the family with most influence "
                f"there, {state.power_user}, whoever played the card (MUN-POWER-01)"
            )
        return ""

    def vocabulary(self) -> tuple[Term, ...]:
        """The event types, institutions, citizen kinds and cards by their ids."""
        t = self.tables
        return (
            *super().vocabulary(),
            *(Term(name, "institution", "board.institutions") for name in t.order),
            *(Term(kind, "citizen kind", "components.citizens_per_kind") for kind in KINDS),
            *(
                Term(cid, f"common {card.kind} card ({card.name})", "cards.common_cards")
                for cid, card in t.common_cards.items()
            ),
            *(
                Term(cid, f"family {card.kind} card ({card.name})", "cards.family_cards")
                for cid, card in t.family_cards.items()
            ),
        )

    def read_tables(self, data: DataSet, options: MunicipiumOptions) -> Tables:
        """The typed tables (MUN data keys)."""
        return read_tables(data)

    check_fields = staticmethod(turn.expect_known_names)
    """An unknown institution, citizen kind or family is malformed (MUN-BOARD-01): the
    rules' own check, called with no step between."""

    def after_event(self, before: State, after: State) -> State:
        """MUN-END-01: under end_mode ``immediate`` or ``finish_turn`` a family reaching the
        decurion target ends the game at once or at the end of that turn."""
        mode = self.options.end_mode
        if mode == "finish_round" or after.phase == "over":
            return after
        target = self.tables.decurions_to_end
        if not any(p.decurions >= target for p in after.players.values()):
            return after
        if mode == "immediate":
            # MUN-END-01 (end_mode immediate): the first family to reach the target wins
            # at once.
            return noted(self.tables, "MUN-END-01", evolve(after, phase="over"), ("phase",))
        if after.phase == "move" and after.current != before.current:
            # MUN-END-01 (end_mode finish_turn): the turn in which a family reached the
            # target is finished, then the game ends.
            over = evolve(after, phase="over", current=before.current, round=before.round)
            return noted(self.tables, "MUN-END-01", over, ("phase",))
        return after

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
        """Every broken invariant of ``state`` (see invariants.py): the families and the
        institutions counted before are not counted again, the same answer as
        ``invariants.invariant_failures`` without a memo."""
        return invariant_failures(self.tables, state, self._memo)

    def position_failures(self, state: State) -> list[str]:
        """Why a hand-written position could not arise in play: a map that does not name
        every institution or citizen kind (checked first: the rules and the invariants look
        them up), then the invariants, and every field refilled while its supply lasts (see
        invariants.field_refill_failures)."""
        return invariants.shape_failures(self.tables, state) or (
            invariant_failures(self.tables, state) + field_refill_failures(self.tables, state)
        )
