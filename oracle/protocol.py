"""The engine protocol, version 1: JSON Lines between the oracle and an engine (docs/protocol.md).

One request per line from the oracle, exactly one response per line from the engine.
``EngineProcess`` runs an engine under test as a subprocess, with a timeout per request;
``RemoteEngine`` puts it behind the same small driver interface as our own engine
(oracle.refengine.LocalEngine), so the scenario runner and ``conform`` drive either one.

A fault of the engine under test (crash, hang, garbage, a missing or wrongly shaped response)
raises ``EngineFault``: a finding about that engine, never our crash.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import subprocess
import time
from collections import deque
from collections.abc import Mapping
from typing import Any, Protocol

import attrs

from oracle.formats.log import MAX_LINE_BYTES, Malformed, decode_line

PROTOCOL_VERSION = 1
CAPABILITIES: tuple[str, ...] = ("state", "legal", "set_state", "next", "perft")
OPS: tuple[str, ...] = (
    "hello",
    "new_game",
    "apply",
    "to_act",
    "state",
    "legal",
    "result",
    "set_state",
    "next",
    "perft",
    "bye",
)
STDERR_KEEP = 64
"""How many of the engine's last stderr lines a report keeps."""
_FLAT_OPS = frozenset({"apply", "to_act"})
_FLAT_KEEP, _FLAT_BYTES = 256, 512
"""The answers to ``apply`` and ``to_act`` are a few short lines said again and again
(``{"ok": true}``, who acts next): up to this many such lines are kept decoded."""


@attrs.frozen
class Refusal:
    """The engine refused an event as illegal, naming a rule id (or None)."""

    rule: str | None
    message: str
    citation: str | None = None

    @property
    def rule_named(self) -> str:
        """The rule id for a report's text (``rule: null`` is said in words, never None)."""
        return self.rule if self.rule is not None else "a rule it did not name"


class EngineError(Exception):
    """The engine answered ``{"ok": false, "error": ...}``: it could not do what was asked."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class EngineFault(Exception):
    """The engine under test broke the protocol: crash, hang, garbage, missing or bad shape."""

    def __init__(self, kind: str, message: str, request: Mapping[str, Any] | None) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.request = dict(request) if request is not None else None


class Driver(Protocol):
    """One position of one game, driven through the protocol's operations."""

    @property
    def capabilities(self) -> frozenset[str]:
        """Which optional operations the engine has (see CAPABILITIES)."""

    @property
    def reference(self) -> bool:
        """Whether this is our own engine (its refusals of a file are the file's fault)."""

    def new_game(self, game: str, players: tuple[str, ...], options: Mapping[str, Any]) -> None:
        """Start a game at the standard setup."""

    def apply(self, event: Mapping[str, Any]) -> Refusal | None:
        """Apply an event: None when applied, a Refusal when refused as illegal."""

    def probe(self, event: Mapping[str, Any]) -> Refusal | None:
        """Whether an event applies here, leaving the position as it was."""

    def to_act(self) -> tuple[str, bool]:
        """Who acts next (a player or ``chance``) and whether the game is over."""

    def state(self, paths: list[str]) -> dict[str, Any]:
        """The values at these paths; a path the engine cannot answer is left out."""

    def legal(self) -> list[dict[str, Any]]:
        """The legal events here."""

    def result(self) -> tuple[dict[str, Any], list[Any]]:
        """Scores and winners of the finished game."""

    def set_state(self, values: Mapping[str, Any]) -> None:
        """Set values by path on the current position."""

    def next(self) -> dict[str, Any]:
        """The engine's own next event, applied on its side."""


# --- Response shapes -------------------------------------------------------------------------


def _is_event(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("type"), str)


