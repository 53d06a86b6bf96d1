"""The toy's handlers, one per event class, each ``(tables, state, event) -> state``."""

from __future__ import annotations

import attrs

from reference.core.errors import RuleViolation
from reference.core.state import with_player
from toygame.events import Advance, Bank, Roll
from toygame.state import PlayerState, State
from toygame.tables import Tables


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
    return with_player(state, current(state), me, turn=state.turn + 1, roll=None)
