"""Every game stands in the one shell and has the same shape (docs/engine-contract.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference.core.errors import MalformedEvent, RuleViolation
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
