"""An unknown name (an institution, a citizen kind) is malformed in Municipium whoever is
to act; a known kind the bag lacks is still illegal by its rule."""

from __future__ import annotations

import pytest
from cli_invoke import ROOT

import rules_oracle

MARKET = ROOT / "scenarios" / "pillars" / "PIL-MARKET-04-metal-is-never-bought.yaml"


@pytest.mark.parametrize(
    "event",
    [
        {"type": "place_member", "player": "a", "institution": "Temple"},
        {"type": "draw_citizen", "kind": "soldiers"},
    ],
)
def test_unknown_names_are_malformed_in_municipium(event: dict[str, object]) -> None:
    position = rules_oracle.load("municipium").setup(["a", "b"])
    with pytest.raises(rules_oracle.Malformed):  # whoever is to act: it names nothing
        position.apply(event)


def test_a_known_kind_missing_from_the_bag_is_still_illegal() -> None:
    position = rules_oracle.load("municipium").setup(["a", "b", "c"])
    assert position.to_act == rules_oracle.CHANCE
    empty = position.with_values({"bag.soldier": 0, "players.a.citizens.soldier": 13})
    with pytest.raises(rules_oracle.Illegal) as caught:
        empty.apply({"type": "draw_citizen", "kind": "soldier"})
    assert caught.value.rule_id == "MUN-BAG-01"
