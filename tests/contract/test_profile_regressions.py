"""Profiles that once crashed set-up, broke an invariant in play or made play run for
minutes: each is now refused with BadOptions when the game is made (exit 2 / malformed).

Every expectation here is the rules' and the data's: a profile naming an unknown effect,
a list where a name belongs, a card in round 0 or a card yielding millions of cubes is the
user's error, said when the game is made, never our crash later.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reference.core.errors import BadOptions
from reference.registry import make_game


def _entry(game: str, key: str) -> Any:
    return make_game(game, {}).data.entries[key].value


def _with_card_field(game: str, key: str, field: str, value: Any) -> dict[str, Any]:
    """The profile replacing ``field`` of the first card of the mapping at ``key``."""
    cards = _entry(game, key)
    first = next(iter(cards))
    return {key: {**cards, first: {**cards[first], field: value}}}


CASES: list[tuple[str, Any, str]] = [
    # issue 11: a mapping in an effect (once TypeError: unhashable type 'dict').
    ("pillars", ("advantages.cards", "effect", {}), "advantages.cards."),
    ("pillars", ("events.cards", "effect", {"gold": 1}), "events.cards."),
    # issue 11: a card yielding ten million cubes (once minutes of legal-event listing).
    ("pillars", ("cards.resource_cards", "yield", 10**7), "cards.resource_cards."),
    # issue 11: a card moved to round 0 (once an EngineInvariantError during play).
    ("pillars", ("craftsmen.round_cards", "round", 0), "craftsmen.round_cards."),
    # issue 11: a list where a name belongs.
    ("pillars", ("craftsmen.round_cards", "family", ["mason"]), "craftsmen.round_cards."),
]


@pytest.mark.parametrize(("game", "change", "key"), CASES)
def test_nested_profile_value_is_refused_at_creation(
    game: str, change: tuple[str, str, Any], key: str
) -> None:
    profile = _with_card_field(game, *change)
    with pytest.raises(BadOptions, match=f"data key {key}"):
        make_game(game, {"profile": profile})


def test_a_list_where_an_institution_name_belongs_is_refused() -> None:
    # issue 11: once TypeError (unhashable type: 'list') while reading the roads.
    with pytest.raises(BadOptions, match=r"data key board.roads\[0\]"):
        make_game("municipium", {"profile": {"board.roads": [[["temple"], "tavern"]]}})


@pytest.mark.parametrize(
    ("profile", "key"),
    [({"bank.total": 0}, "bank.total"), ({"tiles.mix": {}}, "tiles.mix")],
)
def test_palmyra_data_that_cannot_set_up_any_game_is_refused_at_creation(
    profile: dict[str, Any], key: str
) -> None:
    # issue 12: `play --profile` with these said "internal error" (exit 3); the data cannot
    # pay the starting coins or deal the starting tiles of even two players.
    with pytest.raises(BadOptions, match=f"data key {key}"):
        make_game("palmyra", {"profile": profile})


def test_one_message_shape_for_every_game() -> None:
    for game, profile in [
        ("pillars", {"setup.workers": "x"}),
        ("milestones", {"setup.start_coins": "x"}),
        ("palmyra", {"bank.total": "x"}),
        ("municipium", {"components.wreaths": "x"}),
    ]:
        key = next(iter(profile))
        with pytest.raises(BadOptions, match=f"^data key {key}: expected .*, got 'x'$"):
            make_game(game, {"profile": profile})


def test_a_starting_craftsman_without_a_card_is_refused() -> None:
    # Found by the nested profile fuzz: once KeyError 'craftsmen.x' at creation (exit 3).
    starting = _entry("pillars", "setup.starting_craftsmen")
    with pytest.raises(BadOptions, match=r"data key setup.starting_craftsmen\[0\]"):
        make_game("pillars", {"profile": {"setup.starting_craftsmen": ["x", *starting[1:]]}})


@pytest.mark.parametrize("text", ["bank.total: 0\n", "tiles.mix: {}\n"])
def test_play_with_a_profile_that_cannot_set_up_is_a_usage_error(text: str, tmp_path: Path) -> None:
    # issue 12: `play --profile` with these said "internal error, please report" (exit 3).
    from typer.testing import CliRunner

    from rules_oracle_cli.cli import app

    profile = tmp_path / "profile.yaml"
    profile.write_text(text)
    args = ["play", "--game", "palmyra", "--players", "2", "--seed", "1"]
    result = CliRunner().invoke(app, [*args, "--profile", str(profile)])
    assert isinstance(result.exception, SystemExit) or result.exception is None
    assert result.exit_code == 2, result.output
    assert "data key" in result.output
