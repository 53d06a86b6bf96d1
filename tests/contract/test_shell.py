"""Every game stands in the one shell and has the same shape (docs/engine-contract.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

from reference.core.errors import MalformedEvent, RuleViolation
from reference.core.game import CHANCE, check_actor, step
from reference.core.ruleset import GAME_OVER_MESSAGE, RuleSet, missing_handlers
from reference.registry import game_names, make_game

SAME_FILES = {
    "__init__.py",
    "engine.py",
    "state.py",
    "events.py",
    "tables.py",
    "legal.py",
    "invariants.py",
    "options.py",
}


@pytest.mark.parametrize("name", game_names())
def test_every_game_is_a_rule_set_with_a_complete_dispatch(name: str) -> None:
    game = make_game(name, {})
    assert isinstance(game, RuleSet)
    assert missing_handlers(game) == []
    assert game.catalogue.get(game.turn_rule) is not None, game.turn_rule
    assert game.turn_rule.endswith("-TURN-01")


@pytest.mark.parametrize("name", game_names())
def test_every_game_package_has_the_same_files(name: str) -> None:
    package = Path(make_game(name, {}).package_dir)
    files = {p.name for p in package.glob("*.py")}
    assert files >= SAME_FILES, sorted(SAME_FILES - files)
    assert any(f.startswith("rules_") for f in files)


@pytest.mark.parametrize("name", game_names())
def test_unknown_events_and_the_end_say_the_same_in_every_game(name: str) -> None:
    game = make_game(name, {})
    state = game.new_game(("red", "blue") if game.max_players > 1 else ("red",))
    with pytest.raises(MalformedEvent, match=f"not a {name} event: object \\(known types: "):
        game.apply(state, object())
    over = state
    for _ in range(200_000):
        if game.is_over(over):
            break
        over = game.apply(over, game.legal_events(over)[0])
    with pytest.raises(RuleViolation, match=GAME_OVER_MESSAGE) as caught:
        game.apply(over, game.legal_events(state)[0])
    assert caught.value.rule_id == "CORE-END-01"


def _played(game: RuleSet[Any, Any, Any, Any], events: int) -> list[Any]:
    """The first ``events`` states of the first-listed-event play-out, setup first."""
    state = game.new_game(("red", "blue") if game.max_players > 1 else ("red",))
    states = [state]
    while len(states) < events and not game.is_over(state):
        state = step(game, state, game.legal_events(state)[0])
        states.append(state)
    return states


@pytest.mark.parametrize("name", game_names())
def test_step_refuses_every_event_after_the_end_with_its_own_message(name: str) -> None:
    """step asks the end once (then ``apply_not_over``): an event after the end is still
    CORE-END-01 with step's message, asked before the event type (an unknown object too)."""
    game = make_game(name, {})
    state = game.new_game(("red", "blue") if game.max_players > 1 else ("red",))
    first = game.legal_events(state)[0]
    over = state
    for _ in range(200_000):
        if game.is_over(over):
            break
        over = step(game, over, game.legal_events(over)[0])
    assert game.is_over(over)
    for event in (first, object()):
        with pytest.raises(RuleViolation, match="the game is already over") as caught:
            step(game, over, event)
        assert caught.value.rule_id == "CORE-END-01"


@pytest.mark.parametrize("name", game_names())
def test_no_game_replaces_apply_so_step_judges_what_apply_judges(name: str) -> None:
    """step calls ``apply_not_over``, which is the shell's ``apply`` but the end: a game that
    replaced ``apply`` (adding a check there) would be judged without it by step."""
    game = make_game(name, {})
    assert type(game).apply is RuleSet.apply
    assert type(game).apply_not_over is RuleSet.apply_not_over


@pytest.mark.parametrize("name", game_names())
def test_the_turn_rule_shortcut_accepts_exactly_what_check_actor_accepts(name: str) -> None:
    """check_turn judges from the turn facts it worked out once for the state: at each
    state of a play-out, every seat's event and a chance outcome get the verdict
    check_actor gives when it asks to_act itself (accepted, or refused by the turn rule
    with its message, then why the player to act is asked and why the refused one is
    not)."""
    game = make_game(name, {})
    states = _played(game, 400)
    chance = next(game.legal_events(s)[0] for s in states if game.to_act(s) == CHANCE)
    own = next(game.legal_events(s)[0] for s in states if game.to_act(s) != CHANCE)
    seats = tuple(getattr(states[0], "players", {}))
    assert seats, "the state names its players"
    fresh = make_game(name, {})  # a second rule set: its own memo of the turn facts
    accepted = refused = 0
    for state in states:
        for event in (chance, *(attrs.evolve(own, player=seat) for seat in seats)):
            actor = fresh.to_act(state)
            expected: tuple[str, str] | None = None
            try:
                check_actor(fresh, state, event, fresh.turn_rule, fresh.pending(state))
            except RuleViolation as exc:
                why = fresh.why_to_act(state, actor) if actor != CHANCE else ""
                said = f"{exc.message}: {why}" if why else exc.message
                why_not = fresh.why_not(state, event) if getattr(event, "player", None) else ""
                expected = (exc.rule_id, f"{said}; {why_not}" if why_not else said)
            got: tuple[str, str] | None = None
            try:
                game.check_turn(state, event)
            except RuleViolation as exc:
                got = (exc.rule_id, exc.message)
            assert got == expected, (state, event)
            accepted += got is None
            refused += got is not None
    assert accepted and refused


@pytest.mark.parametrize("name", game_names())
def test_the_player_to_act_is_the_first_pending_player(name: str) -> None:
    """The turn rule lets the player to act through without working out the pending
    players (``from_the_one_asked``): sound only if ``to_act`` is always the first of them,
    as ``RuleSet.pending`` promises. Checked at each state of a play-out."""
    game = make_game(name, {})
    for state in _played(game, 400):
        actor = game.to_act(state)
        if actor != CHANCE:
            assert game.pending(state)[0] == actor, state
