"""The name checks' per-class field table (rules_turn.NAME_FIELDS): each event class's
names are checked from its own fields only, found once, in the order of the generic scan."""

from __future__ import annotations

import attrs
import pytest

from reference.core.errors import MalformedEvent
from reference.municipium import events as ev
from reference.municipium import make
from reference.municipium.rules_turn import ANY_NAME_FIELDS, NAME_FIELDS, expect_known_names


def test_the_table_lists_each_class_name_fields_worked_out_by_hand() -> None:
    assert set(NAME_FIELDS) == set(ev.EVENT_TYPES)
    assert NAME_FIELDS[ev.TavernPull] == (("origin",), (), (), ("family",))
    assert NAME_FIELDS[ev.ForumTakeFromPlayer] == ((), (), ("kind",), ("victim",))
    assert NAME_FIELDS[ev.RelocateMember] == (("origin", "destination"), (), (), ())
    assert NAME_FIELDS[ev.MoveMember] == ((), ("path",), (), ())
    assert NAME_FIELDS[ev.DrawCitizen] == ((), (), ("kind",), ())
    assert NAME_FIELDS[ev.EndPower] == ((), (), (), ())


def test_no_class_has_a_name_field_the_table_leaves_out() -> None:
    names = {f for group in ANY_NAME_FIELDS for f in group}
    for cls in ev.EVENT_TYPES:
        listed = {f for group in NAME_FIELDS[cls] for f in group}
        assert listed == names & set(attrs.fields_dict(cls)), cls.__name__


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (ev.TavernPull("red", "nobody", "nowhere", 1), "'nowhere' is not an institution"),
        (ev.TavernPull("red", "nobody", "tavern", 1), "family 'nobody' is not a family"),
        (ev.ForumTakeFromPlayer("red", "nobody", "gold"), "'gold' is not a kind of citizen"),
        (ev.MoveMember("red", ("temple", "moon")), "'moon' is not an institution"),
        (ev.RelocateMember("red", "forum", "sea"), "'sea' is not an institution"),
    ],
)
def test_the_first_bad_name_is_the_one_reported(event: object, message: str) -> None:
    state = make({}).new_game(["red", "blue"])
    with pytest.raises(MalformedEvent, match=message):
        expect_known_names(state, event)


@attrs.frozen
class Stranger:
    """An event class outside the table (the generic scan answers for it)."""

    institution: str


def test_a_class_outside_the_table_gets_every_name_checked() -> None:
    state = make({}).new_game(["red", "blue"])
    with pytest.raises(MalformedEvent, match="'attic' is not an institution"):
        expect_known_names(state, Stranger("attic"))
    expect_known_names(state, ev.TavernPull("red", "blue", "tavern", 1))
