"""PAL-TURN-01's shortcut (``PalmyraGame.check_turn`` lets the one asked through at once):
every event, from every player and from chance, in every phase, gets the shell's verdict
and message."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from reference.core.errors import RuleViolation
from reference.core.ruleset import RuleSet
from reference.palmyra.engine import PalmyraGame
from reference.palmyra.events import DrawTile, EndAction, MovePiece, Reorganise
from reference.palmyra.state import PHASES, Draw, State


def verdict(check: Any, state: State, event: Any) -> tuple[str, str] | None:
    """The (rule id, message) a turn check gives, or None when it lets the event through."""
    try:
        check(state, event)
    except RuleViolation as exc:
        return exc.rule_id, exc.message
    return None


@pytest.mark.parametrize("phase", PHASES)
def test_palmyra_turn_shortcut_gives_the_shells_verdicts(phase: str) -> None:
    """Each phase, with a and b seated and a to act (or chance drawing): a's, b's, an
    unknown player's and chance's events get the verdict the shell's turn rule gives."""
    game = PalmyraGame({})
    start = game.new_game(["a", "b"])
    state = attrs.evolve(start, phase=phase, current="a", draws_due=(Draw("b", "large"),))
    events = [
        Reorganise("a", "large"),
        EndAction("a"),
        MovePiece("b", "legion", "centre"),
        EndAction("b"),
        EndAction("zed"),
        DrawTile("L:D"),
    ]
    passed = 0
    for event in events:
        shell = verdict(lambda s, e: RuleSet.check_turn(game, s, e), state, event)
        assert verdict(game.check_turn, state, event) == shell, (phase, event)
        passed += shell is None
    # Exactly one kind of event is let through: chance's while drawing, else a's.
    assert passed == (1 if phase in ("setup", "draw") else 2)
