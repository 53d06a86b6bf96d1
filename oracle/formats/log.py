"""Move log format v1: JSON Lines, read as a stream (a large file never sits in memory).

Line 1 is the header, then one event per line, then an optional result line.
See docs/formats.md.
"""

from __future__ import annotations

import gzip
import json
import math
import sys
import zlib
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import IO, Any, NamedTuple

import attrs

FORMAT_NAME = "rules-oracle-log"
FORMAT_VERSION = 1
MAX_LINE_BYTES = 1_000_000
"""A longer line is refused as malformed rather than read into memory whole."""
MAX_DEPTH = 64
"""A line's JSON may nest objects and arrays this deep (the line itself is level 1)."""


class Malformed(Exception):
    """A line of a log (or the file itself) cannot be read; line 0 is the file as a whole."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@attrs.frozen
class Header:
    """The first line of a log."""

    game: str
    players: tuple[str, ...]
    options: dict[str, Any]


class EventRecord(NamedTuple):
    """An event line: the raw event and the state values claimed after it (a named tuple:
    one is made per event, and a tuple is made several times faster than a frozen class)."""

    line: int
    raw: dict[str, Any]
    claims: dict[str, Any]


@attrs.frozen
class ResultRecord:
    """The optional last line: the result the writing implementation claims."""

    line: int
    scores: dict[str, Any] | None
    winners: list[Any] | None


class _NotStrictJSON(ValueError):
    """JSON that Python's parser accepts but the format does not."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; a key given twice would silently lose a value, so it is refused."""
    record = dict(pairs)
    if len(record) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _NotStrictJSON(f"key {key!r} appears twice in one object")
            seen.add(key)
    return record


