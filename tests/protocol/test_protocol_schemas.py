"""The protocol's JSON Schemas against messages worked out by hand from docs/protocol.md.

Each valid example is a message the spec allows; each invalid one breaks exactly one thing
the spec says (named beside it). Schemas allow extra fields (extensions), so no invalid
example relies on an extra field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from protocol_schemas import OPS, SCHEMAS, problems

REFUSAL = {
    "ok": False,
    "illegal": True,
    "rule": "PIL-MARKET-04",
    "message": "metal is never bought",
}
FAILURE = {"ok": False, "error": "no game yet: send new_game first"}
BUY = {"type": "buy_resources", "player": "red", "resource": "wood", "count": 2}
DRAW = {"type": "draw_master_builder", "owner": "blue"}

VALID: list[tuple[str, Any]] = [
    ("hello-request", {"op": "hello", "protocol": 1}),
    ("hello-response", {"ok": True, "name": "my-engine", "games": ["pillars"], "capabilities": []}),
    (
        "hello-response",
        {
            "ok": True,
            "name": "x",
            "games": ["pillars", "palmyra"],
            "capabilities": ["state", "legal", "set_state", "next", "my-extension"],
        },
    ),
    ("hello-response", {"ok": False, "error": "protocol 2 unknown (known: 1)"}),
    (
        "new_game-request",
        {"op": "new_game", "game": "pillars", "players": ["red", "blue"], "options": {}},
    ),
    (
        "new_game-request",
        {
            "op": "new_game",
            "game": "pillars",
            "players": ["a", "b-2", "c_3"],
            "options": {"resale_ban": "both_ways", "profile": {"market.buy_prices": {"stone": 3}}},
        },
    ),
    ("new_game-response", {"ok": True}),
    ("new_game-response", {"ok": False, "error": "5 players; this game takes 2 to 4"}),
    ("apply-request", {"op": "apply", "event": BUY}),
    ("apply-request", {"op": "apply", "event": DRAW}),  # a chance outcome: no player
    (
        "apply-request",
        {"op": "apply", "event": {"type": "reveal_advantages", "cards": ["tom", "otto"]}},
    ),
    (
        "apply-request",
        {
            "op": "apply",
            "event": {
                "type": "place_master_builder",
                "player": "red",
                "space": "priory_1",
                "remigius": False,
            },
        },
    ),
    ("apply-request", {"op": "apply", "event": {"type": "x", "player": "red", "choice": None}}),
    ("apply-response", {"ok": True}),
    ("apply-response", REFUSAL),
    ("apply-response", {"ok": False, "illegal": True, "rule": None, "message": "not your turn"}),
    ("apply-response", {"ok": False, "error": "unknown event type 'fly'"}),  # malformed
    ("to_act-request", {"op": "to_act"}),
    ("to_act-response", {"ok": True, "to_act": "red", "over": False}),
    ("to_act-response", {"ok": True, "to_act": "chance", "over": False}),
    ("to_act-response", {"ok": True, "to_act": "", "over": True}),  # not read once over
    ("state-request", {"op": "state", "paths": ["players.red.gold", "market.wood", "deck.0"]}),
    ("state-request", {"op": "state", "paths": []}),
    (
        "state-response",
        {"ok": True, "values": {"players.red.gold": 14, "deck.0": "tom", "event": None}},
    ),
    ("state-response", {"ok": True, "values": {}}),  # every path unanswerable: all left out
    ("state-response", {"ok": True, "values": {"players.red.resources": {"sand": 0, "wood": 2}}}),
    ("legal-request", {"op": "legal"}),
    ("legal-response", {"ok": True, "events": [BUY, {"type": "pass_market", "player": "red"}]}),
    ("legal-response", {"ok": True, "events": []}),  # the game is over
    ("result-request", {"op": "result"}),
    ("result-response", {"ok": True, "scores": {"red": 31, "blue": 28}, "winners": ["red"]}),
    (
        "result-response",
        {"ok": True, "scores": {"red": 30, "blue": 30}, "winners": ["red", "blue"]},
    ),
    ("result-response", {"ok": False, "error": "the game is not over: no result yet"}),
    (
        "set_state-request",
        {"op": "set_state", "values": {"players.red.gold": 20, "market.wood": 0}},
    ),
    ("set_state-response", {"ok": True}),
    ("set_state-response", {"ok": False, "error": "state path 'players.red.gld': no field"}),
    ("next-request", {"op": "next"}),
    ("next-response", {"ok": True, "event": DRAW}),
    ("next-response", {"ok": True, "event": BUY}),
    ("next-response", {"ok": False, "error": "the game is over: no next event"}),
    ("bye-request", {"op": "bye"}),
    ("bye-response", {"ok": True}),
    ("perft-request", {"op": "perft", "depth": 3}),
    ("perft-request", {"op": "perft", "depth": 0, "divide": True}),
    ("perft-response", {"ok": True, "count": 78624}),
    ("perft-response", {"ok": True, "count": 0}),  # the game is over
    (
        "perft-response",
        {
            "ok": True,
            "count": 2,
            "divide": [{"event": DRAW, "count": 1}, {"event": BUY, "count": 1}],
        },
    ),
    ("perft-response", {"ok": True, "count": 0, "divide": []}),
    ("perft-response", {"ok": False, "error": "'depth' must be a whole number, 0 or more"}),
    # extensions: extra fields anywhere are allowed
    ("to_act-request", {"op": "to_act", "trace": True}),
    ("to_act-response", {"ok": True, "to_act": "red", "over": False, "turn": 3}),
    # the any-message schemas
    ("request", {"op": "hello", "protocol": 1}),
    ("request", {"op": "apply", "event": BUY}),
    ("request", {"op": "bye"}),
    ("response", {"ok": True}),
    ("response", {"ok": True, "to_act": "red", "over": False}),
    ("response", REFUSAL),
    ("response", FAILURE),
]

INVALID: list[tuple[str, Any, str]] = [
    ("hello-request", {"op": "hello"}, "no protocol version"),
    ("hello-request", {"op": "hello", "protocol": 2}, "only version 1 exists"),
    ("hello-request", {"op": "hello", "protocol": "1"}, "the version is a number"),
    ("hello-response", {"ok": True, "name": "x", "games": ["pillars"]}, "no capabilities"),
    (
        "hello-response",
        {"ok": True, "name": "x", "games": "pillars", "capabilities": []},
        "games is a list",
    ),
    (
        "hello-response",
        {"ok": True, "name": 7, "games": [], "capabilities": []},
        "name is a string",
    ),
    (
        "hello-response",
        {"ok": True, "name": "x", "games": [], "capabilities": ["state", "state"]},
        "capabilities repeat",
    ),
    (
        "new_game-request",
        {"op": "new_game", "game": "pillars", "players": ["red", "blue"]},
        "no options",
    ),
    (
        "new_game-request",
        {"op": "new_game", "game": "pillars", "players": ["red", "red"], "options": {}},
        "a name twice",
    ),
    (
        "new_game-request",
        {"op": "new_game", "game": "pillars", "players": ["red", "chance"], "options": {}},
        "'chance' is not a player",
    ),
    (
        "new_game-request",
        {"op": "new_game", "game": "pillars", "players": ["red blue"], "options": {}},
        "a space in a name",
    ),
    (
        "new_game-request",
        {"op": "new_game", "game": "pillars", "players": [], "options": {}},
        "no players",
    ),
    (
        "new_game-request",
        {"op": "new_game", "game": "pillars", "players": ["red"], "options": []},
        "options is an object",
    ),
    ("new_game-response", {"ok": "yes"}, "ok is a boolean"),
    ("new_game-response", {"ok": False}, "a failure needs 'error'"),
    ("new_game-response", {}, "no ok"),
    ("apply-request", {"op": "apply"}, "no event"),
    ("apply-request", {"op": "apply", "event": {"player": "red"}}, "an event needs a type"),
    (
        "apply-request",
        {"op": "apply", "event": dict(BUY, state={"players.red.gold": 14})},
        "no state claims in apply",
    ),
    (
        "apply-request",
        {"op": "apply", "event": dict(BUY, type="BuyResources")},
        "wire names are snake case",
    ),
    (
        "apply-request",
        {"op": "apply", "event": dict(BUY, buy={"wood": 2})},
        "event fields are flat",
    ),
    (
        "apply-request",
        {"op": "apply", "event": dict(BUY, player="chance")},
        "chance acts without a player field",
    ),
    (
        "apply-response",
        {"ok": False, "illegal": True, "message": "no"},
        "a refusal names a rule or null",
    ),
    (
        "apply-response",
        {"ok": False, "illegal": True, "rule": "PIL-TURN-01"},
        "a refusal has a message",
    ),
    (
        "apply-response",
        {"ok": False, "illegal": True, "rule": "", "message": "no"},
        "an empty rule id",
    ),
    ("to_act-response", REFUSAL, "'illegal' answers only apply"),
    ("to_act-response", {"ok": True, "to_act": "red"}, "no over"),
    (
        "to_act-response",
        {"ok": True, "to_act": "", "over": False},
        "nobody to act in a running game",
    ),
    ("to_act-response", {"ok": True, "to_act": None, "over": True}, "to_act is a string"),
    ("state-request", {"op": "state"}, "no paths"),
    ("state-request", {"op": "state", "paths": "players.red.gold"}, "paths is a list"),
    ("state-request", {"op": "state", "paths": ["players..gold"]}, "an empty segment"),
    ("state-response", {"ok": True, "values": [["players.red.gold", 14]]}, "values is an object"),
    ("state-response", {"ok": True, "values": {".gold": 14}}, "a path with an empty segment"),
    ("state-response", {"ok": True}, "no values"),
    ("legal-response", {"ok": True, "events": [{"player": "red"}]}, "an event without type"),
    ("legal-response", {"ok": True, "events": {"type": "pass_market"}}, "events is a list"),
    ("result-response", {"ok": True, "scores": {"red": 31}}, "no winners"),
    (
        "result-response",
        {"ok": True, "scores": {"red": "31"}, "winners": ["red"]},
        "scores are whole numbers",
    ),
    (
        "result-response",
        {"ok": True, "scores": {"red": 31.5}, "winners": ["red"]},
        "scores are whole numbers",
    ),
    ("result-response", {"ok": True, "scores": {"red": 31}, "winners": "red"}, "winners is a list"),
    ("set_state-request", {"op": "set_state", "values": {"": 1}}, "an empty path"),
    ("set_state-request", {"op": "set_state"}, "no values"),
    ("next-response", {"ok": True}, "no event"),
    ("next-response", {"ok": True, "event": dict(DRAW, state={})}, "no state claims in an event"),
    ("bye-response", {"ok": False}, "a failure needs 'error'"),
    ("perft-request", {"op": "perft"}, "no depth"),
    ("perft-request", {"op": "perft", "depth": -1}, "a negative depth"),
    ("perft-request", {"op": "perft", "depth": 101}, "a depth over 100"),
    ("perft-request", {"op": "perft", "depth": 2.5}, "a depth counts whole events"),
    ("perft-request", {"op": "perft", "depth": 2, "divide": "yes"}, "divide is a boolean"),
    ("perft-response", {"ok": True}, "no count"),
    ("perft-response", {"ok": True, "count": -1}, "a negative count"),
    ("perft-response", {"ok": True, "count": "12"}, "the count is a number"),
    (
        "perft-response",
        {"ok": True, "count": 1, "divide": [{"event": DRAW}]},
        "a divide row needs its count",
    ),
    (
        "perft-response",
        {"ok": True, "count": 1, "divide": [{"event": {"player": "red"}, "count": 1}]},
        "a divide row's event needs a type",
    ),
    ("request", {"op": "perft", "divide": True}, "perft without depth"),
    ("request", {"op": "fly"}, "no such op"),
    ("request", {"protocol": 1}, "no op"),
    ("request", {"op": "new_game", "game": "pillars"}, "new_game without players"),
    ("request", {"op": "state", "paths": "x"}, "state paths is a list"),
    ("response", {"ok": False, "illegal": True, "message": "no"}, "a refusal without rule"),
    ("response", {"ok": False, "message": "no"}, "a failure without error"),
    ("response", {"to_act": "red"}, "no ok"),
    ("response", [True], "a response is an object"),
]


def test_every_op_has_a_request_and_a_response_schema() -> None:
    names = {p.name.removesuffix(".schema.json") for p in SCHEMAS.glob("*.schema.json")}
    expected = {f"{op}-{kind}" for op in OPS for kind in ("request", "response")}
    assert expected | {"request", "response", "definitions"} == names


@pytest.mark.parametrize("path", sorted(SCHEMAS.glob("*.schema.json")), ids=lambda p: p.name)
def test_each_schema_is_a_valid_draft_2020_12_schema(path: Path) -> None:
    schema = json.loads(path.read_text("utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize(
    ("name", "message"), VALID, ids=[f"{n}-{i}" for i, (n, _) in enumerate(VALID)]
)
def test_valid_message(name: str, message: Any) -> None:
    assert problems(name, message) == []


@pytest.mark.parametrize(
    ("name", "message", "why"), INVALID, ids=[f"{n}: {why}" for n, _, why in INVALID]
)
def test_invalid_message(name: str, message: Any, why: str) -> None:
    assert problems(name, message), f"{name} accepted a message with {why}"


@pytest.mark.parametrize("op", OPS)
def test_any_request_dispatches_on_op(op: str) -> None:
    """A request missing its op's one required field is refused by the any-request schema."""
    required = {
        "hello": ("protocol", 1),
        "new_game": ("players", ["red"]),
        "apply": ("event", BUY),
        "state": ("paths", []),
        "set_state": ("values", {}),
        "perft": ("depth", 2),
    }
    if op in required:
        key, value = required[op]
        full = {"op": op, key: value}
        if op == "new_game":
            full |= {"game": "pillars", "options": {}}
        assert problems("request", full) == []
        assert problems("request", {k: v for k, v in full.items() if k != key})
    else:
        assert problems("request", {"op": op}) == []


def test_the_session_in_protocol_md_validates() -> None:
    """Every request and response of the documented session fits its schema."""
    text = (SCHEMAS.parents[1] / "protocol.md").read_text(encoding="utf-8")
    session = text.split("## A session", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    lines = session.strip().splitlines()
    assert len(lines) >= 20 and len(lines) % 2 == 0
    ops = set()
    for request_line, response_line in zip(lines[::2], lines[1::2], strict=True):
        assert request_line.startswith("→ ") and response_line.startswith("← ")
        request, response = json.loads(request_line[2:]), json.loads(response_line[2:])
        op = request["op"]
        ops.add(op)
        assert problems("request", request) == [] and problems(f"{op}-request", request) == []
        assert problems(f"{op}-response", response) == [], (request, response)
    assert ops == set(OPS)