def shape_problem(op: str, response: Any) -> str | None:
    """Why a response to ``op`` has the wrong shape, or None. Extra fields are allowed."""
    if not isinstance(response, dict) or not isinstance(response.get("ok"), bool):
        return "a response is an object with a boolean 'ok'"
    if not response["ok"]:
        if op == "apply" and response.get("illegal") is True:
            rule = response.get("rule")
            if rule is not None and not isinstance(rule, str):
                return "'rule' must be a string or null"
            if not isinstance(response.get("message"), str):
                return "a refusal needs a string 'message'"
            return None
        if not isinstance(response.get("error"), str):
            return "a failure needs a string 'error' (or, for apply, 'illegal': true)"
        return None
    return _ok_shape(op, response)


def _ok_shape(op: str, r: dict[str, Any]) -> str | None:
    if op == "hello":
        games, caps = r.get("games"), r.get("capabilities")
        if not isinstance(r.get("name"), str):
            return "hello needs a string 'name'"
        if not isinstance(games, list) or not all(isinstance(g, str) for g in games):
            return "hello needs 'games', a list of names"
        if not isinstance(caps, list) or not all(isinstance(c, str) for c in caps):
            return "hello needs 'capabilities', a list of names"
    elif op == "to_act":
        if not isinstance(r.get("to_act"), str) or not isinstance(r.get("over"), bool):
            return "to_act needs a string 'to_act' and a boolean 'over'"
    elif op == "state":
        if not isinstance(r.get("values"), dict):
            return "state needs an object 'values'"
    elif op == "legal":
        events = r.get("events")
        if not isinstance(events, list) or not all(_is_event(e) for e in events):
            return "legal needs 'events', a list of events with a string 'type'"
    elif op == "result":
        winners = r.get("winners")
        if not isinstance(r.get("scores"), dict) or not isinstance(winners, list):
            return "result needs an object 'scores' and a list 'winners'"
    elif op == "next" and not _is_event(r.get("event")):
        return "next needs 'event', an event with a string 'type'"
    elif op == "perft":
        return _perft_shape(r)
    return None


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _perft_shape(r: dict[str, Any]) -> str | None:
    if not _is_count(r.get("count")):
        return "perft needs 'count', a whole number 0 or more"
    rows = r.get("divide")
    if rows is None:
        return None
    if not isinstance(rows, list) or not all(
        isinstance(row, dict) and _is_event(row.get("event")) and _is_count(row.get("count"))
        for row in rows
    ):
        return "perft's 'divide' is a list of {'event': an event, 'count': a whole number}"
    return None


# --- The subprocess --------------------------------------------------------------------------


