"""A scripted stand-in engine for the relay tests: canned protocol answers, no game rules.

It accepts every event except one of type ``illegal_move`` (refused by ``PIL-TURN-01``),
answers every state path but one starting ``unknown`` with the number 7, and lists two legal
events, so a test can tell exactly what a relay passed on and what it changed.
Run: ``python fake_engine.py``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

LEGAL = [
    {"type": "buy_resources", "player": "red", "resource": "wood", "count": 1},
    {"type": "pass_market", "player": "red"},
]


def answer(request: Any) -> dict[str, Any]:
    """The canned response to one request."""
    op = request.get("op") if isinstance(request, dict) else None
    if op == "hello":
        return {
            "ok": True,
            "name": "fake",
            "games": ["pillars"],
            "capabilities": ["state", "legal", "set_state", "next"],
        }
    if op == "apply":
        if request["event"].get("type") == "illegal_move":
            return {"ok": False, "illegal": True, "rule": "PIL-TURN-01", "message": "not your turn"}
        return {"ok": True}
    if op == "to_act":
        return {"ok": True, "to_act": "red", "over": False}
    if op == "state":
        return {
            "ok": True,
            "values": {p: 7 for p in request["paths"] if not p.startswith("unknown")},
        }
    if op == "legal":
        return {"ok": True, "events": LEGAL}
    if op == "result":
        return {"ok": True, "scores": {"red": 3, "blue": 2}, "winners": ["red"]}
    if op == "next":
        return {"ok": True, "event": LEGAL[1]}
    if op in ("new_game", "set_state", "bye"):
        return {"ok": True}
    return {"ok": False, "error": f"unknown op {op!r}"}


def main() -> int:
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            response: dict[str, Any] = {"ok": False, "error": "not JSON"}
            request = None
        else:
            response = answer(request)
        sys.stdout.write(json.dumps(response) + "\n")
        sys.stdout.flush()
        if isinstance(request, dict) and request.get("op") == "bye":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
