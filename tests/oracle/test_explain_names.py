"""Issue 23 item 6: ``explain`` finds every name: rule ids, aliases and each game's own ids
of cards, craftsmen, tiles, institutions, spaces, pieces and event types."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rules_oracle
from reference.registry import game_names, make_game
from rules_oracle_cli.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def explain(word: str) -> str:
    result = runner.invoke(app, ["explain", word])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_explain_jack_names_the_card_its_data_and_its_rules() -> None:
    lines = explain("jack").splitlines()
    assert lines[0] == "jack (pillars): advantage card (permanent)"
    # advantages.yaml: jack raises the craftsman limit by 1 (SAULEN, secondary)
    assert lines[1].startswith(
        '  data advantages.cards = {"kind": "permanent", "effect": "craftsman_limit", '
        '"amount": 1} [secondary: '
    )
    # PIL-ADV-03 is Jack's rule; PIL-CRAFT-01 names Jack (5 craftsmen, 6 with Jack)
    assert set(lines[2].removeprefix("  rules naming jack: ").split(", ")) == {
        "PIL-ADV-03",
        "PIL-CRAFT-01",
    }


def test_explain_kings_court_names_the_location_its_spaces_and_the_tax_rule() -> None:
    text = explain("kings_court")
    first, data, rules = text.splitlines()[:3]
    assert first == (
        "kings_court (pillars): location (master-builder spaces kings_court_1, kings_court_2, "
        "kings_court_3, kings_court_4)"
    )
    assert data.startswith("  data board.capacity_kings_court = 4 [placeholder: ")
    # PIL-TAX-01: "every player without a builder at King's Court pays"
    assert "PIL-TAX-01" in rules.split(": ", 1)[1].split(", ")


@pytest.mark.parametrize(
    ("word", "first"),
    [
        ("take_craftsman", "take_craftsman (pillars): event type"),
        ("mason_2", "mason_2 (pillars): round-2 craftsman (mason)"),
        ("T01", "T01 (milestones): worker tile"),
        ("L:D", "L:D (palmyra): land tile"),
        ("temple", "temple (municipium): institution"),
        ("C07", "C07 (municipium): common citizen card (Citizen)"),
    ],
)
def test_explain_finds_ids_in_every_game(word: str, first: str) -> None:
    assert explain(word).splitlines()[0] == first


def test_an_event_type_names_the_rule_it_rests_on() -> None:
    assert "  rules naming take_craftsman: PIL-CARDS-04" in explain("take_craftsman")


def test_explain_finds_every_id_of_every_game() -> None:
    for name in game_names():
        game = make_game(name, {})
        for term in game.vocabulary():  # type: ignore[attr-defined]
            found = rules_oracle.explain_name(term.id)
            assert found is not None, (name, term.id)
            assert f"{term.id} ({name}): {term.what}" in found.splitlines(), (name, term.id)


def test_every_card_id_the_pillars_page_lists_is_found() -> None:
    """docs/games/pillars.md lists the card ids a Pillars log uses: each one explains."""
    page = (ROOT / "docs" / "games" / "pillars.md").read_text()
    listing = page.split("Card ids:", 1)[1].split("\n\n", 1)[0]
    ids = [w for w in re.findall(r"`([a-z_0-9]+)`", listing)]
    assert len(ids) >= 30
    for word in ids:
        found = rules_oracle.explain_name(word)
        assert found is not None and found.startswith(f"{word} (pillars): "), word


def test_a_name_nothing_knows_is_still_a_usage_error() -> None:
    result = runner.invoke(app, ["explain", "Nirgendwo"])
    assert result.exit_code == 2
    assert "no rule 'Nirgendwo' in any catalogue, no id of a game, no alias" in result.output