class EngineProcess:
    """An engine under test, one subprocess at a time; ``request`` sends one line and reads one.

    The command is split like a shell would (shlex) but run without one. One thread does all
    the I/O with ``selectors`` (no reader threads: they would contend for the interpreter
    lock on every round-trip), so a request can time out even if the engine stops reading
    or writing; stderr is kept in a bounded buffer for the report.
    """

    def __init__(self, command: str, timeout: float) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("the engine command is empty")
        self.timeout = timeout
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_KEEP)
        self.last_request: dict[str, Any] | None = None
        self.requests = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._sel: selectors.BaseSelector | None = None
        self._flat: dict[tuple[str, bytes], dict[str, Any]] = {}
        self._out = bytearray()
        self._err = bytearray()
        self._owed: deque[tuple[dict[str, Any], int]] = deque()
        """The requests sent whose answers are not read yet, oldest first, each with the
        count of request bytes up to its end."""
        self._unsent = bytearray()
        self._queued = self._written = 0
        self._broken: str | None = None
        """Why the engine's stdin cannot be written any more (it closed it, or exited)."""
        self._watching = False

    def start(self) -> None:
        """Start (or restart) the engine. Raises EngineFault if it cannot be started."""
        self.stop()
        self._out, self._err = bytearray(), bytearray()
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except OSError as exc:
            raise EngineFault("crash", f"cannot start {self.argv[0]}: {exc}", None) from exc
        stdin, stdout, stderr = self._proc.stdin, self._proc.stdout, self._proc.stderr
        if stdin is None or stdout is None or stderr is None:
            raise EngineFault("crash", "no pipes to the engine", None)
        for stream in (stdin, stdout, stderr):
            os.set_blocking(stream.fileno(), False)
        # One selector for the process's life: made per request it cost as much as the
        # round-trip itself. stdin is watched only while a request is partly written.
        self._sel = selectors.DefaultSelector()
        self._sel.register(stdout, selectors.EVENT_READ, "out")
        self._sel.register(stderr, selectors.EVENT_READ, "err")

    @property
    def running(self) -> bool:
        """Whether the engine process is alive."""
        return self._proc is not None and self._proc.poll() is None

    def request(self, message: Mapping[str, Any], line: bytes | None = None) -> dict[str, Any]:
        """Send one request; the engine's response, checked for shape. Raises EngineFault.
        ``line`` is the request already encoded (with its newline), if the caller has it."""
        response = self.request_or_same(message, line, None)
        if response is None:
            raise self._fault("crash", "no response")  # never: no line is None's twin
        return response

    def request_or_same(
        self, message: Mapping[str, Any], line: bytes | None, same: bytes | None
    ) -> dict[str, Any] | None:
        """As ``request``, but None when the response is byte for byte ``same`` (a response
        the caller expects, with its newline): nothing to decode, it means exactly that."""
        self.settle()  # answers owed to an earlier batch are never taken for this one's
        self.send(message, line)
        return self.receive(same)

    def send(self, message: Mapping[str, Any], line: bytes | None = None) -> None:
        """Queue one request without waiting for its answer (``receive`` reads the answers
        in order; ``push`` or ``receive`` writes the queue). The protocol lets requests
        arrive before earlier answers are read: one line each way, in the same order."""
        request = dict(message)
        if self._proc is None or not self._owed and self._proc.poll() is not None:
            self.last_request = request
            raise self._fault("crash", "the engine is not running (it exited)")
        self.requests += 1
        data = line if line is not None else encode_request(message)
        if self._broken is None:
            self._unsent += data
        self._queued += len(data)
        self._owed.append((request, self._queued))

    def push(self) -> None:
        """Write what the pipe takes now of the queued requests (never waits)."""
        proc = self._proc
        if not self._unsent or proc is None or proc.stdin is None:
            return
        try:
            sent = os.write(proc.stdin.fileno(), self._unsent)
        except BlockingIOError:
            return
        except OSError as exc:
            # An engine that exited or closed its stdin: the answers it owes show what
            # happened (an exit with its code, or no answer), request by request.
            self._broken = f"cannot write to the engine: {exc}"
            self._unsent.clear()
            return
        self._written += sent
        del self._unsent[:sent]

    def receive(self, same: bytes | None = None) -> dict[str, Any] | None:
        """The answer to the oldest request sent and not answered yet, checked for shape;
        None when it is byte for byte ``same``. A fault names that request, and its
        timeout runs from now (the engine answers in order: it has answered the ones
        before)."""
        if not self._owed:
            raise RuntimeError("receive() with no request sent")  # our bug
        message, end = self._owed.popleft()
        self.last_request = message
        op = str(message.get("op"))
        raw = self._line(end)
        if raw == same:
            return None
        known = self._flat.get((op, raw)) if op in _FLAT_OPS else None
        if known is not None:
            return dict(known)  # this very line was decoded and checked before
        try:
            response = decode_line(1, raw)
        except Malformed as exc:
            raise self._fault("garbage", f"{exc.reason}: {_clip(raw)}") from exc
        problem = shape_problem(op, response)
        if problem:
            raise self._fault("shape", f"{problem}: {_clip(raw)}")
        if op in _FLAT_OPS and len(self._flat) < _FLAT_KEEP and len(raw) <= _FLAT_BYTES:
            self._flat[(op, raw)] = dict(response)
        return response

    def settle(self) -> None:
        """Read and drop the answers still owed: a game that stopped at a finding before
        reading every answer of a batch it sent. They are never compared (the sequential
        run would not have sent those requests); an engine that fails to answer them is
        stopped, to be started again for the next game."""
        while self._owed:
            message, end = self._owed.popleft()
            self.last_request = message
            try:
                self._line(end)
            except EngineFault:
                return  # the engine is stopped (and its queue with it)

    def _line(self, end: int) -> bytes:
        """The next line from the engine's stdout, within the timeout, writing the queued
        requests as the pipe takes them; ``end`` counts the request bytes the answer needs."""
        proc, sel = self._proc, self._sel
        if proc is None or proc.stdin is None or sel is None:
            raise self._fault("crash", "the engine is not running")
        deadline = time.monotonic() + self.timeout
        self.push()  # a batch of requests mostly fits the pipe
        try:
            while True:
                newline = self._out.find(b"\n")
                if newline >= 0:
                    line = bytes(self._out[: newline + 1])
                    del self._out[: newline + 1]
                    return line
                if len(self._out) > MAX_LINE_BYTES:
                    raise self._fault("garbage", f"a response longer than {MAX_LINE_BYTES} bytes")
                if self._broken is not None and self._written < end:
                    raise self._fault("crash", self._broken)  # this request never got there
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._fault("hang", f"no response within {self.timeout:g} s")
                self._watch_stdin(bool(self._unsent))
                for key, _ in sel.select(left):
                    if key.data == "in":
                        self.push()
                    elif not self._read(key.data, proc):
                        if key.data == "out":
                            code = self._wait_exit()
                            message = f"the engine exited (code {code}) without a response"
                            raise self._fault("crash", message)
                        sel.unregister(key.fileobj)
        finally:
            if self._sel is sel:
                self._watch_stdin(False)

    def _watch_stdin(self, watch: bool) -> None:
        """Have the selector watch the engine's stdin only while requests wait to be written."""
        proc, sel = self._proc, self._sel
        if watch == self._watching or proc is None or proc.stdin is None or sel is None:
            return
        if watch:
            sel.register(proc.stdin, selectors.EVENT_WRITE, "in")
        else:
            sel.unregister(proc.stdin)
        self._watching = watch

    def _read(self, which: str, proc: subprocess.Popen[bytes]) -> bool:
        """Read what is there from stdout or stderr; False at end of file."""
        stream = proc.stdout if which == "out" else proc.stderr
        if stream is None:
            return False
        try:
            chunk = os.read(stream.fileno(), 65536)
        except BlockingIOError:
            return True
        except OSError:
            return False
        if not chunk:
            return False
        if which == "out":
            self._out += chunk
        else:
            self._err += chunk
            *lines, rest = self._err.split(b"\n")
            self.stderr_tail.extend(x.decode("utf-8", "replace") for x in lines)
            self._err = bytearray(rest[-4096:])
        return True

    def _fault(self, kind: str, message: str) -> EngineFault:
        fault = EngineFault(kind, message, self.last_request)
        self._drain_stderr()
        self.stop()
        return fault

    def _drain_stderr(self) -> None:
        """Keep what the engine wrote to stderr before it failed (it may explain why)."""
        proc = self._proc
        if proc is None or proc.stderr is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.2)
        for _ in range(16):
            if not self._read("err", proc):
                break
        if self._err:
            self.stderr_tail.append(self._err.decode("utf-8", "replace"))
            self._err = bytearray()

    def _wait_exit(self) -> int | None:
        if self._proc is None:
            return None
        try:
            return self._proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return None

    def stop(self) -> None:
        """Stop the engine (politely if it is idle, else by force) and reap it."""
        proc, self._proc = self._proc, None
        sel, self._sel = self._sel, None
        self._owed.clear()
        self._unsent.clear()
        self._queued = self._written = 0
        self._broken = None
        self._watching = False
        if sel is not None:
            sel.close()
        if proc is None:
            return
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        try:
            proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def close(self) -> None:
        """Say bye if the engine is running, then stop it."""
        if self.running:
            with contextlib.suppress(EngineFault):
                self.request({"op": "bye"})
        self.stop()


