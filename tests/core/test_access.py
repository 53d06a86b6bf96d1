"""Compiled state-path accessors: the same values and the same UnknownPath as paths.read."""

from __future__ import annotations

import attrs
import pytest

from reference.core import paths
from reference.core.access import accessor, reader


@attrs.frozen
class Purse:
    gold: int
    cards: tuple[str, ...] = ()


@attrs.frozen
class Table:
    players: dict[str, Purse]
    deck: tuple[str, ...]
    seats: dict[int, str] = attrs.field(factory=dict)
    banker: Purse | None = None


TABLE = Table({"red": Purse(4, ("x", "y"))}, ("k", "q"), {1: "red"}, Purse(9))


def test_accessor_reads_fields_keys_and_indexes() -> None:
    assert accessor(Table, "players.red.gold")(TABLE) == 4
    assert accessor(Table, "players.red.cards.1")(TABLE) == "y"
    assert accessor(Table, "deck.0")(TABLE) == "k"
    assert accessor(Table, "players.red")(TABLE) == Purse(4, ("x", "y"))
    assert accessor(Table, "seats.1")(TABLE) == "red"  # a number key, as paths.read finds it
    assert accessor(Table, "banker.gold")(TABLE) == 9  # through an optional value


def test_accessor_is_compiled_where_the_field_types_say_what_each_node_is() -> None:
    assert accessor(Table, "players.red.cards.1").steps is not None
    assert accessor(Table, "deck.1").steps is not None
    # An optional value or a mapping with number keys: paths.read reads them.
    assert accessor(Table, "banker.gold").steps is None
    assert accessor(Table, "seats.1").steps is None


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("players.blue.gold", "no key 'blue'"),
        ("players.red.silver", "no field 'silver'"),
        ("deck.5", "no index '5'"),
        ("deck.-1", "no index '-1'"),
        ("players.red.gold.x", "with no parts"),
        ("players..gold", "empty segment"),
        ("", "empty segment"),
    ],
)
def test_accessor_raises_what_paths_read_raises(bad: str, why: str) -> None:
    with pytest.raises(paths.UnknownPath, match=why) as compiled:
        accessor(Table, bad)(TABLE)
    with pytest.raises(paths.UnknownPath) as walked:
        paths.read(TABLE, bad)
    assert str(compiled.value) == str(walked.value)


def test_a_node_of_an_undeclared_type_is_read_as_paths_read_reads_it() -> None:
    odd = Table({"red": {"gold": 7}}, ("k",))  # type: ignore[dict-item]
    assert accessor(Table, "players.red.gold")(odd) == 7
    with pytest.raises(paths.UnknownPath, match="no key 'cards'"):
        accessor(Table, "players.red.cards")(odd)


def test_reader_takes_fields_of_one_parent_together_and_keeps_the_order() -> None:
    read = reader(Table, ("players.red.cards", "deck.1", "players.red.gold", "banker.gold"))
    assert [len(group[3]) for group in read.groups] == [2]  # players.red: cards and gold
    assert read(TABLE) == (("x", "y"), "q", 4, 9)
    odd = Table({"red": {"gold": 7, "cards": ()}}, ("k", "q"), banker=Purse(1))  # type: ignore[dict-item]
    assert read(odd) == ((), "q", 7, 1)


@pytest.mark.parametrize(
    ("path_list", "why"),
    [
        (("players.red.gold", "players.blue.gold", "deck..x"), "no key 'blue'"),
        (("deck..x", "players.blue.gold", "players.red.gold"), "empty segment"),
        (("players.red.gold", "players.red.silver", "players.red.cards"), "no field 'silver'"),
    ],
)
def test_reader_raises_for_the_first_bad_path(path_list: tuple[str, ...], why: str) -> None:
    with pytest.raises(paths.UnknownPath, match=why):
        reader(Table, path_list)(TABLE)
