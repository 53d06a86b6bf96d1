"""The replay's fast paths answer only where the full checks would give the same answer.

Each fast path (structuring an event, comparing claims, reading a line) takes the usual
case in one go and hands anything else to the full check; these tests feed each one a case
it must hand on, and state what the full check says, worked out from the format's rules.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from typing import ClassVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.formats.converter import _plan, event_structurer, structure_event
from oracle.formats.log import Malformed, decode_line
from oracle.games import GameCache
from oracle.replay import Divergence, _Claims, _differences
from reference.core.access import reader
from reference.core.errors import MalformedEvent


def test_a_record_with_several_problems_names_them_all() -> None:
    # The quick structuring stops at the first problem; the message lists every one.
    game = GameCache().get("toy", {})
    raw = {"type": "advance", "player": 5, "steps": "2", "tip": 1}
    with pytest.raises(MalformedEvent) as caught:
        structure_event(game, raw)
    assert caught.value.message == (
        "bad 'advance' event: invalid value for type, expected str @ $.player; "
        "invalid value for type, expected int @ $.steps; extra fields found (tip) @ $"
    )


def test_a_sound_record_structures_without_its_type_and_claims() -> None:
    game = GameCache().get("toy", {})
    event = structure_event(game, {"type": "advance", "player": "red", "steps": 2, "state": {}})
    assert (type(event).type, event.player, event.steps) == ("advance", "red", 2)


@attrs.frozen
class Seat:
    coins: int
    banked: bool
    name: str
    note: str | None = None
    ratio: float = 0.5


@attrs.frozen
class Board:
    seats: dict[str, Seat]
    turn: int


BOARD = Board({"red": Seat(1, True, "r")}, 3)
RED = ("seats.red.coins", "seats.red.banked", "seats.red.name")


def test_claims_of_one_parent_are_read_in_one_take() -> None:
    assert reader(Board, RED).whole is not None
    assert reader(Board, RED)(BOARD) == (1, True, "r")
    assert reader(Board, ("seats.red.coins", "turn")).whole is None


@pytest.mark.parametrize(
    ("claims", "expected"),
    [
        ({"seats.red.coins": 1, "seats.red.banked": True, "seats.red.name": "r"}, []),
        # == says True equals 1 and 1 equals True; JSON does not
        (
            {"seats.red.coins": True, "seats.red.banked": 1, "seats.red.name": "r"},
            [
                Divergence("seats.red.coins", True, 1),
                Divergence("seats.red.banked", 1, True),
            ],
        ),
        # a number is a number: 1.0 claims the same as 1, 0.5 the same as 0.5
        ({"seats.red.coins": 1.0, "seats.red.ratio": 0.5}, []),
        ({"seats.red.note": None, "turn": 3}, []),
        ({"seats.red.note": "x"}, [Divergence("seats.red.note", "x", None)]),
        (
            {"seats.red": {"coins": 1, "banked": 1, "name": "r", "note": None, "ratio": 0.5}},
            [
                Divergence(
                    "seats.red",
                    {"coins": 1, "banked": 1, "name": "r", "note": None, "ratio": 0.5},
                    {"coins": 1, "banked": True, "name": "r", "note": None, "ratio": 0.5},
                )
            ],
        ),
    ],
)
def test_claims_equal_only_as_json(claims: dict[str, object], expected: list[Divergence]) -> None:
    assert _differences(BOARD, claims) == expected


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b'{"a": 1, "a": 2}\n', "not strict JSON: key 'a' appears twice in one object"),
        (b'{"s": {"b": 1, "b": 1}}\n', "not strict JSON: key 'b' appears twice in one object"),
        (b'{"a": NaN}\n', "not strict JSON: NaN is not a JSON value"),
        (b'{"a": 1} x\n', "not JSON: Extra data at column 10"),
        (b'{"a": 1}{}\n', "not JSON: Extra data at column 9"),
        (b'{"a": [1, 2}\n', "not JSON: Expecting ',' delimiter at column 12"),
        (b'{"a": ' + b"[" * 64 + b"]" * 64 + b"}\n", "JSON nested deeper than 64 levels"),
        (
            b'{"a": ' + b"[" * 63 + b"]" * 63 + b', "b": 1, "b": 2}\n',
            "not strict JSON: key 'b' appears twice in one object",
        ),
        (b"[1]\n", "each line must be a JSON object"),
        (b" \t\n", "blank line"),
    ],
)
def test_lines_the_quick_decoding_hands_on_are_refused_as_before(line: bytes, reason: str) -> None:
    with pytest.raises(Malformed) as caught:
        decode_line(7, line)
    assert (caught.value.line, caught.value.reason) == (7, reason)


@pytest.mark.parametrize(
    "line", [b'{"a": [1, {"b": true}]}\n', b'{"a": 1}\r\n', b'{"a": 1}', b' {"a": 1} \n']
)
def test_sound_lines_decode_alike_on_either_path(line: bytes) -> None:
    assert decode_line(1, line) == json.loads(line)


# --- the strict decoder's count of keys -------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        # a repeated key at every depth the quick count looks at, and below it
        b'{"a": 1, "b": {"c": 1, "c": 2}}\n',
        b'{"a": [{"c": 1}, {"c": 1, "c": 1}]}\n',
        b'{"a": {"b": {"c": 1, "c": 1}}, "d": {}}\n',
        # a colon or a brace inside a string must not make up for a lost key
        b'{"a": 1, "a": 2, "b": "x:y"}\n',
        b'{"s": {"k": "{", "k": 1}, "t": 2}\n',
        b'{"a:": 1, "a:": 1}\n',
        b'{"a": "\\":", "a": 1}\n',
        b'{"t": "L:M", "t": "L:M"}\n',
        b'{"t": "\\u003a", "t": 1, "u": "::"}\n',  # an escaped colon is not in the text
    ],
)
def test_a_repeated_key_is_refused_however_the_line_is_built(line: bytes) -> None:
    with pytest.raises(Malformed, match="appears twice in one object"):
        decode_line(3, line)


@pytest.mark.parametrize(
    "line",
    [
        b'{"a": "x:y", "b": {"c": "{"}}\n',  # counts off by a string: the strict decoder says
        b'{"a": [{"b": 1}, {"b": 2}], "c": {"d": [{}]}}\n',  # objects below the first level
        b'{"a": {}, "b": {}, "c": [[], {"e": {"f": 1}}]}\n',
        b'{"a:b": {"{": "}"}}\n',
        b'{"tile": "L:M", "state": {"cell": "1:2", "x": [":"]}}\n',
    ],
)
def test_lines_with_colons_or_braces_anywhere_decode_as_json_does(line: bytes) -> None:
    assert decode_line(1, line) == json.loads(line)


class _Pairs(list[tuple[str, object]]):
    """An object's entries in order, a key possibly twice."""


