"""A tiny dice race used only to test the oracle machinery apart from the real games.

Each turn: chance rolls a die (faces from data), then the player either advances by the
roll or banks one coin. The first player to reach the goal ends the game; most coins wins
ties broken by position... kept deliberately small.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs

from reference.core.datafile import DataSet
from reference.core.errors import BadOptions, RuleViolation
from reference.core.game import CHANCE, Event, Result
from reference.core.ruleset import Handler, RuleSet


@attrs.frozen
class Options:
    goal: int = 10


@attrs.frozen
class Tables:
    faces: tuple[int, ...]


def read_tables(data: DataSet) -> Tables:
    faces = data.value("dice.faces")
    if not isinstance(faces, list) or not all(isinstance(f, int) and f > 0 for f in faces):
        raise BadOptions("dice.faces must be a list of positive whole numbers")
    return Tables(tuple(faces))


@attrs.frozen
class PlayerState:
    position: int = 0
    coins: int = 0


@attrs.frozen
class State:
    players: dict[str, PlayerState]
    order: tuple[str, ...]
    turn: int = 0
    roll: int | None = None


@attrs.frozen
class Roll:
    type: ClassVar[str] = "roll"
    value: int


@attrs.frozen
class Advance:
    type: ClassVar[str] = "advance"
    player: str
    steps: int


@attrs.frozen
class Bank:
    type: ClassVar[str] = "bank"
    player: str


def current(state: State) -> str:
    return state.order[state.turn % len(state.order)]


def roll(t: Tables, state: State, event: Roll) -> State:
    # TOY-ROLL-01: a roll shows one of the die's faces.
    if event.value not in t.faces:
        raise RuleViolation("TOY-ROLL-01", f"the die has no face {event.value}")
    return attrs.evolve(state, roll=event.value)


def advance(t: Tables, state: State, event: Advance) -> State:
    # TOY-MOVE-01: a player advances exactly the number rolled.
    if event.steps != state.roll:
        raise RuleViolation("TOY-MOVE-01", f"rolled {state.roll}, not {event.steps}")
    me = state.players[event.player]
    return end_turn(state, attrs.evolve(me, position=me.position + event.steps))


def bank(t: Tables, state: State, event: Bank) -> State:
    me = state.players[event.player]
    return end_turn(state, attrs.evolve(me, coins=me.coins + 1))


def end_turn(state: State, me: PlayerState) -> State:
    players = {**state.players, current(state): me}
    return attrs.evolve(state, players=players, turn=state.turn + 1, roll=None)


HANDLERS: dict[type[Event], Handler[Tables, State]] = {Roll: roll, Advance: advance, Bank: bank}


class ToyGame(RuleSet[Options, Tables, State, Event]):
    name = "toy"
    turn_rule = "TOY-TURN-01"
    package_dir = Path(__file__).parent
    min_players = 2
    max_players = 4
    options_type = Options
    event_types: tuple[type[Event], ...] = (Roll, Advance, Bank)
    state_type = State
    handlers = HANDLERS

    def read_tables(self, data: DataSet, options: Options) -> Tables:
        return read_tables(data)

    def setup(self, players: Sequence[str]) -> State:
        return State({p: PlayerState() for p in players}, tuple(players))

    def to_act(self, state: State) -> str:
        return CHANCE if state.roll is None else current(state)

    def chance_outcomes(self, state: State) -> list[tuple[Event, float]]:
        faces = self.tables.faces
        return [(Roll(f), 1 / len(faces)) for f in sorted(set(faces))]

    def legal_events(self, state: State) -> list[Event]:
        if state.roll is None:
            return [e for e, _ in self.chance_outcomes(state)]
        who = current(state)
        return [Advance(who, state.roll), Bank(who)]

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


def make(options: Mapping[str, Any]) -> ToyGame:
    return ToyGame(options)
