"""Checking a whole log, an iterable of events, or scenario files against the reference."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from oracle.formats.log import FORMAT_NAME, FORMAT_VERSION, Malformed
from oracle.games import GameCache
from oracle.replay import Verdict, validate_records
from oracle.replay import validate_log as _validate_log
from oracle.scenarios import ScenarioResult, run_all

SCENARIOS_DIR = Path(__file__).resolve().parent.parent / "scenarios"
"""The scenario suite that comes with rules-oracle."""


def validate_log(
    path: str | os.PathLike[str],
    *,
    profile: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    at: int | None = None,
) -> Verdict:
    """Replay one log file (format v1) and give the verdict; never raises for bad input.

    ``options`` override the header's options; ``profile`` replaces data values; ``at``
    asks for the reference position after that many events (``Verdict.state_at``).
    """
    return _validate_log(Path(path), GameCache(profile, options), at)


def validate_events(
    game: str,
    players: Sequence[str],
    events: Iterable[Mapping[str, Any]],
    *,
    options: Mapping[str, Any] | None = None,
    profile: Mapping[str, Any] | None = None,
    at: int | None = None,
    name: str = "<events>",
) -> Verdict:
    """Replay events given as JSON dicts (each may carry ``state`` claims, as in a log).

    The verdict's ``line`` counts as in a log file: the header is line 1, event 0 line 2.
    """
    header = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "game": game,
        "players": list(players),
        "options": dict(options or {}),
    }
    records = _records(header, events)
    return validate_records(name, records, GameCache(profile), at)


def _records(
    header: dict[str, Any], events: Iterable[Mapping[str, Any]]
) -> Iterable[tuple[int, dict[str, Any]]]:
    yield 1, header
    for number, event in enumerate(events, start=2):
        if not isinstance(event, Mapping):
            raise Malformed(number, f"event {number - 2} is not a JSON object")
        yield number, dict(event)


def run_scenarios(
    paths: Iterable[str | os.PathLike[str]] | None = None,
    *,
    game: str | None = None,
    profile: Mapping[str, Any] | None = None,
) -> list[ScenarioResult]:
    """Run scenario files (folders are searched for ``*.yaml``); default: the bundled suite."""
    targets = [Path(p) for p in paths] if paths is not None else [SCENARIOS_DIR]
    return run_all(targets, GameCache(profile), game)
