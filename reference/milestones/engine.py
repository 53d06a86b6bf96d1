"""The Milestones rule set: the `Game` protocol over the handlers of the rules modules."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from reference.core.catalogue import Catalogue
from reference.core.datafile import DataSet
from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import CHANCE, Result, check_actor, player_names_ok
from reference.core.options import load_rules_and_data, read_options
from reference.milestones import legal, rules_building, rules_setup, rules_trading, rules_turn
from reference.milestones.events import (
    EVENT_TYPES,
    BuildHouse,
    BuildMarketplace,
    BuildRoad,
    BuyGood,
    ClaimBonus,
    CoverWorker,
    DeliverFlour,
    DraftWorkerTile,
    DrawWorkerTile,
    EndTurn,
    HireWorkerTile,
    Move,
    ReturnToSupply,
    RevealBonusTile,
    SellGoods,
)
from reference.milestones.invariants import InvariantChecker
from reference.milestones.names import GAME, OVER, SETUP
from reference.milestones.options import MilestonesOptions
from reference.milestones.state import State
from reference.milestones.tables import Tables, read_tables

Handler = Callable[[Tables, State, Any], State]

HANDLERS: dict[type, Handler] = {
    RevealBonusTile: rules_setup.reveal_bonus_tile,
    DrawWorkerTile: rules_setup.draw_worker_tile,
    DraftWorkerTile: rules_setup.draft_worker_tile,
    Move: rules_turn.move,
    ReturnToSupply: rules_turn.return_to_supply,
    CoverWorker: rules_turn.cover_worker,
    EndTurn: rules_turn.end_turn,
    HireWorkerTile: rules_trading.hire_worker_tile,
    BuyGood: rules_trading.buy_good,
    SellGoods: rules_trading.sell_goods,
    BuildRoad: rules_building.build_road,
    BuildHouse: rules_building.build_house,
    BuildMarketplace: rules_building.build_marketplace,
    DeliverFlour: rules_building.deliver_flour,
    ClaimBonus: rules_building.claim_bonus,
}
"""One handler per event class (a test checks the two lists match)."""

PACKAGE_DIR = Path(__file__).parent


class MilestonesGame:
    """Milestones for 2 to 4 players, configured by options and data tables.

    >>> game = MilestonesGame({})
    >>> state = game.new_game(("red", "blue"))
    >>> game.to_act(state)
    'chance'
    """

    name = GAME
    min_players = 2
    max_players = 4
    event_types: tuple[type[Any], ...] = EVENT_TYPES
    state_type: type[Any] = State

    def __init__(self, options: dict[str, Any]) -> None:
        self.options, profile = read_options(options, MilestonesOptions)
        catalogue, data = load_rules_and_data(PACKAGE_DIR, profile)
        self.catalogue: Catalogue = catalogue
        self.data: DataSet = data
        self.tables: Tables = read_tables(data)
        self._invariants = InvariantChecker(self.tables)

    def new_game(self, players: Sequence[str]) -> State:
        """The standard setup for these player names in seat order (start player first)."""
        problem = player_names_ok(players, self.min_players, self.max_players)
        if problem:
            raise BadOptions(problem)
        return rules_setup.new_game(self.tables, players)

    def to_act(self, state: State) -> str:
        """The player to act, CHANCE for a reveal or draw, or "" when the game is over."""
        if state.phase == OVER:
            return ""
        if state.phase == SETUP or state.refill_due:
            return CHANCE
        return state.current

    def legal_events(self, state: State) -> list[Any]:
        """Every legal event here, in a stable order."""
        if state.phase == OVER:
            return []
        if self.to_act(state) == CHANCE:
            return [event for event, _ in legal.chance_outcomes(self.tables, state)]
        return legal.player_events(self.tables, state)

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        """Each chance outcome with its probability."""
        if self.to_act(state) != CHANCE:
            return []
        return legal.chance_outcomes(self.tables, state)

    def apply(self, state: State, event: Any) -> State:
        """The state after `event`.

        Raises:
            MalformedEvent: the event is not a Milestones event.
            RuleViolation: the event breaks a rule (its id names the rule).
        """
        handler = HANDLERS.get(type(event))
        if handler is None:
            known = ", ".join(str(getattr(cls, "type", cls.__name__)) for cls in EVENT_TYPES)
            raise MalformedEvent(f"not a Milestones event: {event!r} (known types: {known})")
        # CORE-END-01: nothing happens after the final scoring.
        if state.phase == OVER:
            raise RuleViolation("CORE-END-01", "the game is over")
        check_actor(self, state, event, "MIL-TURN-01")
        player = getattr(event, "player", None)
        if player is not None and player not in state.players:
            raise RuleViolation("MIL-TURN-01", f"{player} does not play in this game")
        return handler(self.tables, state, event)

    def is_over(self, state: State) -> bool:
        """Whether the final scoring is done."""
        return state.phase == OVER

    def result(self, state: State) -> Result:
        """Final points and the winners after the tie-break option."""
        scores = {name: p.vp for name, p in state.players.items()}
        return Result(scores, rules_turn.winners(state, self.options.tie_break))

    def invariant_failures(self, state: State) -> list[str]:
        """Every broken invariant of the state."""
        return self._invariants(state)
