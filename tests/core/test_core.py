"""The shared core: evolve, state paths, data profiles, catalogues, the checked step."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from reference.core import paths
from reference.core.catalogue import load_catalogue
from reference.core.datafile import DataEntry, DataSet, load_data_dir
from reference.core.errors import BadOptions
from reference.core.evolve import evolve
from reference.core.state import StateInvariantError, counts_not_negative


def _non_negative(_: object, attribute: attrs.Attribute[int], value: int) -> None:
    if value < 0:
        raise ValueError(f"{attribute.name} is negative")


@attrs.frozen
class Purse:
    gold: int = attrs.field(validator=_non_negative)
    cards: tuple[str, ...] = ()


@attrs.frozen
class Table:
    players: dict[str, Purse]
    deck: tuple[str, ...]


def test_evolve_copies_and_validates_changed_fields() -> None:
    purse = Purse(3, ("a",))
    richer = evolve(purse, gold=5)
    assert richer == Purse(5, ("a",)) and purse == Purse(3, ("a",))
    with pytest.raises(ValueError, match="gold is negative"):
        evolve(purse, gold=-1)
    with pytest.raises(TypeError, match="silver"):
        evolve(purse, silver=1)


@attrs.frozen(slots=False)
class Pouch:
    """A state-like class whose fields live in a __dict__ (copied whole by evolve)."""

    gold: int = attrs.field(validator=_non_negative)
    cards: tuple[str, ...]
    marks: dict[str, int]


def test_evolve_copies_a_dict_class_whole_and_validates_only_changed_fields() -> None:
    pouch = Pouch(3, ("a",), {"x": 1})
    richer = evolve(pouch, gold=5)
    assert richer == Pouch(5, ("a",), {"x": 1}) and pouch == Pouch(3, ("a",), {"x": 1})
    assert richer.cards is pouch.cards and richer.marks is pouch.marks  # shared, not copied
    assert vars(richer) is not vars(pouch)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        richer.gold = 1  # type: ignore[misc]
    with pytest.raises(ValueError, match="gold is negative"):
        evolve(pouch, gold=-1)
    with pytest.raises(TypeError, match="silver"):
        evolve(pouch, silver=1)
    assert vars(evolve(pouch, marks={})) == {"gold": 3, "cards": ("a",), "marks": {}}
    # An unchanged field is not validated again: a value that got in before stays.
    odd = object.__new__(Pouch)
    object.__setattr__(odd, "__dict__", {"gold": -2, "cards": (), "marks": {}})
    assert evolve(odd, cards=("b",)).gold == -2


def test_paths_read_fields_keys_and_indexes() -> None:
    table = Table({"red": Purse(4, ("x", "y"))}, ("k", "q"))
    assert paths.read(table, "players.red.gold") == 4
    assert paths.read(table, "players.red.cards.1") == "y"
    assert paths.read(table, "deck.0") == "k"
    for bad, why in [
        ("players.blue.gold", "no key 'blue'"),
        ("players.red.silver", "no field 'silver'"),
        ("deck.5", "no index '5'"),
        ("players.red.gold.x", "with no parts"),
        ("players..gold", "empty segment"),
    ]:
        with pytest.raises(paths.UnknownPath, match=why):
            paths.read(table, bad)


def test_profile_replaces_values_and_refuses_unknown_keys() -> None:
    data = DataSet({"market.stone": DataEntry(4, "placeholder", "guess")})
    assert data.placeholders() == ("market.stone",)
    mine = data.with_profile({"market.stone": 3}, "my.yaml")
    assert mine.value("market.stone") == 3 and mine.placeholders() == ()
    assert mine.entries["market.stone"].status == "profile"
    with pytest.raises(BadOptions, match="unknown data key 'market.gold'"):
        data.with_profile({"market.gold": 1}, "my.yaml")


def test_data_files_need_value_status_and_source(tmp_path: Path) -> None:
    (tmp_path / "prices.yaml").write_text("stone: {value: 4, status: rulebook}\n")
    with pytest.raises(BadOptions, match="needs value, status and source"):
        load_data_dir(tmp_path)
    (tmp_path / "prices.yaml").write_text("stone: {value: 4, status: rumour, source: x}\n")
    with pytest.raises(BadOptions, match="unknown status 'rumour'"):
        load_data_dir(tmp_path)


def test_catalogue_refuses_duplicates_and_sourceless_rules(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    rule = "  - {id: X-A-01, title: t, statement: s, status: ruling, sources: [{ref: r}]}\n"
    path.write_text("game: x\nrules:\n" + rule + rule)
    with pytest.raises(BadOptions, match="appears twice"):
        load_catalogue(path)
    path.write_text(
        "game: x\nrules:\n  - {id: X-A-01, title: t, statement: s, status: ruling, sources: []}\n"
    )
    with pytest.raises(BadOptions, match="no source"):
        load_catalogue(path)
    path.write_text(
        "game: x\nrules:\n  - {id: X-A-01, title: t, statement: s, status: maybe, sources: []}\n"
    )
    with pytest.raises(BadOptions, match="not a valid rule catalogue"):
        load_catalogue(path)


def test_a_state_validator_break_is_our_invariant_error_not_a_bare_value_error() -> None:
    from reference.core.errors import EngineInvariantError
    from reference.core.evolve import evolve
    from reference.registry import make_game

    game = make_game("pillars", {})
    state = game.new_game(["red", "blue"])
    with pytest.raises(EngineInvariantError, match="gold may not be negative"):
        evolve(state.players["red"], gold=-1)


@attrs.frozen(slots=False)
class _Bag:
    counts: dict[str, int] = attrs.field(validator=counts_not_negative)


def test_a_counted_multiset_may_be_empty_or_zero_but_never_negative() -> None:
    assert _Bag({}).counts == {} and _Bag({"a": 0, "b": 2}).counts == {"a": 0, "b": 2}
    with pytest.raises(StateInvariantError, match=r"counts\.b may not be negative \(got -1\)"):
        _Bag({"a": 3, "b": -1, "c": -2})  # the first negative count is named
    with pytest.raises(StateInvariantError, match="counts.a may not be negative"):
        evolve(_Bag({"a": 1}), counts={"a": -1})


def test_seat_rotation_and_counted_multisets() -> None:
    from reference.core.state import added, clockwise_from, next_seat, taken

    assert clockwise_from(("a", "b", "c"), "b") == ("b", "c", "a")
    assert next_seat(("a", "b", "c"), "c") == "a"
    assert added({"wood": 1}, {"wood": 2, "sand": 1}) == {"wood": 3, "sand": 1}
    assert taken({"wood": 3, "sand": 1}, {"wood": 2}) == {"wood": 1, "sand": 1}


def test_the_core_data_reader_bounds_every_size() -> None:
    from reference.core import tables as tb
    from reference.core.errors import BadOptions

    with pytest.raises(BadOptions, match=r"^data key k: expected a whole number 0\.\.999, got"):
        tb.whole("k", 10**7)
    with pytest.raises(BadOptions, match="expected a list of at most 999 values"):
        tb.items("k", [0] * 1000)
    with pytest.raises(BadOptions, match="expected a mapping of at most 999 entries"):
        tb.mapping("k", {str(i): 0 for i in range(1000)})
    with pytest.raises(BadOptions, match="expected one of a, b, got"):
        tb.choice("k", {"a": 1}, ("a", "b"))
    assert tb.counts("k", {"a": 2}, ("a", "b")) == {"a": 2}
