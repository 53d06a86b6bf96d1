"""Checking a corpus of logs: many files, on every core or on a Dask cluster, in order."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain
from typing import TYPE_CHECKING, Any

from oracle import corpus
from oracle.corpus import BadCorpus
from rules_oracle import _args

if TYPE_CHECKING:
    from oracle.replay import Verdict

__all__ = ["BadCorpus", "validate_files"]

NO_LOGS = "no log files found (a folder is searched for *.jsonl and *.jsonl.gz)"


def validate_files(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] = (),
    *,
    from_list: str | os.PathLike[str] | None = None,
    profile: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    at: int | None = None,
    jobs: int = 1,
    dask: str | None = None,
    readings: bool = False,
) -> Iterator[Verdict]:
    """A verdict on every log named, in the order named, made as they are asked for.

    ``paths`` are log files (``*.jsonl``, ``*.jsonl.gz``), folders (searched recursively)
    or ``-`` (standard input); ``from_list`` is a file of such paths, one a line (``-``:
    standard input). ``jobs`` worker processes share the files out (0: every core);
    ``dask`` is a Dask scheduler address, or ``local`` (needs the ``dask`` extra). The
    verdicts are the same, in the same order, however the work is spread. ``readings``:
    each failing log's ``Verdict.readings``, the readings of the game's options under which
    it validates or gets further (each proven by a replay; a search has a time bound).

    Raises ``BadCorpus`` (now, or while the verdicts are read) for a name that does not
    exist, an unreadable list, or when no log is found at all; ``BadOptions`` (now) for an
    option no game has or a value it refuses (each option applies to the games that have it).
    """
    options, profile = _args.mapping("options", options), _args.mapping("profile", profile)
    given = _args.paths("paths", paths)
    listed = None if from_list is None else str(_args.path("from_list", from_list))
    if options:
        from oracle.games import options_problem
        from reference.core.errors import BadOptions
        from reference.registry import game_names

        problem = options_problem(options, game_names())
        if problem:
            raise BadOptions(f"options: {problem}")
    settings = corpus.Settings(profile, options, at, readings=readings)
    found = corpus.log_paths(given, listed)
    first = next(found, None)
    if first is None:
        raise BadCorpus(NO_LOGS)
    names = chain([first], found)
    if dask is not None:
        return corpus.run_dask(corpus.validate_batch, names, settings, dask)
    return corpus.run_local(corpus.validate_batch, names, settings, corpus.every_core(jobs))
