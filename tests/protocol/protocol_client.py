"""A small test client for the engine protocol: one subprocess, one request line, one response."""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import sys
import threading
from typing import IO, Any

TIMEOUT = 20.0
"""Seconds a test waits for one response before it calls the engine hung."""


def rules_oracle(*args: str) -> list[str]:
    """The ``rules-oracle`` command of this environment with ``args``. The environment
    variable ``RULES_ORACLE`` may name another one, e.g. another checkout's."""
    prefix = os.environ.get("RULES_ORACLE")
    argv = shlex.split(prefix) if prefix else [sys.executable, "-m", "rules_oracle_cli"]
    return [*argv, *args]


def serve_command(*games: str) -> list[str]:
    """``rules-oracle serve --game G ...``."""
    return rules_oracle("serve", *[arg for game in games for arg in ("--game", game)])


class Session:
    """An engine subprocess: ``ask`` writes one request and returns the one response."""

    def __init__(self, argv: list[str], timeout: float = TIMEOUT) -> None:
        self.timeout = timeout
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.errors: list[str] = []
        self.readers = [
            threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True),
            threading.Thread(target=self._stderr, args=(self.proc.stderr,), daemon=True),
        ]
        for reader in self.readers:
            reader.start()

    def _read(self, stream: IO[bytes]) -> None:
        for line in iter(stream.readline, b""):
            self.lines.put(line)
        self.lines.put(b"")

    def _stderr(self, stream: IO[bytes]) -> None:
        for line in iter(stream.readline, b""):
            self.errors.append(line.decode("utf-8", "replace"))

    def send_line(self, text: str) -> bytes:
        """Write one raw line; the raw line that comes back (b"" if the engine exited)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode() + b"\n")
        self.proc.stdin.flush()
        return self.lines.get(timeout=self.timeout)

    def ask(self, request: dict[str, Any]) -> Any:
        """The decoded response to one request."""
        line = self.send_line(json.dumps(request))
        assert line, f"the engine exited without answering {request}: {''.join(self.errors)}"
        return json.loads(line)

    def close(self) -> int:
        """Close stdin and wait; the exit code (the process is killed if it does not exit).
        Its stderr is then all in ``errors``."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise
        for reader in self.readers:
            reader.join(timeout=self.timeout)
        return code
