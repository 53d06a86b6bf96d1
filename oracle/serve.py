"""``rules-oracle serve``: our engines behind the engine protocol v1 on stdin/stdout.

Every request line is read with the log reader's strict, bounded JSON decoder; a bad request
gets ``{"ok": false, "error": ...}`` and the session goes on. Our own bug gets an error response
naming it as ours (and a line on stderr), never a traceback on stdout.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable
from itertools import repeat
from pathlib import Path
from typing import IO, Any

from oracle.formats.log import MAX_LINE_BYTES, Malformed, decode_line
from oracle.perft import MAX_DEPTH, depth_problem
from oracle.protocol import CAPABILITIES, PROTOCOL_VERSION, EngineError
from oracle.refengine import NAME, LocalEngine


def _string_list(request: dict[str, Any], key: str) -> list[str]:
    value = request.get(key)
    if not isinstance(value, list) or not all(map(isinstance, value, repeat(str))):
        raise EngineError(f"'{key}' must be a list of strings")
    return value


def _object(request: dict[str, Any], key: str, default: Any = None) -> dict[str, Any]:
    value = request.get(key, default)
    if not isinstance(value, dict):
        raise EngineError(f"'{key}' must be an object")
    return value


class Session:
    """One protocol session over one LocalEngine, limited to the games it was started for."""

    def __init__(self, games: tuple[str, ...], seed: int) -> None:
        self.games = games
        self.engine = LocalEngine(seed)
        self.ops: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "hello": self.hello,
            "new_game": self.new_game,
            "apply": self.apply,
            "to_act": self.to_act,
            "state": self.state,
            "legal": self.legal,
            "result": self.result,
            "set_state": self.set_state,
            "next": self.next,
            "perft": self.perft,
            "bye": self.bye,
        }

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """The response to one decoded request."""
        op = request.get("op")
        if not isinstance(op, str) or op not in self.ops:
            return {"ok": False, "error": f"unknown op {op!r} (known: {', '.join(self.ops)})"}
        try:
            return self.ops[op](request)
        except EngineError as exc:
            return {"ok": False, "error": exc.message}

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        protocol = request.get("protocol")
        if type(protocol) is not int or protocol != PROTOCOL_VERSION:  # not true, not 1.0
            raise EngineError(f"protocol {json.dumps(protocol)} unknown (known: 1)")
        return {
            "ok": True,
            "name": NAME,
            "games": list(self.games),
            "capabilities": list(CAPABILITIES),
        }

    def new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        game = request.get("game")
        if not isinstance(game, str) or game not in self.games:
            raise EngineError(f"game {game!r} is not served here (served: {', '.join(self.games)})")
        players = tuple(_string_list(request, "players"))
        self.engine.new_game(game, players, _object(request, "options", {}))
        return {"ok": True}

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        refused = self.engine.apply(_object(request, "event"))
        if refused is None:
            return {"ok": True}
        return {"ok": False, "illegal": True, "rule": refused.rule, "message": refused.message}

    def to_act(self, request: dict[str, Any]) -> dict[str, Any]:
        actor, over = self.engine.to_act()
        return {"ok": True, "to_act": actor, "over": over}

    def state(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "values": self.engine.state(_string_list(request, "paths"))}

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "events": self.engine.legal()}

    def respond(self, request: dict[str, Any]) -> str:
        """The response to one decoded request as a line of JSON (without its newline):
        ``json.dumps(self.handle(request))``. The two answers a play-out asks after every
        event, every leaf and the legal events, are written from text the engine keeps
        (part by part from position to position), not encoded afresh."""
        op = request.get("op")
        try:
            if op == "state" and self.engine.asks_every_leaf(request.get("paths")):
                return '{"ok": true, "values": ' + self.engine.leaves_json() + "}"
            if op == "legal":
                return '{"ok": true, "events": ' + self.engine.legal_json() + "}"
        except EngineError:
            pass  # no game yet: the ordinary answer says so
        return json.dumps(self.handle(request), allow_nan=False)

    def result(self, request: dict[str, Any]) -> dict[str, Any]:
        scores, winners = self.engine.result()
        return {"ok": True, "scores": scores, "winners": winners}

    def set_state(self, request: dict[str, Any]) -> dict[str, Any]:
        self.engine.set_state(_object(request, "values"))
        return {"ok": True}

    def next(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "event": self.engine.next()}

    def perft(self, request: dict[str, Any]) -> dict[str, Any]:
        depth, divide = request.get("depth"), request.get("divide", False)
        if not isinstance(depth, int) or depth_problem(depth) is not None:
            raise EngineError(f"'depth' must be a whole number, 0 to {MAX_DEPTH}")
        if not isinstance(divide, bool):
            raise EngineError("'divide' must be true or false")
        count, rows = self.engine.perft(depth, divide)
        if not divide:
            return {"ok": True, "count": count}
        return {
            "ok": True,
            "count": count,
            "divide": [{"event": event, "count": n} for event, n in rows],
        }

    def bye(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True}


def serve(games: tuple[str, ...], seed: int, stdin: IO[bytes], stdout: IO[str]) -> int:
    """Answer requests until ``bye`` or the end of input. The exit code: 0, or 3 if our own
    bug showed during the session.

    The answers are flushed whenever no further request is waiting: a client that sent a
    batch of requests (the protocol lets it) gets their answers in one write, one that
    waits for each answer gets it at once."""
    session = Session(games, seed)
    internal = False
    number = 0
    asked: tuple[bytes, dict[str, Any]] = (b"", {})  # a play-out repeats its state request
    lines = _Lines(stdin, stdout)
    while True:
        chunk = lines.next()
        if chunk is None:
            stdout.flush()
            return 3 if internal else 0
        number += 1
        if not chunk:  # a line over the limit, skipped
            request: dict[str, Any] = {}
            text = json.dumps({"ok": False, "error": "request longer than 1000000 bytes"})
        else:
            try:
                bare = _BARE.get(chunk)
                if bare is not None:
                    request = {"op": bare}
                elif chunk == asked[0]:
                    request = asked[1]
                else:
                    request = decode_line(number, chunk)
                if request.get("op") == "state":
                    asked = (chunk, request)
                text = session.respond(request)
            except Malformed as exc:
                request = {}
                text = json.dumps({"ok": False, "error": f"bad request: {exc.reason}"})
            except Exception as exc:  # noqa: BLE001 - our own bug, answered as ours
                internal = True
                error = _internal(exc)
                sys.stderr.write(error + "\n")
                request, text = {}, json.dumps({"ok": False, "error": error})
        stdout.write(text + "\n")
        if request.get("op") == "bye":
            stdout.flush()
            return 3 if internal else 0


class _Lines:
    """The request lines of ``stdin``, each with its newline (the last may lack it), read
    in whatever chunks arrive; ``stdout`` is flushed before waiting for more input."""

    def __init__(self, stdin: IO[bytes], stdout: IO[str]) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.buffer = bytearray()

    def next(self) -> bytes | None:
        """The next line; ``b""`` for a line over MAX_LINE_BYTES (skipped whole); None at
        the end of input."""
        limit = MAX_LINE_BYTES + 1  # as readline(limit): the newline may be the last byte
        while True:
            newline = self.buffer.find(b"\n", 0, limit)
            if newline >= 0:
                line = bytes(self.buffer[: newline + 1])
                del self.buffer[: newline + 1]
                return line
            if len(self.buffer) >= limit:
                self._skip_line()
                return b""
            chunk = self._more()
            if not chunk:
                line, self.buffer = bytes(self.buffer), bytearray()
                return line or None
            self.buffer += chunk

    def _more(self) -> bytes:
        self.stdout.flush()  # every request there is has been answered
        chunk: bytes = self.stdin.read1(65536)  # type: ignore[attr-defined]
        return chunk

    def _skip_line(self) -> None:
        """Drop the rest of an over-long line, up to and with its newline."""
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                del self.buffer[: newline + 1]
                return
            self.buffer.clear()
            chunk = self._more()
            if not chunk:
                return
            self.buffer += chunk


_BARE = {(json.dumps({"op": op}) + "\n").encode(): op for op in ("to_act", "legal", "result")}
"""Requests without arguments as ``conform`` writes them, known without decoding."""


def _internal(exc: BaseException) -> str:
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return (
        f"internal error in rules-oracle, please report: {type(exc).__name__}: {exc} "
        f"({Path(where.filename).name}:{where.lineno})"
    )
