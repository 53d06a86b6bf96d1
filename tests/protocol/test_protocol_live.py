"""A live ``rules-oracle serve --game G`` session through every op, every message validated.

Every request sent is checked against the any-request schema and its op's schema, every
response against its op's response schema and the any-response schema; the session also
checks what docs/protocol.md promises: an unknown path is left out, a refused event leaves
the position as it was, a malformed event is a failure (not a refusal), nothing is legal
after the end and an event then is refused by CORE-END-01, and ``bye`` ends the process.

To run them with another checkout's rules-oracle, set ``RULES_ORACLE`` to its command,
e.g. ``RULES_ORACLE=rules-oracle``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from protocol_client import Session, serve_command
from protocol_schemas import problems

from reference.registry import game_names

PLAYERS = ["red", "blue"]
TURN_RULE = {"pillars": "PIL-TURN-01", "milestones": "MIL-TURN-01", "palmyra": "PAL-TURN-01"}
TURN_RULE["municipium"] = "MUN-TURN-01"
COUNTER = {  # a whole-number path of the first player, for set_state
    "pillars": "players.red.gold",
    "milestones": "players.red.coins",
    "palmyra": "players.red.coins",
    "municipium": "players.red.favours",
}
MAX_EVENTS = 20_000


RELAY = Path(__file__).resolve().parents[2] / "examples" / "adapters" / "node" / "relay.mjs"
ROUTES = ["serve", "node relay in front of serve"]


def engine_command(route: str, game: str) -> list[str]:
    """serve itself, or the Node example adapter relaying to it faithfully."""
    if route == "serve":
        return serve_command(game)
    if shutil.which("node") is None:
        pytest.skip("node is not installed (the Node adapter needs Node 18+)")
    return ["node", str(RELAY), "--", *serve_command(game)]


class Checked:
    """A session whose every request and response is validated against the schemas."""

    def __init__(self, command: list[str]) -> None:
        self.session = Session(command)

    def ask(self, request: dict[str, Any]) -> Any:
        op = request["op"]
        assert problems("request", request) == [], request
        assert problems(f"{op}-request", request) == [], request
        response = self.session.ask(request)
        assert problems(f"{op}-response", response) == [], (request, response)
        assert problems("response", response) == [], (request, response)
        return response

    def ok(self, request: dict[str, Any]) -> Any:
        response = self.ask(request)
        assert response["ok"] is True, (request, response)
        return response

    def failure(self, request: dict[str, Any]) -> str:
        response = self.ask(request)
        assert response["ok"] is False and "illegal" not in response, (request, response)
        return str(response["error"])

    def position(self, paths: list[str]) -> tuple[Any, ...]:
        """What the engine says about the position: to_act, legal events, these values."""
        return (
            self.ok({"op": "to_act"}),
            self.ok({"op": "legal"})["events"],
            self.ok({"op": "state", "paths": paths})["values"],
        )


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("game", game_names())
def test_a_whole_session_through_every_op(game: str, route: str) -> None:
    s = Checked(engine_command(route, game))
    hello = s.ok({"op": "hello", "protocol": 1})
    assert game in hello["games"]
    assert {"state", "legal", "set_state", "next"} <= set(hello["capabilities"])
    s.failure({"op": "to_act"})  # no game yet
    s.failure({"op": "new_game", "game": "no_such_game", "players": PLAYERS, "options": {}})
    s.ok({"op": "new_game", "game": game, "players": PLAYERS, "options": {}})

    paths = ["phase", COUNTER[game], "players.red", "no_such_field", "players.nobody.x"]
    values = s.ok({"op": "state", "paths": paths})["values"]
    assert set(values) == {"phase", COUNTER[game], "players.red"}  # unknown paths left out

    while s.ok({"op": "to_act"})["to_act"] == "chance":
        s.ok({"op": "apply", "event": s.ok({"op": "legal"})["events"][0]})
    before = s.position(paths)
    actor = before[0]["to_act"]
    event = before[1][0]
    other = next(p for p in PLAYERS if p != actor)
    refused = s.ask({"op": "apply", "event": dict(event, player=other)})
    assert refused["ok"] is False and refused["illegal"] is True
    assert refused["rule"] == TURN_RULE[game]
    s.failure({"op": "apply", "event": {"type": "no_such_event", "player": actor}})
    assert s.position(paths) == before  # a refused or malformed event changes nothing

    counter = values[COUNTER[game]]
    s.ok({"op": "set_state", "values": {COUNTER[game]: counter}})
    s.failure({"op": "set_state", "values": {"no_such_field": 1}})
    assert s.position(paths) == before
    s.failure({"op": "result"})  # not over yet

    # perft counts from here and leaves the position as it was; its divide adds up
    legal = before[1]
    assert s.ok({"op": "perft", "depth": 1})["count"] == len(legal)
    two = s.ok({"op": "perft", "depth": 2, "divide": True})
    assert [row["event"] for row in two["divide"]] == legal
    assert two["count"] == sum(row["count"] for row in two["divide"])
    assert s.ok({"op": "perft", "depth": 0})["count"] == 1
    negative = s.session.ask({"op": "perft", "depth": -1})  # not a request the schema allows
    assert negative["ok"] is False and problems("perft-response", negative) == []
    deep = s.session.ask({"op": "perft", "depth": 100_000})  # nor this: over 100 (our stack)
    assert deep["ok"] is False and problems("perft-response", deep) == []
    assert s.position(paths) == before

    for unknown in ({"op": "no_such_op"}, {"protocol": 1}):  # not requests: no schema applies
        answer = s.session.ask(unknown)
        assert answer["ok"] is False and problems("response", answer) == []
    answer = json.loads(s.session.send_line("this is not json"))
    assert answer["ok"] is False and problems("response", answer) == []

    first = None
    for _ in range(MAX_EVENTS):
        if s.ok({"op": "to_act"})["over"]:
            break
        chosen = s.ok({"op": "next"})["event"]
        first = first or chosen
    else:
        pytest.fail(f"no end after {MAX_EVENTS} events")
    assert s.ok({"op": "legal"})["events"] == []
    result = s.ok({"op": "result"})
    assert set(result["scores"]) == set(PLAYERS) and set(result["winners"]) <= set(PLAYERS)
    s.failure({"op": "next"})
    assert s.ok({"op": "perft", "depth": 2, "divide": True}) == {
        "ok": True,
        "count": 0,
        "divide": [],
    }
    after_end = s.ask({"op": "apply", "event": first})
    assert after_end["ok"] is False and after_end["rule"] == "CORE-END-01"
    s.ok({"op": "bye"})
    assert s.session.close() == 0
