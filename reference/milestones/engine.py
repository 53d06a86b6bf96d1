"""The Milestones rule set: the `Game` protocol over the handlers of the rules modules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reference.core.aliases import Term
from reference.core.datafile import DataSet
from reference.core.game import Event, Result
from reference.core.ruleset import Handler, RuleSet
from reference.milestones import events as ev
from reference.milestones import legal, rules_building, rules_setup, rules_trading, rules_turn
from reference.milestones.invariants import InvariantChecker
from reference.milestones.names import DRAFT, GAME, GOODS, KINDS, LOOP, OVER, PIECES, TURNS
from reference.milestones.options import MilestonesOptions
from reference.milestones.state import State
from reference.milestones.tables import Tables, read_tables

HANDLERS: dict[type[Event], Handler[Tables, State]] = {
    ev.RevealBonusTile: rules_setup.reveal_bonus_tile,
    ev.DrawWorkerTile: rules_setup.draw_worker_tile,
    ev.DraftWorkerTile: rules_setup.draft_worker_tile,
    ev.Move: rules_turn.move,
    ev.ReturnToSupply: rules_turn.return_to_supply,
    ev.CoverWorker: rules_turn.cover_worker,
    ev.EndTurn: rules_turn.end_turn,
    ev.HireWorkerTile: rules_trading.hire_worker_tile,
    ev.BuyGood: rules_trading.buy_good,
    ev.SellGoods: rules_trading.sell_goods,
    ev.BuildRoad: rules_building.build_road,
    ev.BuildHouse: rules_building.build_house,
    ev.BuildMarketplace: rules_building.build_marketplace,
    ev.DeliverFlour: rules_building.deliver_flour,
    ev.ClaimBonus: rules_building.claim_bonus,
}
"""One handler per event class (a contract test checks the two lists match)."""


EVENT_RULES: dict[type, str] = {
    ev.RevealBonusTile: "MIL-SETUP-02",
    ev.DrawWorkerTile: "MIL-SETUP-04",
    ev.DraftWorkerTile: "MIL-SETUP-05",
    ev.Move: "MIL-MOVE-01",
    ev.ReturnToSupply: "MIL-CASTLE-02",
    ev.CoverWorker: "MIL-CASTLE-03",
    ev.EndTurn: "MIL-TURN-02",
    ev.HireWorkerTile: "MIL-TRADE-02",
    ev.BuyGood: "MIL-TRADE-05",
    ev.SellGoods: "MIL-TRADE-06",
    ev.BuildRoad: "MIL-ROAD-05",
    ev.BuildHouse: "MIL-HOUSE-03",
    ev.BuildMarketplace: "MIL-MARKET-02",
    ev.DeliverFlour: "MIL-MILL-03",
    ev.ClaimBonus: "MIL-BONUS-03",
}
"""The rule of each event class: what its changes are put down to when no trace point says
more (the rules' own trace points credit a move's production to MIL-PROD-01, a road's
points to MIL-ROAD-05, ...), and the rule under which it is legal."""


SETUP_MADE: dict[str, tuple[str, ...]] = {
    "MIL-SETUP-01": ("board.marketplaces", "supply.marketplaces"),
    "MIL-SETUP-03": ("players.*.position", "players.*.vp", "players.*.coins", "supply.coin"),
    "MIL-COMP-02": ("supply.stone", "supply.sand", "supply.wood", "supply.grain"),
    "MIL-BUILD-02": tuple(f"supply.{piece}" for piece in PIECES),
    "MIL-COMP-03": ("bonus_pool", "draw_pile"),
}
"""Which setup rule makes which values (explanations; the rest is the game's bookkeeping,
or empty until the setup's chance events fill it)."""


class MilestonesGame(RuleSet[MilestonesOptions, Tables, State, Event]):
    """Milestones for 2 to 4 players, configured by options and data tables.

    >>> game = MilestonesGame({})
    >>> state = game.new_game(("red", "blue"))
    >>> game.to_act(state)
    'chance'
    """

    name = GAME
    turn_rule = "MIL-TURN-01"
    package_dir = Path(__file__).parent
    min_players = 2
    max_players = 4
    options_type = MilestonesOptions
    event_types: tuple[type[Event], ...] = ev.EVENT_TYPES
    state_type = State
    handlers = HANDLERS
    event_rules = EVENT_RULES
    result_rule = "MIL-END-05"
    setup_made = SETUP_MADE
    legal_rules = legal
    setup_rules = rules_setup

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        self._invariants = InvariantChecker(self.tables)
        """The invariant counts with their worker-tile shortcut, for this rule set only."""

    def why_to_act(self, state: State, player: str) -> str:
        """Why ``player`` is asked now, with the rule id (what a MIL-TURN-01 verdict adds)."""
        if state.phase == DRAFT:
            return f"{player} drafts: the last seat first, then anticlockwise (MIL-SETUP-05)"
        if state.returns_due or state.cover_due:
            return f"{player} landed on the Castle and owes its tax first (MIL-CASTLE-04)"
        if state.pending_bonus:
            return f"{player} earned a bonus tile and claims it at once (MIL-BONUS-04)"
        return f"it is {player}'s turn: two moves, then the end of the turn (MIL-TURN-02)"

    def vocabulary(self) -> tuple[Term, ...]:
        """The event types, worker kinds, goods, player-board spaces, pieces and worker
        tiles by their ids."""
        t = self.tables
        return (
            *super().vocabulary(),
            *(Term(kind, "worker kind", "tiles.worker_tiles") for kind in KINDS),
            *(Term(good, "good (cube)", "supply.cubes_per_good") for good in GOODS),
            Term("coin", "coin", "supply.coins"),
            *(Term(space, "player-board space") for space in LOOP),
            *(Term(piece, "piece of the general supply", f"supply.{piece}") for piece in PIECES),
            *(Term(tile, "worker tile", "tiles.worker_tiles") for tile in t.worker_tiles),
        )

    def owes(self, state: State, player: str) -> str:
        """What the player on turn must settle before anything else: the Castle tax
        (MIL-CASTLE-04) or an earned bonus tile (MIL-BONUS-04)."""
        if player != state.current or state.phase != TURNS:
            return ""
        if state.returns_due:
            return (
                f"the Castle tax: {state.returns_due} goods or coins to give back "
                f"(MIL-CASTLE-02, MIL-CASTLE-04)"
            )
        if state.cover_due:
            return "the Castle tax: a worker to cover (MIL-CASTLE-03, MIL-CASTLE-04)"
        if state.pending_bonus:
            count = len(state.pending_bonus)
            return f"{count} earned bonus tile{'s' if count > 1 else ''} to claim (MIL-BONUS-04)"
        return ""

    def read_tables(self, data: DataSet, options: MilestonesOptions) -> Tables:
        """The typed tables (MIL data keys)."""
        return read_tables(data)

    def is_over(self, state: State) -> bool:
        """Whether the final scoring is done."""
        return state.phase == OVER

    def result(self, state: State) -> Result:
        """Final points and the winners after the tie-break option."""
        scores = {name: p.vp for name, p in state.players.items()}
        return Result(scores, rules_turn.winners(state, self.options.tie_break))

    def invariant_failures(self, state: State) -> list[str]:
        """Every broken invariant of the state (see invariants.py: one shortcut, the same
        answer as ``invariants.invariant_failures``)."""
        return self._invariants(state)
