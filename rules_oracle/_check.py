"""Checking a whole log, an iterable of events, or scenario files against the reference."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from oracle.formats.log import FORMAT_NAME, FORMAT_VERSION, Malformed
from oracle.formats.scenario import BUNDLED_SCENARIOS
from oracle.games import GameCache, options_problem
from oracle.position import merged_options
from oracle.readings import validate_log_with_readings, validate_records_with_readings
from oracle.replay import Verdict, validate_records
from oracle.replay import validate_log as _validate_log
from oracle.scenarios import ScenarioResult, run_all
from reference.core.errors import BadOptions
from reference.registry import game_names
from rules_oracle import _args

SCENARIOS_DIR: Path = BUNDLED_SCENARIOS
"""The scenario suite that comes with rules-oracle."""
SCHEMAS_DIR = Path(__file__).resolve().parent / "schemas"
"""JSON Schemas (draft 2020-12) of the formats and reports (also in docs/schemas/)."""
SCHEMAS: tuple[str, ...] = (
    "log",
    "scenario",
    "profile",
    "report-validate",
    "report-scenarios",
    "report-perft",
    "report-fairness",
)


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``name`` (one of SCHEMAS) as a dict; its ``$id`` is a ``urn:``."""
    if name not in SCHEMAS:
        raise BadOptions(f"no schema {name!r} (known: {', '.join(SCHEMAS)})")
    loaded: dict[str, Any] = json.loads((SCHEMAS_DIR / f"{name}.schema.json").read_text())
    return loaded


def validate_log(
    path: str | os.PathLike[str],
    *,
    profile: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    at: int | None = None,
    readings: bool = False,
) -> Verdict:
    """Replay one log file (format v1) and give the verdict; never raises for bad input.

    ``options`` override the header's options; ``profile`` replaces data values; ``at``
    asks for the reference position after that many events (``Verdict.state_at``);
    ``readings`` asks, for a failing log, which readings of the game's options make it
    valid or get it further (``Verdict.readings``: each proven by a replay of the log).
    """
    if readings:
        return validate_log_with_readings(_args.path("path", path), _games(profile, options), at)
    return _validate_log(_args.path("path", path), _games(profile, options), at)


def validate_events(
    game: str,
    players: Sequence[str],
    events: Iterable[Mapping[str, Any]],
    *,
    options: Mapping[str, Any] | None = None,
    profile: Mapping[str, Any] | None = None,
    at: int | None = None,
    name: str = "<events>",
    readings: bool = False,
) -> Verdict:
    """Replay events given as JSON dicts (each may carry ``state`` claims, as in a log).

    The verdict's ``line`` counts as in a log file: the header is line 1, event 0 line 2.
    ``readings`` as for ``validate_log``.
    """
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise BadOptions(f"players is a list of names, not {type(players).__name__}")
    if isinstance(events, str | bytes | Mapping) or not isinstance(events, Iterable):
        raise BadOptions(f"events is a list of event mappings, not {type(events).__name__}")
    header = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "game": game,
        "players": list(players),
        "options": merged_options(options, profile),
    }
    given = list(events)
    check = validate_records_with_readings if readings else validate_records
    return check(name, lambda: _records(header, given), GameCache(), at)


def _records(
    header: dict[str, Any], events: list[Mapping[str, Any]]
) -> Iterator[tuple[int, dict[str, Any]]]:
    yield 1, header
    for number, event in enumerate(events, start=2):
        if not isinstance(event, Mapping):
            raise Malformed(number, f"event {number - 2} is not a JSON object")
        yield number, dict(event)


def run_scenarios(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None,
    *,
    game: str | None = None,
    profile: Mapping[str, Any] | None = None,
    jobs: int = 1,
) -> list[ScenarioResult]:
    """Run scenario files (folders are searched for ``*.yaml``); default: the bundled suite.

    ``jobs`` worker processes share the files out (0: every core); the results are the
    same, in the same order.
    """
    from oracle.corpus import every_core

    given = _args.paths("paths", paths) if paths is not None else [SCENARIOS_DIR]
    targets = [Path(p) for p in given]
    return run_all(targets, _games(profile), game, jobs=every_core(jobs))


def _games(
    profile: Mapping[str, Any] | None, options: Mapping[str, Any] | None = None
) -> GameCache:
    """Rule sets for files of any game: the profile applies to the games it is about, each
    option to the games that have it (an option none has is refused)."""
    options = _args.mapping("options", options)
    profile = _args.mapping("profile", profile)
    problem = options_problem(options, game_names())
    if problem:
        raise BadOptions(f"options: {problem}")
    games = GameCache(profile, options)
    if not games.profile_fits_some_game(game_names()):
        keys = ", ".join(sorted(profile or {}))
        raise BadOptions(f"the profile names no data key of any game ({keys})")
    return games