def _constant(name: str) -> Any:
    """NaN and Infinity are not JSON."""
    raise _NotStrictJSON(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent; one too large for a float (``1e999``)
    would be read as Infinity, which JSON does not have (RFC 8259), so it is refused."""
    value = float(text)
    if not math.isfinite(value):
        raise _NotStrictJSON(f"{text} is too large a number (it would be read as Infinity)")
    return value


_DECODER = json.JSONDecoder(
    object_pairs_hook=_object, parse_constant=_constant, parse_float=_finite
)
"""Strict JSON: no repeated keys, no NaN or Infinity, no number too large for a float (made
once: it costs as much as a line)."""

_PLAIN_DECODER = json.JSONDecoder(parse_constant=_constant, parse_float=_finite)
"""The same scanner without the per-object hook: it builds each object in C, so a repeated
key would silently keep its last value. Used only where counting proves no key repeats
(``_no_key_lost``); NaN and Infinity are refused here too."""


STDIN = "-"
"""The log name that means standard input."""


def open_log(path: Path) -> IO[bytes] | gzip.GzipFile:
    """A log's bytes: ``-`` is standard input, ``*.gz`` is read through gzip as a stream."""
    if str(path) == STDIN:
        return sys.stdin.buffer
    try:
        if path.name.endswith(".gz"):
            return gzip.open(path, "rb")
        return path.open("rb")
    except OSError as exc:
        raise Malformed(0, f"cannot open: {exc.strerror or exc}") from exc


def _read_line(handle: IO[bytes] | gzip.GzipFile, number: int) -> bytes:
    """The next line, at most one byte longer than the limit; corrupt gzip data is malformed."""
    try:
        return handle.readline(MAX_LINE_BYTES + 1)
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        reason = f"{exc}" if str(exc) else type(exc).__name__
        raise Malformed(0, f"corrupt gzip data after line {number}: {reason}") from exc
    except OSError as exc:
        raise Malformed(number + 1, f"cannot read: {exc.strerror or exc}") from exc


def read_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each line of ``path`` as a JSON object, with its line number; raises Malformed."""
    handle = open_log(path)
    with nullcontext(handle) if str(path) == STDIN else handle:
        number = 0
        while True:
            chunk = _read_line(handle, number)
            if not chunk:
                return
            number += 1
            if len(chunk) > MAX_LINE_BYTES and not chunk.endswith(b"\n"):
                raise Malformed(number, f"line longer than {MAX_LINE_BYTES} bytes")
            yield number, decode_line(number, chunk)


def decode_line(number: int, chunk: bytes) -> dict[str, Any]:
    """One line (bytes, at most MAX_LINE_BYTES) as a strict JSON object; raises Malformed."""
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Malformed(number, f"not UTF-8 text (byte {exc.start})") from exc
    record = _plain_object(text)
    if record is not None:
        return record
    if not text.strip():
        raise Malformed(number, "blank line")
    try:
        record = strict_json(text)
    except NotJSON as exc:
        raise Malformed(number, exc.reason) from exc
    if not isinstance(record, dict):
        raise Malformed(number, "each line must be a JSON object")
    return record


def _plain_object(text: str) -> dict[str, Any] | None:
    """The usual line, an object starting at its first character, ending at its newline and
    nested at most MAX_DEPTH levels (by count of brackets), decoded without the checks
    around it and without the per-object hook, where counting proves that no key repeats
    (``_no_key_lost``); None for any other line, which ``strict_json`` then decodes (and
    explains) in full. Same value, same strictness: ``raw_decode`` is what
    ``_DECODER.decode`` runs after skipping leading whitespace, and a line the count cannot
    clear goes to the strict decoder, which refuses a repeated key."""
    if text[:1] != "{":
        return None
    braces = text.count("{")
    if text.count("[") + braces > MAX_DEPTH:
        return None
    try:
        value, end = _PLAIN_DECODER.raw_decode(text)
    except (ValueError, RecursionError):
        return None
    if end != len(text) and text[end:] not in ("\n", "\r\n"):
        return None
    if type(value) is not dict or not _no_key_lost(value, braces, text.count(":"), text):
        return None
    return value


def _no_key_lost(line: dict[str, Any], braces: int, colons: int, text: str) -> bool:
    """Whether the objects decoded from a line hold every key its text gives, so that none
    was given twice (a repeated key leaves its object one entry short).

    Exact, by counting: every object of the text has its own ``{`` and every key its own
    ``:`` outside strings, and a string may hold more of either. So the text has at least as
    many colons as keys, and at least as many keys as the decoded objects hold entries, with
    equality only if no key repeated: entries == colons proves it. The objects of a line
    are usually the line and objects directly in it (its ``state``); when those are as many
    as its braces, they are all its objects, else every object at any depth is counted.
    A line with colons in its strings (``"tile": "L:M"``) and no escape (no backslash) has
    each string's text between two quotes and no other quote, so the pieces of the text at
    even places between its quotes are all that lies outside strings: their colons are
    one per key, as many as the entries unless a key was lost."""
    entries = len(line)
    if braces > 1:
        objects = 1
        for value in line.values():
            if type(value) is dict:
                entries += len(value)
                objects += 1
        if objects != braces:
            entries = _entries(line)
    if entries == colons:
        return True
    return "\\" not in text and "".join(text.split('"')[::2]).count(":") == entries


def _entries(value: Any) -> int:
    """The entries of every object in a decoded JSON value, at any depth."""
    if type(value) is dict:
        return len(value) + sum(_entries(inner) for inner in value.values())
    if type(value) is list:
        return sum(_entries(inner) for inner in value)
    return 0


class NotJSON(ValueError):
    """Text that is not strict JSON within the limits; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def strict_json(text: str) -> Any:
    """The JSON value of ``text``: strict (no repeated key, no NaN or Infinity) and nested
    at most MAX_DEPTH levels; anything else raises NotJSON."""
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        # Some of Python's messages end in " at" ("Unterminated string starting at").
        raise NotJSON(f"not JSON: {exc.msg.removesuffix(' at')} at column {exc.colno}") from exc
    except _NotStrictJSON as exc:
        raise NotJSON(f"not strict JSON: {exc}") from exc
    except RecursionError as exc:
        raise NotJSON("JSON nested too deeply") from exc
    except ValueError as exc:  # e.g. an integer with thousands of digits
        raise NotJSON(f"not usable JSON: {' '.join(str(exc).split())}") from exc
    deep = text.count("[") + text.count("{") > MAX_DEPTH
    if deep and isinstance(value, (dict, list)) and _too_deep(value, MAX_DEPTH):
        raise NotJSON(f"JSON nested deeper than {MAX_DEPTH} levels")
    return value


def _too_deep(value: Any, levels: int) -> bool:
    """Whether ``value`` nests objects and arrays more than ``levels`` deep."""
    if levels <= 0:
        return True
    if isinstance(value, dict):
        return any(_too_deep(v, levels - 1) for v in value.values() if isinstance(v, (dict, list)))
    return any(_too_deep(v, levels - 1) for v in value if isinstance(v, (dict, list)))


def parse_header(line: int, record: dict[str, Any]) -> Header:
    """The header, checked field by field."""
    if record.get("format") != FORMAT_NAME:
        raise Malformed(line, f"the first line must be a header with format {FORMAT_NAME!r}")
    version = record.get("version")
    if type(version) is not int or version != FORMAT_VERSION:  # true and 1.0 are no version
        raise Malformed(line, f"unsupported log version {json.dumps(version)} (known: 1)")
    extra = set(record) - {"format", "version", "game", "players", "options"}
    if extra:
        raise Malformed(line, f"unknown header fields: {', '.join(sorted(extra))}")
    game = record.get("game")
    players = record.get("players")
    options = record.get("options", {})
    if not isinstance(game, str):
        raise Malformed(line, "header field 'game' must be a string")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise Malformed(line, "header field 'players' must be a list of names")
    if not isinstance(options, dict):
        raise Malformed(line, "header field 'options' must be an object")
    return Header(game, tuple(players), options)


def parse_record(line: int, record: dict[str, Any]) -> EventRecord | ResultRecord:
    """An event line or the result line."""
    if "result" in record:
        if set(record) != {"result"}:
            raise Malformed(line, "a result line holds only 'result'")
        result = record["result"]
        if not isinstance(result, dict) or set(result) - {"scores", "winners"}:
            raise Malformed(line, "'result' must be an object with 'scores' and/or 'winners'")
        scores, winners = result.get("scores"), result.get("winners")
        if scores is not None and not isinstance(scores, dict):
            raise Malformed(line, "'result.scores' must be an object")
        if winners is not None and not isinstance(winners, list):
            raise Malformed(line, "'result.winners' must be a list")
        return ResultRecord(line, scores, winners)
    claims = record.get("state", {})
    if not isinstance(claims, dict):
        raise Malformed(line, "'state' must be an object of path: value")
    return EventRecord(line, record, claims)


def header_line(game: str, players: tuple[str, ...], options: dict[str, Any]) -> str:
    """The JSON text of a header."""
    return json.dumps(
        {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "game": game,
            "players": list(players),
            "options": options,
        }
    )
