"""The Pillars of the Earth rule set: the ``Game`` the oracle talks to."""

from __future__ import annotations

from pathlib import Path

from reference.core.aliases import Term
from reference.core.datafile import DataSet
from reference.core.errors import RuleViolation
from reference.core.game import Event, Result
from reference.core.ruleset import Handler, RuleSet
from reference.pillars import asking, fields, legal, rounds, rules_actions, rules_cards, vocabulary
from reference.pillars import events as ev
from reference.pillars.flow import Ctx, make_ctx, over_own_limit
from reference.pillars.invariants import invariant_failures, unknown_cards, unknown_players
from reference.pillars.options import PillarsOptions
from reference.pillars.state import State
from reference.pillars.tables import read_tables

PACKAGE_DIR = Path(__file__).parent

HANDLERS: dict[type[Event], Handler[Ctx, State]] = {
    ev.RevealAdvantages: rules_cards.reveal_advantages,
    ev.RevealCraftsmen: rules_cards.reveal_craftsmen,
    ev.RevealResourceCards: rules_cards.reveal_resource_cards,
    ev.DrawMasterBuilder: rules_cards.draw_master_builder,
    ev.RevealEvent: rules_actions.reveal_event,
    ev.RollTax: rules_actions.roll_tax,
    ev.TakeResourceCard: rules_cards.take_resource_card,
    ev.TakeCraftsman: rules_cards.take_craftsman,
    ev.PassCards: rules_cards.pass_cards,
    ev.DiscardCraftsman: rules_actions.discard_craftsman,
    ev.PlaceMasterBuilder: rules_cards.place_master_builder,
    ev.PassMasterBuilder: rules_cards.pass_master_builder,
    ev.ReviewDrawnBuilder: rules_cards.review_drawn_builder,
    ev.PlayAdvantage: rules_actions.play_advantage,
    ev.ChooseArchbishopCraftsman: rules_actions.choose_archbishop_craftsman,
    ev.TakeBishopResource: rules_actions.take_bishop_resource,
    ev.BuyResources: rules_actions.buy_resources,
    ev.SellResources: rules_actions.sell_resources,
    ev.PassMarket: rules_actions.pass_market,
    ev.UseCraftsman: rules_actions.use_craftsman,
    ev.EndCathedral: rules_actions.end_cathedral,
    ev.ReturnResources: rules_actions.return_resources,
}
"""One handler per event class (a contract test checks the two lists match)."""

EVENT_RULES: dict[type, str] = {
    ev.RevealAdvantages: "PIL-ROUND-01",
    ev.RevealCraftsmen: "PIL-ROUND-02",
    ev.RevealResourceCards: "PIL-ROUND-03",
    ev.DrawMasterBuilder: "PIL-BUILD-01",
    ev.RevealEvent: "PIL-EVENT-01",
    ev.RollTax: "PIL-TAX-01",
    ev.TakeResourceCard: "PIL-CARDS-03",
    ev.TakeCraftsman: "PIL-CARDS-04",
    ev.PassCards: "PIL-CARDS-05",
    ev.DiscardCraftsman: "PIL-CRAFT-02",
    ev.PlaceMasterBuilder: "PIL-BUILD-02",
    ev.PassMasterBuilder: "PIL-BUILD-05",
    ev.ReviewDrawnBuilder: "PIL-BUILD-08",
    ev.PlayAdvantage: "PIL-ADV-08",
    ev.ChooseArchbishopCraftsman: "PIL-EVENT-04",
    ev.TakeBishopResource: "PIL-BISHOP-01",
    ev.BuyResources: "PIL-MARKET-02",
    ev.SellResources: "PIL-MARKET-03",
    ev.PassMarket: "PIL-MARKET-01",
    ev.UseCraftsman: "PIL-CATH-01",
    ev.EndCathedral: "PIL-CATH-06",
    ev.ReturnResources: "PIL-CATH-06",
}
"""The rule each event's own work rests on (the steps it sets off note their own rules)."""


