"""The Pillars of the Earth rule set: the ``Game`` the oracle talks to."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from reference.core.catalogue import Catalogue
from reference.core.datafile import DataSet
from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import Result, check_actor, player_names_ok
from reference.pillars import events as ev
from reference.pillars import legal, rounds, rules_actions, rules_cards
from reference.pillars.flow import Ctx, over_limit
from reference.pillars.invariants import invariant_failures
from reference.pillars.options import PillarsOptions
from reference.pillars.state import State

PACKAGE_DIR = Path(__file__).parent

Handler = Callable[[Ctx, State, Any], State]

HANDLERS: dict[type[Any], Handler] = {
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
"""Every event class and its handler (a test checks the dispatch is complete)."""


class Pillars:
    """The Pillars of the Earth base game for 2-4 players, configured by options and data."""

    name = "pillars"
    min_players = 2
    max_players = 4
    event_types: tuple[type[Any], ...] = ev.EVENT_TYPES
    state_type: type[Any] = State

    def __init__(
        self, options: PillarsOptions, catalogue: Catalogue, data: DataSet, ctx: Ctx
    ) -> None:
        self.options = options
        self.catalogue = catalogue
        self.data = data
        self.ctx = ctx

    def new_game(self, players: Sequence[str]) -> State:
        """The standard setup, seat order = ``players``, the first player starts.

        >>> from reference.pillars import make
        >>> make({}).new_game(["red", "blue"]).players["blue"].gold
        21
        """
        problem = player_names_ok(players, self.min_players, self.max_players)
        if problem:
            raise BadOptions(problem)
        return rounds.new_game(self.ctx, players)

    def to_act(self, state: State) -> str:
        """The player to decide next, or CHANCE."""
        return legal.to_act(self.ctx, state)

    def legal_events(self, state: State) -> list[Any]:
        """Every legal event here, in a stable order."""
        return legal.legal_events(self.ctx, state)

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        """Each chance outcome with its probability."""
        return legal.chance_outcomes(self.ctx, state)

    def apply(self, state: State, event: Any) -> State:
        """The state after ``event``.

        Raises:
            MalformedEvent: not a Pillars event.
            RuleViolation: the event breaks a rule here (with its catalogue id).
        """
        handler = HANDLERS.get(type(event))
        if handler is None:
            known = ", ".join(t.type for t in self.event_types)
            raise MalformedEvent(f"not a pillars event: {event!r} (known types: {known})")
        # CORE-END-01: once the game has ended (PIL-ROUND-06) no event is accepted.
        if state.phase == "over":
            raise RuleViolation("CORE-END-01", "the game is over after the last round")
        # PIL-TURN-01: only the player to act (or chance, for a chance outcome) may act.
        check_actor(self, state, event, "PIL-TURN-01")
        # PIL-CRAFT-01: a player over the craftsman limit discards before anything else;
        # to_act names them whatever the stage, so nothing but the discard is accepted.
        over = over_limit(self.ctx, state)
        if over is not None and not isinstance(event, ev.DiscardCraftsman):
            raise RuleViolation(
                "PIL-CRAFT-01", f"{over} holds more craftsmen than allowed and must discard first"
            )
        return handler(self.ctx, state, event)

    def is_over(self, state: State) -> bool:
        """Whether the last round has ended."""
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
        """Every broken invariant of ``state``."""
        return invariant_failures(self.ctx, state)
