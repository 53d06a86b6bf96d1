"""The Node.js relay (examples/adapters/node/relay.mjs) speaks the protocol and plants faults.

Behind the relay is a scripted stand-in engine (fake_engine.py), so every difference between
what the engine said and what the relay passed on is the relay's doing. Each fault is set to
act after two applied events; before that the relay must be faithful.
"""

from __future__ import annotations

import json
import queue
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from protocol_client import Session
from protocol_schemas import problems

HERE = Path(__file__).resolve().parent
RELAY = HERE.parents[1] / "examples" / "adapters" / "node" / "relay.mjs"
FAKE = [sys.executable, str(HERE / "fake_engine.py")]

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None, reason="node is not installed (the Node adapter needs Node 18+)"
)

HELLO = {"op": "hello", "protocol": 1}
NEW_GAME = {"op": "new_game", "game": "pillars", "players": ["red", "blue"], "options": {}}
BUY = {"type": "buy_resources", "player": "red", "resource": "wood", "count": 1}
PASS = {"type": "pass_market", "player": "red"}
ILLEGAL = {"type": "illegal_move", "player": "blue"}
GOLD = {"op": "state", "paths": ["players.red.gold", "phase", "unknown.path"]}
EVERY_OP = [
    HELLO,
    NEW_GAME,
    {"op": "apply", "event": BUY},
    {"op": "apply", "event": ILLEGAL},
    {"op": "to_act"},
    GOLD,
    {"op": "legal"},
    {"op": "set_state", "values": {"players.red.gold": 3}},
    {"op": "next"},
    {"op": "result"},
    {"op": "no_such_op"},
]


def relay(*flags: str, timeout: float = 20.0) -> Session:
    return Session(["node", str(RELAY), *flags, "--", *FAKE], timeout=timeout)


def started(*flags: str, timeout: float = 20.0) -> Session:
    """A relay session past hello and new_game, with two events applied (the faults' trigger)."""
    s = relay("--after", "2", *flags, timeout=timeout)
    for request in (HELLO, NEW_GAME):
        assert s.ask(request)["ok"] is True
    return s


def two_events(s: Session) -> None:
    assert s.ask({"op": "apply", "event": BUY}) == {"ok": True}
    assert s.ask({"op": "next"}) == {"ok": True, "event": PASS}


def test_a_faithful_relay_passes_every_op_through() -> None:
    direct, relayed = Session(FAKE), relay()
    for request in EVERY_OP:
        expected, got = direct.ask(request), relayed.ask(request)
        if request["op"] == "hello":
            expected["name"] = "node relay for fake"
        assert got == expected, request
        if request["op"] != "no_such_op":
            assert problems(f"{request['op']}-response", got) == []
    assert relayed.ask({"op": "bye"}) == {"ok": True}
    assert relayed.close() == 0
    direct.close()


def test_the_relay_says_which_fault_it_plants() -> None:
    s = relay("--fault", "drop-legal", "--after", "5")
    assert s.ask(HELLO)["name"] == "node relay for fake [fault drop-legal]"
    s.close()


def test_lie_state_changes_the_named_path_after_the_trigger() -> None:
    s = started("--fault", "lie-state", "--path", "phase")
    assert s.ask(GOLD)["values"] == {"players.red.gold": 7, "phase": 7}
    two_events(s)
    assert s.ask(GOLD)["values"] == {"players.red.gold": 7, "phase": 8}
    s.close()


def test_lie_state_without_a_path_changes_the_first_number() -> None:
    s = started("--fault", "lie-state")
    two_events(s)
    assert s.ask(GOLD)["values"] == {"players.red.gold": 8, "phase": 7}
    s.close()


def test_a_new_game_starts_the_count_again() -> None:
    s = started("--fault", "lie-state")
    two_events(s)
    assert s.ask(NEW_GAME) == {"ok": True}
    assert s.ask(GOLD)["values"]["players.red.gold"] == 7
    s.close()


def test_refuse_legal_refuses_only_the_named_type_after_the_trigger() -> None:
    s = started("--fault", "refuse-legal", "--type", "pass_market")
    assert s.ask({"op": "apply", "event": PASS}) == {"ok": True}  # before the trigger
    assert s.ask({"op": "apply", "event": BUY}) == {"ok": True}
    assert s.ask({"op": "apply", "event": BUY}) == {"ok": True}  # other types go through
    refused = s.ask({"op": "apply", "event": PASS})
    assert refused["ok"] is False and refused["illegal"] is True and refused["rule"] is None
    assert problems("apply-response", refused) == []
    s.close()


def test_accept_illegal_answers_ok_to_a_refused_event() -> None:
    s = started("--fault", "accept-illegal")
    assert s.ask({"op": "apply", "event": ILLEGAL})["rule"] == "PIL-TURN-01"
    two_events(s)
    assert s.ask({"op": "apply", "event": ILLEGAL}) == {"ok": True}
    s.close()


def test_other_rule_names_another_rule_in_refusals() -> None:
    s = started("--fault", "other-rule")
    assert s.ask({"op": "apply", "event": ILLEGAL})["rule"] == "PIL-TURN-01"
    two_events(s)
    refused = s.ask({"op": "apply", "event": ILLEGAL})
    assert refused == {
        "ok": False,
        "illegal": True,
        "rule": "OTHER-RULE-01",
        "message": "not your turn",
    }
    s.close()


def test_drop_legal_leaves_out_the_last_event() -> None:
    s = started("--fault", "drop-legal")
    assert len(s.ask({"op": "legal"})["events"]) == 2
    two_events(s)
    assert s.ask({"op": "legal"})["events"] == [BUY]
    s.close()


def test_garbage_and_wrong_shape() -> None:
    s = started("--fault", "garbage")
    two_events(s)
    line = s.send_line(json.dumps({"op": "to_act"}))
    with pytest.raises(ValueError):
        json.loads(line)
    s.close()
    s = started("--fault", "wrong-shape")
    two_events(s)
    answer: Any = s.ask({"op": "to_act"})
    assert problems("to_act-response", answer) and problems("response", answer)
    s.close()


def test_hang_answers_nothing_but_ends_with_its_input() -> None:
    s = started("--fault", "hang", timeout=2.0)
    two_events(s)
    with pytest.raises(queue.Empty):
        s.send_line(json.dumps({"op": "to_act"}))
    assert s.close() == 0


def test_crash_exits_without_answering() -> None:
    s = started("--fault", "crash")
    two_events(s)
    assert s.send_line(json.dumps({"op": "to_act"})) == b""
    assert s.close() == 70
    assert "planted fault: crash" in "".join(s.errors)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--fault", "explode", "--", *FAKE], "unknown fault explode"),
        (["--after", "two", "--", *FAKE], "--after needs a whole number"),
        (["--colour", "red", "--", *FAKE], "unknown option --colour"),
        ([], "name the engine after -- or give --game"),
    ],
)
def test_usage_errors_exit_2_with_a_message(flags: list[str], message: str) -> None:
    s = Session(["node", str(RELAY), *flags])
    assert s.close() == 2
    assert message in "".join(s.errors)


def test_an_engine_that_cannot_start_is_one_line_not_a_stack_trace() -> None:
    s = Session(["node", str(RELAY), "--", str(HERE / "no-such-engine")])
    assert s.close() == 127
    assert "".join(s.errors).startswith("relay: cannot run")
    assert "node:internal" not in "".join(s.errors)