SETUP_MADE: dict[str, tuple[str, ...]] = {
    "PIL-SETUP-01": ("players.*.gold", "players.*.vp", "start_player", "seats"),
    "PIL-SETUP-02": ("players.*.craftsmen",),
    "PIL-SETUP-03": ("players.*.workers", "players.*.grey_workers"),
    "PIL-SETUP-04": ("players.*.master_builders", "players.*.builders_next_round"),
    "PIL-SETUP-05": ("market", "kings_court_metal", "castle_workers", "cost"),
    "PIL-SETUP-06": ("advantage_deck", "events_unseen", "craftsman_deck"),
    "PIL-SETUP-07": ("supply",),
}
"""Which setup rule makes which values (explanations; the rest is the game's bookkeeping:
round, phase, stage, empty piles)."""


class Pillars(RuleSet[PillarsOptions, Ctx, State, Event]):
    """The Pillars of the Earth base game for 2-4 players, configured by options and data.

    ``tables`` is the rule set in force (``Ctx``: the data tables ``t``, the options ``o``
    and the board's spaces), what every handler gets first.
    """

    name = "pillars"
    turn_rule = "PIL-TURN-01"
    step_rule = "PIL-TURN-02"
    package_dir = PACKAGE_DIR
    min_players = 2
    max_players = 4
    options_type = PillarsOptions
    event_types: tuple[type[Event], ...] = ev.EVENT_TYPES
    state_type = State
    handlers = HANDLERS
    event_rules = EVENT_RULES
    result_rule = "PIL-END-01"
    setup_made = SETUP_MADE
    legal_rules = legal
    setup_rules = rounds
    check_fields = staticmethod(fields.check_fields)
    """An unknown resource is malformed: read before any rule."""

    def read_tables(self, data: DataSet, options: PillarsOptions) -> Ctx:
        """The typed tables (PIL data keys) with the options and the board's spaces."""
        return make_ctx(read_tables(data), options)

    def pending(self, state: State) -> tuple[str, ...]:
        """Every player whose decision is due (independent decisions: any order)."""
        return legal.pending(self.tables, state, self.to_act(state))

    def why_to_act(self, state: State, player: str) -> str:
        """Why ``player`` is asked now, with the rule id."""
        return legal.why_to_act(self.tables, state, player)

    def vocabulary(self) -> tuple[Term, ...]:
        """The event types, cards, craftsmen, locations, spaces and resources by their ids."""
        return super().vocabulary() + vocabulary.terms(self.tables)

    def why_not(self, state: State, event: Event) -> str:
        """Why the event's player is not asked for it now, with the rule id."""
        return asking.why_not(self.tables, state, event)

    def owes(self, state: State, player: str) -> str:
        """The craftsman discard ``player`` owes over the limit (PIL-CRAFT-01), if any."""
        return asking.owes(self.tables, state, player)

    def before_event(self, state: State, event: Event) -> None:
        """PIL-CRAFT-01: a player over the craftsman limit discards before anything else;
        to_act names them whatever the stage, so nothing but the discard is accepted: a player
        is over the limit exactly when the player to act is (over_limit's first, in turn
        order)."""
        if isinstance(event, ev.DiscardCraftsman):
            return
        over = self.to_act(state)
        if over_own_limit(self.tables, state, over):
            raise RuleViolation(
                "PIL-CRAFT-01", f"{over} holds more craftsmen than allowed and must discard first"
            )

    def is_over(self, state: State) -> bool:
        """Whether the last round has ended (PIL-ROUND-06)."""
        return state.phase == "over"

    def result(self, state: State) -> Result:
        """PIL-END-01: most VP wins; ties go to the most gold; still tied, a shared win."""
        scores = {n: p.vp for n, p in state.players.items()}
        best = max((p.vp, p.gold) for p in state.players.values())
        winners = tuple(
            n for n in state.seats if (state.players[n].vp, state.players[n].gold) == best
        )
        return Result(scores=scores, winners=winners)

    def invariant_failures(self, state: State) -> list[str]:
        """Every broken invariant of ``state`` (see invariants.py), counted in full."""
        return invariant_failures(self.tables, state)

    def position_failures(self, state: State) -> list[str]:
        """Why a hand-written position could not arise in play: a card id that names no
        card or a name that is no player (checked first: the rules and the invariants look
        them up), then the invariants."""
        return (
            unknown_cards(self.tables, state)
            or unknown_players(state)
            or invariant_failures(self.tables, state)
        )
