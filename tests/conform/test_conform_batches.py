"""Requests sent as a batch, before earlier answers are read (docs/protocol.md "The wire")."""

from __future__ import annotations

from oracle.conform import Conformance
from oracle.findings import Settings
from oracle.protocol import EngineProcess
from tests.conform.conftest import SERVE, adapter


def test_a_batch_is_answered_in_order_and_a_stopped_batch_is_dropped() -> None:
    process = EngineProcess(f"{SERVE} --game palmyra", 10)
    process.start()
    try:
        process.request({"op": "new_game", "game": "palmyra", "players": ["a", "b"]})
        wrong = {"type": "pass", "player": "nobody"}
        process.send({"op": "apply", "event": wrong})
        process.send({"op": "to_act"})
        process.send({"op": "result"})
        first = process.receive()
        assert first is not None and first["ok"] is False
        assert process.last_request == {"op": "apply", "event": wrong}
        # The game stops here: the two answers owed are read and dropped, so the next
        # request gets its own answer, not the to_act answer sent for before it.
        answer = process.request({"op": "hello", "protocol": 1})
        assert answer["ok"] is True and answer["games"] == ["palmyra"]
        assert process.last_request == {"op": "hello", "protocol": 1}
    finally:
        process.close()


def test_a_refused_event_in_a_batch_stops_that_game_only() -> None:
    # The engine refuses every end_action: each game stops at its first one, with the
    # to_act, state and legal requests sent with it unread; the next game must start clean
    # (its comparisons would fail if it read an answer meant for the game before).
    settings = Settings(
        engine=adapter("palmyra", "--refuse", "end_action"),
        game="palmyra",
        players=(2,),
        games=2,
        parts=("playout",),
        shrink=False,
    )
    report = Conformance(settings).run()
    kinds = [f.kind for f in report.findings]
    assert kinds == ["refused_legal", "refused_legal"], [f.message for f in report.findings]
    assert all(f.probe is not None and f.probe["type"] == "end_action" for f in report.findings)
    assert all(f.request is not None and f.request["op"] == "apply" for f in report.findings)
