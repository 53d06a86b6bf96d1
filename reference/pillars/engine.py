"""The Pillars of the Earth rule set: the ``Game`` the oracle talks to."""

from __future__ import annotations

from collections.abc import Mapping
from copy import copy as clone
from pathlib import Path
from typing import Any

import attrs

from reference.core.datafile import DataSet
from reference.core.errors import RuleViolation
from reference.core.game import Event, Result
from reference.core.ruleset import Handler, RuleSet
from reference.core.trace import Recorder
from reference.pillars import events as ev
from reference.pillars import fields, legal, rounds, rules_actions, rules_cards
from reference.pillars.flow import Ctx, make_ctx, over_own_limit
from reference.pillars.invariants import InvariantChecker, invariant_failures, unknown_cards
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


class Pillars(RuleSet[PillarsOptions, Ctx, State, Event]):
    """The Pillars of the Earth base game for 2-4 players, configured by options and data.

    ``tables`` is the rule set in force (``Ctx``: the data tables ``t``, the options ``o``
    and the board's spaces), what every handler gets first.
    """

    name = "pillars"
    turn_rule = "PIL-TURN-01"
    package_dir = PACKAGE_DIR
    min_players = 2
    max_players = 4
    options_type = PillarsOptions
    event_types: tuple[type[Event], ...] = ev.EVENT_TYPES
    state_type = State
    handlers = HANDLERS
    event_rules = EVENT_RULES
    legal_rules = legal
    setup_rules = rounds
    check_fields = staticmethod(fields.check_fields)
    """An unknown resource is malformed: read before any rule."""

    def __init__(self, options: Mapping[str, Any], full_checks: bool | None = None) -> None:
        super().__init__(options, full_checks)
        self._invariants = InvariantChecker(self.tables.t)
        """The invariant counts with their memo, for this rule set only."""

    def read_tables(self, data: DataSet, options: PillarsOptions) -> Ctx:
        """The typed tables (PIL data keys) with the options and the board's spaces."""
        return make_ctx(read_tables(data), options)

    def recording(self, recorder: Recorder) -> Pillars:
        """A copy whose trace points note into ``recorder`` (explaining a divergence)."""
        copy: Pillars = clone(self)
        copy.tables = attrs.evolve(self.tables, recorder=recorder)
        return copy

    def pending(self, state: State) -> tuple[str, ...]:
        """Every player whose decision is due (independent decisions: any order)."""
        return legal.pending(self.tables, state, self.to_act(state))

    def why_to_act(self, state: State, player: str) -> str:
        """Why ``player`` is asked now, with the rule id."""
        return legal.why_to_act(self.tables, state, player)

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
        """Every broken invariant of ``state``: in full with ``full_checks`` and when the
        round or phase changes, else counting again only what changed since the last
        check (``InvariantChecker``)."""
        return self._invariants(state, self.full_checks)

    def position_failures(self, state: State) -> list[str]:
        """Why a hand-written position could not arise in play: a card id that names no
        card (checked first: the invariants look cards up), then the invariants."""
        return unknown_cards(self.tables, state) or invariant_failures(self.tables, state)
