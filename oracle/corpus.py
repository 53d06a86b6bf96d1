"""A corpus of logs: finding the files, and checking them on every core or on a Dask cluster.

Files are named lazily (a folder is walked as it is read, a list of paths is read line by
line) and checked in batches; results come back in the order the files were named, so a
report is byte-identical whichever way the work was spread.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import attrs

from oracle.formats.log import STDIN
from oracle.games import GameCache
from reference.core.errors import OracleError

if TYPE_CHECKING:
    from concurrent.futures import Future

LOG_SUFFIXES = (".jsonl", ".jsonl.gz")
BATCH = 4
"""Files per task: small enough to share a short corpus out, big enough to hide the hand-off."""
WINDOW = 4
"""Tasks in flight per worker: enough to keep each busy, few enough to keep memory flat."""
COLLECT_EVERY = 50
"""Files a process checks between two full garbage collections (see ``Tidy``)."""

R = TypeVar("R")


class BadCorpus(OracleError):
    """The corpus cannot be read as named: a missing path, an unreadable list of paths."""

    @property
    def message(self) -> str:
        """What is wrong, in one line (as the other errors have it)."""
        return str(self)


@attrs.frozen
class Settings:
    """What every worker needs besides the files: the CLI profile, --at, and the folder that
    relative names are read from (set for a remote cluster; the report keeps the names)."""

    profile: dict[str, Any] = attrs.field(factory=dict)
    options: dict[str, Any] = attrs.field(factory=dict)
    at: int | None = None
    root: str | None = None
    readings: bool = False
    """Search the readings of the options under which a failing log validates or gets
    further (oracle/readings.py)."""


def _walk(folder: Path) -> Iterator[Path]:
    """Log files under ``folder``, in the order of their sorted paths, found as they are read."""
    with os.scandir(folder) as scan:
        entries = sorted(scan, key=lambda entry: entry.name)
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            yield from _walk(Path(entry.path))
        elif entry.name.endswith(LOG_SUFFIXES) and entry.is_file():
            yield Path(entry.path)


def _named(name: str) -> Iterator[Path]:
    """A name given by the user: a folder's logs, a file, or standard input."""
    if name == STDIN:
        yield Path(STDIN)
        return
    path = Path(name)
    if path.is_dir():
        yield from _walk(path)
    elif path.exists():
        yield path
    else:
        raise BadCorpus(f"no such file or folder: {path}")


def list_entries(list_file: str) -> Iterator[str]:
    """The paths in a list file (``-``: standard input), one a line; blank lines are skipped."""
    import sys

    try:
        with (
            nullcontext(sys.stdin) if list_file == STDIN else Path(list_file).open(encoding="utf-8")
        ) as handle:
            for line in handle:
                name = line.strip()
                if name:
                    yield name
    except UnicodeDecodeError as exc:
        raise BadCorpus(f"{list_file}: a list of paths must be UTF-8 text") from exc
    except OSError as exc:
        raise BadCorpus(f"cannot read {list_file}: {exc.strerror or exc}") from exc


def log_paths(names: Sequence[str], list_file: str | None = None) -> Iterator[str]:
    """Every log named: folders recursively (``*.jsonl``, ``*.jsonl.gz``), files, ``-``, then
    the entries of ``list_file``. Raises BadCorpus for a command-line name that does not
    exist; an entry of the list that does not exist is left to its verdict (cannot open)."""
    for name in names:
        for path in _named(name):
            yield str(path)
    if list_file is not None:
        for entry in list_entries(list_file):
            path = Path(entry)
            if path.is_dir():
                yield from (str(p) for p in _walk(path))
            else:
                yield str(path)


def batches(names: Iterable[str], size: int = BATCH) -> Iterator[list[str]]:
    """Names in lists of ``size``; standard input always alone (only this process can read it)."""
    batch: list[str] = []
    for name in names:
        if name == STDIN:
            if batch:
                yield batch
            yield [name]
            batch = []
            continue
        batch.append(name)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


class _Pending(Protocol):
    """A batch handed to a worker (a concurrent future)."""

    def result(self) -> Any: ...


def in_order(
    tasks: Iterable[list[str]], submit: Callable[[list[str]], _Pending], window: int
) -> Iterator[Any]:
    """Submit each batch, at most ``window`` at a time, and yield results in submission order."""
    pending: deque[_Pending] = deque()
    for batch in tasks:
        pending.append(submit(batch))
        if len(pending) >= window:
            yield from pending.popleft().result()
    while pending:
        yield from pending.popleft().result()


def _done(results: list[R]) -> Future[list[R]]:
    from concurrent.futures import Future

    future: Future[list[R]] = Future()
    future.set_result(results)
    return future