# Objects as lists of (key, value) pairs, so a key may be given twice; keys and strings
# drawn from text that holds colons, braces, quotes and backslashes.
_TEXT = st.text(alphabet='ab:{}"\\', max_size=4)
_TREES = st.recursive(
    st.one_of(st.integers(-3, 3), _TEXT, st.booleans()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(st.tuples(st.sampled_from(["a", "b", "a:", "{"]), inner), max_size=3).map(_Pairs),
    ),
    max_leaves=8,
)


def _text(tree: object) -> str:
    if isinstance(tree, _Pairs):
        return "{" + ", ".join(f"{json.dumps(k)}: {_text(v)}" for k, v in tree) + "}"
    if isinstance(tree, list):
        return "[" + ", ".join(_text(v) for v in tree) + "]"
    return json.dumps(tree)


def _repeats(tree: object) -> bool:
    if isinstance(tree, _Pairs):
        keys = [k for k, _ in tree]
        return len(set(keys)) != len(keys) or any(_repeats(v) for _, v in tree)
    if isinstance(tree, list):
        return any(_repeats(v) for v in tree)
    return False


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["t", "u", "state"]), _TREES), max_size=4))
def test_any_line_decodes_as_the_strict_decoder_says(pairs: list[tuple[str, object]]) -> None:
    # Worked out from the format's rule: a key given twice in any object is refused;
    # any other line is its JSON value, whatever colons or braces its strings hold.
    line = _text(_Pairs(pairs))
    if _repeats(_Pairs(pairs)):
        with pytest.raises(Malformed, match="appears twice in one object"):
            decode_line(1, line.encode() + b"\n")
    else:
        assert decode_line(1, line.encode() + b"\n") == json.loads(line)


def test_infinity_is_refused_on_the_quick_path_too() -> None:
    with pytest.raises(Malformed, match="Infinity is not a JSON value"):
        decode_line(2, b'{"a": {"b": -Infinity}}\n')


# --- the structuring plans ---------------------------------------------------------------


def _every_event_class() -> list[tuple[str, type]]:
    from reference.registry import game_names, make_game

    return [(name, cls) for name in game_names() for cls in make_game(name, {}).event_types]


def _by_cattrs(game_name: str, raw: dict[str, object]) -> object:
    """What the structurer answered before it had plans: cattrs alone."""
    game = GameCache().get(game_name, {})
    structurer = event_structurer(game.name, game.event_types)
    cls, quick, detailed, _ = structurer.index[str(raw["type"])]
    return structurer.by_cattrs(raw, str(raw["type"]), cls, quick, detailed)


def _outcome(call: Callable[[], object]) -> tuple[str, object]:
    try:
        event = call()
    except MalformedEvent as exc:
        return "malformed", exc.message
    return "event", (type(event), attrs.asdict(event, recurse=False))  # type: ignore[arg-type]


def test_every_event_class_of_every_game_has_a_plan() -> None:
    # the plans cover every field type the games use today; a class without one is
    # structured by cattrs alone (correct, only slower), which this says out loud
    missing = [f"{name}:{cls.__name__}" for name, cls in _every_event_class() if _plan(cls) is None]
    assert missing == []


