"""The toy rule set on the shared shell: what a game supplies, and nothing else."""

from __future__ import annotations

from pathlib import Path

from reference.core.datafile import DataSet
from reference.core.game import Event, Result
from reference.core.ruleset import Handler, RuleSet
from toygame import legal, rules_setup, rules_turn
from toygame.events import EVENT_TYPES, Advance, Bank, Roll
from toygame.options import Options
from toygame.state import State
from toygame.tables import Tables, read_tables

PACKAGE_DIR = Path(__file__).parent

HANDLERS: dict[type[Event], Handler[Tables, State]] = {
    Roll: rules_turn.roll,
    Advance: rules_turn.advance,
    Bank: rules_turn.bank,
}

EVENT_RULES: dict[type, str] = {Roll: "TOY-ROLL-01", Advance: "TOY-MOVE-01", Bank: "TOY-TURN-01"}
"""The rule each event's changes are put down to when a divergence is explained."""


class ToyGame(RuleSet[Options, Tables, State, Event]):
    name = "toy"
    turn_rule = "TOY-TURN-01"
    package_dir = PACKAGE_DIR
    min_players = 2
    max_players = 4
    options_type = Options
    event_types = EVENT_TYPES
    state_type = State
    handlers = HANDLERS
    event_rules = EVENT_RULES
    legal_rules = legal
    setup_rules = rules_setup

    def read_tables(self, data: DataSet, options: Options) -> Tables:
        return read_tables(data)

    def is_over(self, state: State) -> bool:
        return any(p.position >= self.options.goal for p in state.players.values())

    def result(self, state: State) -> Result:
        scores = {n: p.coins for n, p in state.players.items()}
        best = max(scores.values())
        return Result(scores, tuple(n for n, s in scores.items() if s == best))

    def invariant_failures(self, state: State) -> list[str]:
        bad = [f"{n} has negative coins" for n, p in state.players.items() if p.coins < 0]
        if tuple(state.players) != state.order:
            bad.append("players and seat order differ")
        return bad
