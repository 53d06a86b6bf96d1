"""Who acts next, every legal event, and the chance outcomes of a roll."""

from __future__ import annotations

from reference.core.game import CHANCE, Event
from toygame.events import Advance, Bank, Roll
from toygame.rules_turn import current
from toygame.state import State
from toygame.tables import Tables


def to_act(t: Tables, state: State) -> str:
    return CHANCE if state.roll is None else current(state)


def chance_outcomes(t: Tables, state: State) -> list[tuple[Event, float]]:
    if state.roll is not None:
        return []
    return [(Roll(f), 1 / len(t.faces)) for f in sorted(set(t.faces))]


def legal_events(t: Tables, state: State) -> list[Event]:
    if state.roll is None:
        return [e for e, _ in chance_outcomes(t, state)]
    who = current(state)
    return [Advance(who, state.roll), Bank(who)]
