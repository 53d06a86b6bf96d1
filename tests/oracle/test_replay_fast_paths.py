"""The replay's fast paths answer only where the full checks would give the same answer.

Each fast path (structuring an event, comparing claims, reading a line) takes the usual
case in one go and hands anything else to the full check; these tests feed each one a case
it must hand on, and state what the full check says, worked out from the format's rules.
"""

from __future__ import annotations

import json

import attrs
import pytest

from oracle.formats.converter import structure_event
from oracle.formats.log import Malformed, decode_line
from oracle.games import GameCache
from oracle.replay import Divergence, _differences
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
    assert reader(Board, RED)(BOARD) == [1, True, "r"]
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
