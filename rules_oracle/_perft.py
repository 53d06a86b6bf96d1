"""Perft: counts of legal event sequences from a position, divide, and the perft suites
(docs/perft.md)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oracle.perft import MAX_DEPTH
from oracle.perft_files import BUNDLED_SUITES
from reference.core.errors import BadOptions

if TYPE_CHECKING:
    from oracle.perft import PerftResult
    from oracle.perft_files import PerftCheck
    from oracle.position import Position

__all__ = [
    "PERFT_MAX_DEPTH",
    "PERFT_SUITES_DIR",
    "check_perft_suite",
    "perft",
    "perft_report",
    "perft_suite_report",
    "read_position",
]

PERFT_MAX_DEPTH: int = MAX_DEPTH
"""The deepest count ``perft`` takes (a deeper one is ``BadOptions``)."""
PERFT_SUITES_DIR: Path = BUNDLED_SUITES
"""The perft suites that come with rules-oracle: ``<game>.yaml`` for each game."""


def read_position(
    path: str | os.PathLike[str],
    *,
    options: Mapping[str, Any] | None = None,
    profile: Mapping[str, Any] | None = None,
) -> Position:
    """The position a position file (``game``, ``players``, ``options``, ``given``) or a
    scenario file (its ``given``) describes, built on our engine. ``options`` go over the
    file's own, ``profile`` replaces data values. Raises ``BadOptions`` naming the file (and
    line) when it cannot be read or its position cannot be built."""
    import attrs

    from oracle.perft import BadPosition, spot_position
    from oracle.perft_files import BadFile, read_spot
    from oracle.position import merged_options

    try:
        spot = read_spot(Path(path))
    except BadFile as exc:
        raise BadOptions(str(exc)) from exc
    merged = merged_options({**spot.options, **(options or {})}, profile)
    try:
        return spot_position(attrs.evolve(spot, options=merged))
    except BadPosition as exc:
        raise BadOptions(f"{path}: {exc}") from exc


def perft(
    position: Position,
    depth: int,
    *,
    divide: bool = False,
    jobs: int = 1,
    progress: bool = False,
) -> PerftResult:
    """The number of legal event sequences of ``depth`` events from ``position``
    (``.count``), with ``divide`` the count under each first event (``.divide``: pairs of a
    wire event and its count, in the order of ``position.legal()``), and ``.seconds``.

    Every chance outcome is a branch; see docs/perft.md for what counts as one step.
    ``jobs`` worker processes share the subtrees out (0: every core; the same counts);
    ``progress`` shows a transient bar on standard error when it is a terminal. Raises
    ``BadOptions`` for a negative depth, ``InternalError`` if our engine breaks its own
    invariants on the way."""
    from oracle.corpus import every_core
    from oracle.perft import perft as count_sequences
    from oracle.progress import ProgressBar

    if jobs < 0:
        raise BadOptions("jobs counts worker processes (0: every core)")
    with ProgressBar("perft subtrees", enabled=None if progress else False) as bar:
        return count_sequences(
            position,
            depth,
            with_divide=divide,
            jobs=every_core(jobs),
            on_subtree=lambda done, total: bar.advance(),
        )


def check_perft_suite(
    path: str | os.PathLike[str], *, jobs: int = 1, progress: bool = False
) -> list[PerftCheck]:
    """Count every position of a perft suite file on our engine and compare with the
    counts it lists: one ``PerftCheck`` per position (``id``, ``line``, ``expected`` and
    ``counted`` by depth, ``seconds``, ``error``, ``passed``). Raises ``BadOptions`` naming
    the file and line when it is not a usable suite."""
    from oracle.corpus import every_core
    from oracle.perft_files import BadFile, check_suite, load_suite
    from oracle.progress import ProgressBar

    try:
        suite = load_suite(Path(path))
    except BadFile as exc:
        raise BadOptions(str(exc)) from exc
    with ProgressBar("perft positions", enabled=None if progress else False) as bar:
        return list(bar.watch(check_suite(suite, jobs=every_core(jobs))))


def perft_report(
    result: PerftResult, position: Position, *, fmt: str = "text", source: str = "setup"
) -> str:
    """The ``rules-oracle perft`` report of one count: ``text`` (the divide lines, an empty
    line and the total, or the total alone) or ``json`` (the ``report-perft`` schema);
    ``source`` names where the position came from (a file, or ``setup``)."""
    from oracle.perft_report import count_json, count_text

    if fmt == "json":
        rules = position.rules
        players = _players(position)
        report = count_json(result, rules.name, players, rules.options, source)
        return json.dumps(report, indent=1)
    if fmt != "text":
        raise BadOptions(f"unknown report format {fmt!r} (known: text, json)")
    return count_text(result)


def perft_suite_report(
    checks: list[PerftCheck],
    path: str | os.PathLike[str],
    *,
    fmt: str = "text",
    seconds: float | None = None,
) -> str:
    """The report of ``check_perft_suite``: ``text`` (a line per position, then the totals)
    or ``json`` (the ``report-perft`` schema)."""
    from oracle.perft_files import load_suite
    from oracle.perft_report import suite_json, suite_text

    spent = sum(c.seconds for c in checks) if seconds is None else seconds
    if fmt == "json":
        game = load_suite(Path(path)).game
        return json.dumps(suite_json(checks, str(path), game, spent), indent=1)
    if fmt != "text":
        raise BadOptions(f"unknown report format {fmt!r} (known: text, json)")
    return suite_text(checks, str(path), spent)


def _players(position: Position) -> list[str]:
    """The position's players in seat order (every game keeps them under ``players``)."""
    found = position.get("players", {})
    return list(found) if isinstance(found, Mapping) else []