def encode_request(message: Mapping[str, Any]) -> bytes:
    """One request as a line of JSON."""
    return json.dumps(message, allow_nan=False).encode() + b"\n"


def _clip(line: Any, size: int = 120) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else str(line)
    text = text.strip()
    return text if len(text) <= size else text[:size] + "..."


_LEGAL: dict[str, Any] = {"op": "legal"}
_LEGAL_LINE = encode_request(_LEGAL)
_TO_ACT: dict[str, Any] = {"op": "to_act"}
_TO_ACT_LINE = encode_request(_TO_ACT)


# --- The engine under test as a driver -------------------------------------------------------


class RemoteEngine:
    """An engine under test behind the driver interface. It remembers how the current
    position was built (new game, events, set values), so a probe that applied can be undone
    by rebuilding the position."""

    reference = False

    def __init__(self, process: EngineProcess) -> None:
        self.process = process
        self.name = ""
        self.games: tuple[str, ...] = ()
        self.capabilities: frozenset[str] = frozenset()
        self._built: list[dict[str, Any]] = []
        self.started = time.monotonic()
        self._state_request: tuple[tuple[str, ...], dict[str, Any], bytes] | None = None

    def hello(self) -> None:
        """Start the process and greet it. Raises EngineFault or EngineError."""
        self.process.start()
        r = self._ok({"op": "hello", "protocol": PROTOCOL_VERSION})
        self.name = str(r["name"])
        self.games = tuple(r["games"])
        self.capabilities = frozenset(r["capabilities"]) & frozenset(CAPABILITIES)

    def _ok(self, message: dict[str, Any]) -> dict[str, Any]:
        response = self._ok_or_same(message, None, None)
        if response is None:
            raise EngineFault("shape", "no response", message)  # never: None has no twin
        return response

    def _ok_or_same(
        self, message: dict[str, Any], line: bytes | None, same: bytes | None
    ) -> dict[str, Any] | None:
        self.process.settle()
        self.process.send(message, line)
        return self._answer_ok(same)

    def _answer_ok(self, same: bytes | None) -> dict[str, Any] | None:
        """The next answer, a success (None if it is byte for byte ``same``); a failure
        raises EngineError."""
        response = self.process.receive(same)
        if response is None:
            return None
        if not response["ok"]:
            if response.get("illegal") is True:
                message = self.process.last_request
                raise EngineFault("shape", "'illegal' answers only apply", message)
            raise EngineError(str(response["error"]))
        return response

    def new_game(self, game: str, players: tuple[str, ...], options: Mapping[str, Any]) -> None:
        message = {
            "op": "new_game",
            "game": game,
            "players": list(players),
            "options": dict(options),
        }
        self._ok(message)
        self._built = [message]

    # Each request a play-out asks after every event can be sent ahead (``ask_...``) and its
    # answer read later (``answer_...``), in the order sent: a batch of requests costs one
    # round-trip instead of one each.

    def apply(self, event: Mapping[str, Any]) -> Refusal | None:
        self.process.settle()
        self.ask_apply(event)
        return self.answer_apply()

    def ask_apply(self, event: Mapping[str, Any]) -> None:
        """Send ``apply`` for ``event``; ``answer_apply`` reads its answer."""
        self.process.send({"op": "apply", "event": dict(event)})

    def answer_apply(self) -> Refusal | None:
        """The answer to the ``apply`` sent first of those not answered yet."""
        response = self.process.receive(None)
        if response is None:
            raise EngineFault("crash", "no response", self.process.last_request)  # never
        if response["ok"]:
            message = self.process.last_request
            if message is not None:
                self._built.append(message)
            return None
        if response.get("illegal") is True:
            return Refusal(response.get("rule"), str(response.get("message")))
        raise EngineError(str(response["error"]))

    def probe(self, event: Mapping[str, Any]) -> Refusal | None:
        built = list(self._built)
        refusal = self.apply(event)
        if refusal is None:
            for message in built:
                self._ok(message)
            self._built = built
        return refusal

    def to_act(self) -> tuple[str, bool]:
        self.process.settle()
        self.ask_to_act()
        return self.answer_to_act()

    def ask_to_act(self) -> None:
        self.process.send(_TO_ACT, _TO_ACT_LINE)

    def answer_to_act(self) -> tuple[str, bool]:
        r = self._answer_ok(None)
        if r is None:
            raise EngineFault("shape", "no response", self.process.last_request)  # never
        return str(r["to_act"]), bool(r["over"])

    def state(self, paths: list[str]) -> dict[str, Any]:
        values = self.state_or_same(paths, None)
        if values is None:
            raise EngineFault("shape", "no values", self.process.last_request)  # never
        return values

    def state_or_same(self, paths: list[str], same: bytes | None) -> dict[str, Any] | None:
        """The values at ``paths``, or None when the engine answers byte for byte ``same``
        (the answer the caller expects, encoded as ``serve`` would: then it means exactly
        those values, with nothing to decode or compare)."""
        self.process.settle()
        self.ask_state(paths)
        return self.answer_state_or_same(same)

    def ask_state(self, paths: list[str]) -> None:
        # A play-out asks the same paths after every event: the request is encoded once.
        key = tuple(paths)
        if self._state_request is None or self._state_request[0] != key:
            message = {"op": "state", "paths": list(key)}
            self._state_request = (key, message, encode_request(message))
        _, message, line = self._state_request
        self.process.send(message, line)

    def answer_state_or_same(self, same: bytes | None) -> dict[str, Any] | None:
        """The answer to a ``state`` sent ahead: as ``state_or_same``."""
        response = self._answer_ok(same)
        if response is None:
            return None
        values: dict[str, Any] = response["values"]
        return values

    def legal(self) -> list[dict[str, Any]]:
        events = self.legal_or_same(None)
        if events is None:
            raise EngineFault("shape", "no events", self.process.last_request)  # never
        return events

    def legal_or_same(self, same: bytes | None) -> list[dict[str, Any]] | None:
        """The legal events, or None when the engine answers byte for byte ``same``."""
        self.process.settle()
        self.ask_legal()
        return self.answer_legal_or_same(same)

    def ask_legal(self) -> None:
        self.process.send(_LEGAL, _LEGAL_LINE)

    def answer_legal_or_same(self, same: bytes | None) -> list[dict[str, Any]] | None:
        """The answer to a ``legal`` sent ahead: as ``legal_or_same``."""
        response = self._answer_ok(same)
        if response is None:
            return None
        events: list[dict[str, Any]] = response["events"]
        return events

    def result(self) -> tuple[dict[str, Any], list[Any]]:
        r = self._ok({"op": "result"})
        return r["scores"], r["winners"]

    def set_state(self, values: Mapping[str, Any]) -> None:
        message = {"op": "set_state", "values": dict(values)}
        self._ok(message)
        self._built.append(message)

    def next(self) -> dict[str, Any]:
        event: dict[str, Any] = self._ok({"op": "next"})["event"]
        self._built.append({"op": "apply", "event": event})
        return event

    def perft(self, depth: int, divide: bool) -> tuple[int, list[tuple[dict[str, Any], int]]]:
        """The engine's count of the event sequences of ``depth`` events from its position
        (capability ``perft``), and with ``divide`` the count under each first event; the
        position stays as it was."""
        request = {"op": "perft", "depth": depth, "divide": divide}
        r = self._ok(request)
        rows = r.get("divide")
        if divide and rows is None:
            raise EngineFault("shape", "perft with divide needs 'divide'", request)
        return int(r["count"]), [(dict(row["event"]), int(row["count"])) for row in rows or []]
