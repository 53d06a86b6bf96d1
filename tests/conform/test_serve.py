"""rules-oracle serve: the protocol over our engines; a bad request never gets a traceback."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from oracle.protocol import shape_problem
from oracle.serve import serve
from reference.core.walk import leaves
from rules_oracle_cli.cli import app

runner = CliRunner()


def session(*requests: Any) -> list[dict[str, Any]]:
    lines = [r if isinstance(r, bytes) else json.dumps(r).encode() for r in requests]
    out = io.StringIO()
    code = serve(("palmyra",), 3, io.BytesIO(b"\n".join(lines) + b"\n"), out)
    assert code == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_session_answers_every_op_in_shape() -> None:
    ops: list[dict[str, Any]] = [
        {"op": "hello", "protocol": 1},
        {"op": "new_game", "game": "palmyra", "players": ["a", "b"], "options": {}},
        {"op": "to_act"},
        {"op": "legal"},
        {"op": "next"},
        {"op": "state", "paths": ["bank", "no.such.path"]},
        {"op": "set_state", "values": {"bank": 116, "players.b.coins": 4}},
        {"op": "state", "paths": ["bank", "players.b.coins"]},
        {"op": "apply", "event": {"type": "end_action", "player": "b"}},
        {"op": "bye"},
    ]
    responses = session(*ops)
    assert len(responses) == len(ops)
    for op, response in zip(ops, responses, strict=True):
        assert shape_problem(op["op"], response) is None, (op, response)
    assert responses[0]["capabilities"] == ["state", "legal", "set_state", "next", "perft"]
    assert responses[2] == {"ok": True, "to_act": "chance", "over": False}
    # a path the engine cannot answer is left out
    assert set(responses[5]["values"]) == {"bank"}
    assert responses[7]["values"] == {"bank": 116, "players.b.coins": 4}
    # a chance outcome is due: b's action is refused, under a rule id
    assert responses[8]["ok"] is False and responses[8]["illegal"] is True
    assert isinstance(responses[8]["rule"], str)


@pytest.mark.parametrize(
    ("request_", "error"),
    [
        (b"not json", "bad request: not JSON"),
        (b"[1, 2]", "a JSON object"),
        (b'{"op": "to_act", "op": "legal"}', "appears twice"),
        (b'{"op": "state", "paths": [NaN]}', "not strict JSON"),
        (b"\xff\xfe", "not UTF-8"),
        ({"op": "fly"}, "unknown op 'fly'"),
        ({"op": "to_act"}, "no game yet"),
        ({"op": "hello", "protocol": 2}, "protocol 2 unknown"),
        ({"op": "new_game", "game": "chess", "players": ["a", "b"]}, "not served"),
        ({"op": "new_game", "game": "palmyra", "players": "ab"}, "list of strings"),
        ({"op": "new_game", "game": "palmyra", "players": ["a"]}, "1 players"),
        ({"op": "new_game", "game": "palmyra", "players": ["a", "b"], "options": []}, "object"),
    ],
)
def test_a_bad_request_gets_an_error_and_the_session_goes_on(request_: Any, error: str) -> None:
    responses = session(request_, {"op": "hello", "protocol": 1})
    assert responses[0]["ok"] is False and error in responses[0]["error"], responses[0]
    assert responses[1]["ok"] is True


def test_bad_events_and_values_after_new_game() -> None:
    new = {"op": "new_game", "game": "palmyra", "players": ["a", "b"]}
    responses = session(
        new,
        {"op": "apply", "event": {"type": "teleport"}},
        {"op": "apply", "event": "draw"},
        {"op": "set_state", "values": {"bank": "lots"}},
        {"op": "set_state", "values": {"nothing": 1}},
        {"op": "result"},
        {"op": "state", "paths": "bank"},
    )
    assert [r["ok"] for r in responses] == [True] + [False] * 6
    assert "unknown event type 'teleport'" in responses[1]["error"]
    assert "must be an object" in responses[2]["error"]
    assert "not over" in responses[5]["error"]


def test_an_overlong_request_is_refused_without_reading_it_whole() -> None:
    responses = session(b"x" * 1_000_001, {"op": "bye"})
    assert "longer than" in responses[0]["error"] and responses[1] == {"ok": True}


def test_play_claims_full_claims_every_leaf_path_and_validates(tmp_path: Any) -> None:
    log = tmp_path / "full.jsonl"
    result = runner.invoke(
        app, ["play", "--game", "palmyra", "--players", "2", "--claims", "full", "-o", str(log)]
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    first = lines[1]["state"]
    assert "players.red.coins" in first and "bank" in first and "players.red" not in first
    assert "players.red.supply" in first  # a list is one leaf, compared whole
    assert runner.invoke(app, ["validate", str(log)]).exit_code == 0


def test_the_walker_lists_leaves_only() -> None:
    tree = {"a": {"b": 1, "c": [1, {"x": 2}], "d": {}}, "e": None, "f.g": 3}
    assert leaves(tree) == {"a.b": 1, "a.c": [1, {"x": 2}], "a.d": {}, "e": None}


def test_a_whole_position_compares_true_apart_from_1() -> None:
    from oracle.conform import _same_json

    assert _same_json({"a": True, "b": [1, "x"]}, {"b": [1, "x"], "a": True})
    assert not _same_json({"a": True}, {"a": 1})
    assert not _same_json({"a": [True]}, {"a": [1]})
    assert not _same_json({"a": 1, "b": 2}, {"a": 1})


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
_OPS = st.sampled_from(
    ["hello", "new_game", "apply", "to_act", "state", "legal", "result", "set_state", "next"]
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(
                ["op", "game", "players", "event", "paths", "values", "options", "protocol"]
            ),
            _OPS | _JSON,
        ),
        max_size=6,
    )
)
def test_any_request_gets_an_answer_of_the_right_shape(requests: list[dict[str, Any]]) -> None:
    """Whatever arrives, each line gets one response: ok, or an error (never a traceback)."""
    start = [{"op": "new_game", "game": "palmyra", "players": ["a", "b"]}]
    responses = session(*start, *requests)
    assert len(responses) == len(requests) + 1
    for request, response in zip(requests, responses[1:], strict=True):
        op = request.get("op")
        if isinstance(op, str) and op in ("to_act", "legal", "result", "state", "next"):
            assert shape_problem(op, response) is None, (request, response)
        assert isinstance(response.get("ok"), bool)
        if not response["ok"]:
            assert "internal error" not in str(response.get("error")), (request, response)