class Tidy:
    """Counts the files a process has checked, and every COLLECT_EVERY runs a full garbage
    collection.

    Not for cyclic garbage (a replay leaves next to none: a full collection after 1,000 logs
    finds 165 objects): CPython keeps freed tuples, lists and dicts on free lists
    for reuse (up to 2,000 tuples of each length 1 to 20, some 4 MiB in all) and empties
    them only in a full collection, which the interpreter's own thresholds did not run once
    after start-up in a 1,000-log run. A replay frees whole states event by event, so the
    lists fill up log by log, and the memory they hold serves nothing else: peak RSS grew
    17% from 10 logs to 10,000. Emptied every 50 files it grows 5% (every 100: 9%), for
    about 2% more CPU (a collection costs about one log's replay).
    """

    def __init__(self, every: int | None = None) -> None:
        self.every = COLLECT_EVERY if every is None else every
        self.count = 0

    def checked(self, files: int) -> None:
        """``files`` more files checked; a full collection once ``every`` have been."""
        self.count += files
        if self.count >= self.every:
            self.count = 0
            gc.collect()


# One per worker process: rule sets are made once per game, options and profile, then kept
# for every file that process checks (made lazily, so a pool needs no initializer).
_WORKER_GAMES: dict[str, GameCache] = {}
_WORKER_TIDY = Tidy()


def in_worker(work: Work[R], names: list[str], settings: Settings) -> list[R]:
    """``work`` on a batch in a worker process, with that process's rule sets."""
    key = json.dumps([settings.profile, settings.options], sort_keys=True, default=str)
    if key not in _WORKER_GAMES:
        _WORKER_GAMES[key] = GameCache(settings.profile, settings.options)
    results = work(names, settings, _WORKER_GAMES[key])
    _WORKER_TIDY.checked(len(names))
    return results


Work = Callable[[list[str], Settings, GameCache], list[R]]
"""A batch's work: names, settings, and the rule sets to check them with."""


def validate_batch(names: list[str], settings: Settings, games: GameCache) -> list[Any]:
    """Verdicts on a batch of logs, in order."""
    if settings.root is None:
        return [_verdict(Path(name), settings, games) for name in names]
    verdicts = []
    for name in names:
        verdict = _verdict(Path(settings.root, name), settings, games)
        verdicts.append(attrs.evolve(verdict, log=name))
    return verdicts


def _verdict(path: Path, settings: Settings, games: GameCache) -> Any:
    """The verdict on one log; with ``settings.readings``, a failing one carries the
    readings search (its module loaded only then: a valid log never needs it)."""
    from oracle.replay import validate_log

    if settings.readings and str(path) == STDIN:  # read once, kept for the search
        from oracle.readings import validate_log_with_readings

        return validate_log_with_readings(path, games, settings.at)
    verdict = validate_log(path, games, settings.at)
    if settings.readings and verdict.kind in ("illegal", "divergent"):
        from oracle.readings import with_readings

        return with_readings(verdict, path, games)
    return verdict


def every_core(jobs: int) -> int:
    """Worker count for ``--jobs``: 0 means every core this process may use, and no more
    than those are started (the work is all computing: more processes only wait their
    turn, and a fork pool starts all its workers at once, so ``--jobs 100000`` would fork
    that many)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cores = cores or 1
    return min(jobs, cores) if jobs > 0 else cores


def run_local(work: Work[R], names: Iterable[str], settings: Settings, jobs: int) -> Iterator[R]:
    """``work`` on every name, in order: here for one job, else over ``jobs`` processes."""
    games = GameCache(settings.profile, settings.options)
    if jobs == 1:
        tidy = Tidy()
        for batch in batches(names):
            yield from work(batch, settings, games)
            tidy.checked(len(batch))
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:

        def submit(batch: list[str]) -> _Pending:
            if batch == [STDIN]:
                return _done(work(batch, settings, games))
            return pool.submit(in_worker, work, batch, settings)

        yield from in_order(batches(names), submit, WINDOW * jobs)


def _partition(part: Iterable[str], work: Work[R], settings: Settings) -> list[R]:
    return in_worker(work, list(part), settings)


def run_dask(
    work: Work[R],
    names: Iterable[str],
    settings: Settings,
    scheduler: str,
) -> Iterator[R]:
    """``work`` on every name as a Dask bag of files, in order. ``scheduler`` is a scheduler
    address, or ``local`` for a LocalCluster of two worker processes on this machine."""
    bags: Any = importlib.import_module("dask.bag")  # an optional extra, and untyped
    distributed: Any = importlib.import_module("dask.distributed")
    listed = list(names)
    if STDIN in listed:
        raise BadCorpus("standard input cannot be sent to a Dask cluster: write it to a file")
    remote = attrs.evolve(settings, root=settings.root or os.getcwd())
    if scheduler == "local":
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True)
        client = distributed.Client(cluster)
    else:
        cluster = None
        client = distributed.Client(scheduler)
    try:
        bag = bags.from_sequence(listed, partition_size=BATCH * 4)
        parts = bag.map_partitions(_partition, work, remote).to_delayed()
        futures = client.compute(parts)
        for future in futures:
            yield from future.result()
            future.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
