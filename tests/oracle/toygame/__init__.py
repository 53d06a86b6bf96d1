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

from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import CHANCE, Result, check_actor
from reference.core.options import load_rules_and_data, read_options


@attrs.frozen
class Options:
    goal: int = 10


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


class ToyGame:
    name = "toy"
    min_players = 2
    max_players = 4
    event_types: tuple[type[Any], ...] = (Roll, Advance, Bank)
    state_type = State

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options, profile = read_options(options, Options)
        self.catalogue, self.data = load_rules_and_data(Path(__file__).parent, profile)
        faces = self.data.value("dice.faces")
        if not isinstance(faces, list) or not all(isinstance(f, int) and f > 0 for f in faces):
            raise BadOptions("dice.faces must be a list of positive whole numbers")
        self.faces: tuple[int, ...] = tuple(faces)

    def new_game(self, players: Sequence[str]) -> State:
        return State({p: PlayerState() for p in players}, tuple(players))

    def current(self, state: State) -> str:
        return state.order[state.turn % len(state.order)]

    def to_act(self, state: State) -> str:
        return CHANCE if state.roll is None else self.current(state)

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        return [(Roll(f), 1 / len(self.faces)) for f in sorted(set(self.faces))]

    def legal_events(self, state: State) -> list[Any]:
        if state.roll is None:
            return [e for e, _ in self.chance_outcomes(state)]
        who = self.current(state)
        return [Advance(who, state.roll), Bank(who)]

    def apply(self, state: State, event: Any) -> State:
        check_actor(self, state, event, "TOY-TURN-01")
        if isinstance(event, Roll):
            # TOY-ROLL-01: a roll shows one of the die's faces.
            if event.value not in self.faces:
                raise RuleViolation("TOY-ROLL-01", f"the die has no face {event.value}")
            return attrs.evolve(state, roll=event.value)
        who = self.current(state)
        me = state.players[who]
        if isinstance(event, Advance):
            # TOY-MOVE-01: a player advances exactly the number rolled.
            if event.steps != state.roll:
                raise RuleViolation("TOY-MOVE-01", f"rolled {state.roll}, not {event.steps}")
            me = attrs.evolve(me, position=me.position + event.steps)
        elif isinstance(event, Bank):
            me = attrs.evolve(me, coins=me.coins + 1)
        else:
            raise MalformedEvent(f"not a toy event: {event!r}")
        players = {**state.players, who: me}
        return attrs.evolve(state, players=players, turn=state.turn + 1, roll=None)

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