def _sample_value(kind: object) -> list[object]:
    """Values a field of ``kind`` may be given in a record: a good one first, then bad ones."""
    bad: list[object] = [None, 1.5, {"x": 1}]
    if kind is str:
        return ["red", 7, True, ["red"], *bad]
    if kind is int:
        return [2, True, False, "2", 2.0, [2], *bad]
    if kind is bool:
        return [True, 1, 0, "true", [True], *bad]
    return [["a", "b"], [], ["a", 1], [True], "ab", ("a",), [["a"]], *bad]  # tuple[str, ...]


def _records(cls: type) -> list[dict[str, object]]:
    """A sound record of ``cls`` and, for each field, the record with that field given
    each bad value, left out, and with an extra key."""
    hints = typing.get_type_hints(cls)
    fields = attrs.fields(cls)
    sound: dict[str, object] = {"type": cls.type}  # type: ignore[attr-defined]
    for field in fields:
        declared = hints[field.name]
        kind = declared if declared in (str, int, bool) else "tuple"
        if kind == "tuple" and typing.get_args(declared)[0] is int:
            sound[field.name] = [1, 2]
        else:
            sound[field.name] = _sample_value(kind)[0]
    records = [sound, {**sound, "state": {"round": 1}}, {**sound, "extra": 1}]
    for field in fields:
        declared = hints[field.name]
        kind = declared if declared in (str, int, bool) else "tuple"
        for value in _sample_value(kind)[1:]:
            records.append({**sound, field.name: value})
        records.append({key: v for key, v in sound.items() if key != field.name})
    return records


@pytest.mark.parametrize(("game_name", "cls"), _every_event_class(), ids=lambda v: str(v))
def test_a_plan_answers_as_cattrs_does_for_good_and_bad_records(game_name: str, cls: type) -> None:
    # same event for a record both accept; for any other, the very message cattrs words
    game = GameCache().get(game_name, {})
    for raw in _records(cls):
        planned = _outcome(lambda raw=raw: structure_event(game, raw))
        assert planned == _outcome(lambda raw=raw: _by_cattrs(game_name, raw)), raw


def test_a_plan_leaves_every_doubtful_record_to_cattrs() -> None:
    plan = _plan(_Tiles)
    assert plan is not None
    assert plan.structure({"type": "tiles", "player": "red", "tiles": ["a"]}) == _Tiles(
        "red", ("a",)
    )
    for raw in (
        {"type": "tiles", "player": "red", "tiles": "ab"},  # cattrs takes text for a tuple
        {"type": "tiles", "player": "red", "tiles": ["a", 1]},
        {"type": "tiles", "player": "red", "tiles": ["a"], "extra": 1},
        {"type": "tiles", "player": "red"},
        {"type": "tiles", "player": "red", "tiles": ["a"], "pass_": 1},
        {"type": "tiles", "player": "red", "tiles": ["a"], "bonus": True},  # a bool is no int
        {"type": "tiles", "player": "red", "tiles": ["a", "a"]},  # the validator refuses
    ):
        assert plan.structure(raw) is None, raw
    assert plan.structure(
        {"type": "tiles", "player": "red", "tiles": [], "bonus": 2, "state": {}}
    ) == _Tiles("red", (), 2)


def _distinct(instance: object, attribute: object, value: tuple[str, ...]) -> None:
    if len(set(value)) != len(value):
        raise ValueError("tiles repeat")


@attrs.frozen
class _Tiles:
    type: ClassVar[str] = "tiles"
    player: str
    tiles: tuple[str, ...] = attrs.field(validator=_distinct)
    bonus: int = 0


# --- the claim comparison's memo ---------------------------------------------------------


def test_claims_compared_before_do_not_vouch_for_the_next_ones() -> None:
    # the types found all scalars at these paths are remembered; each claim is still
    # compared, value and JSON type, with the state it is made about
    claims = _Claims()
    sound = {"seats.red.coins": 1, "seats.red.banked": True, "seats.red.name": "r"}
    assert claims.differences(BOARD, sound) == []
    assert claims.differences(BOARD, sound) == []
    assert claims.differences(BOARD, {**sound, "seats.red.banked": 1}) == [
        Divergence("seats.red.banked", 1, True)
    ]
    assert claims.differences(BOARD, {**sound, "seats.red.coins": 2}) == [
        Divergence("seats.red.coins", 2, 1)
    ]
    other = Board({"red": Seat(True, True, "r")}, 3)  # type: ignore[arg-type]
    assert claims.differences(other, sound) == [Divergence("seats.red.coins", 1, True)]


@attrs.frozen
class OtherBoard:
    seats: dict[str, Seat]


def test_the_same_paths_in_states_of_another_class_get_their_own_reader() -> None:
    claims = _Claims()
    assert claims.differences(BOARD, {"seats.red.coins": 1, "seats.red.name": "r"}) == []
    other = OtherBoard({"red": Seat(5, False, "q")})
    assert claims.differences(other, {"seats.red.coins": 1, "seats.red.name": "r"}) == [
        Divergence("seats.red.coins", 1, 5),
        Divergence("seats.red.name", "r", "q"),
    ]
