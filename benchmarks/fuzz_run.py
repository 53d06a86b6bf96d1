"""The long fuzz run: hostile logs, scenario files and profiles, each checked in a worker.

    nice -n 10 python benchmarks/fuzz_run.py --logs 100000 --scenarios 20000 --profiles 5000

Inputs come from the Hypothesis strategies in tests/fuzz/fuzz_inputs.py (generation
only: no shrinking, no example database), drawn in this process. Each input is written to
a file and checked, as the CLI would treat it (``check_log``, ``check_scenario``,
``check_profile_file``), in a worker process: no internal error, no exception escaping,
every report renders and its JSON and XML parse, no input over 10 s of CPU time. Each
problem input is kept under ``--keep`` with the problem, to reproduce it. Nothing is
asserted: the counts are the result (exit 1 when any problem was found).

Memory, input by input (the bound: no input over 500 MB, ``--bound-mb``):

- An input's peak is the peak resident set size (RSS) of the worker while it checks the
  input: the worker's interpreter, modules and caches are counted in, so the figure is
  on the high side. A worker is a fresh interpreter (``spawn``) that checks up to
  ``--batch`` inputs one at a time, and is then replaced.
- Before each input the worker resets the kernel's peak-RSS counter to its RSS now
  (``/proc/self/clear_refs``, Linux 4.0+); after it, it reads the counter (``VmHWM`` in
  ``/proc/self/status``). The kernel records the peak before it unmaps memory, so what the
  input allocated and gave back is counted. Where the counter cannot be reset, the figure
  is the worker's peak so far: still at least the input's own, and the summary says so.
  (``ru_maxrss`` is not used: after fork and exec it starts from the parent's peak.)
- An input whose peak is over the bound ends its worker's batch (what earlier inputs left
  behind may have caused it) and is checked again alone, in a fresh worker: over the bound
  there too, it is a problem ("memory"), kept like the others.
- Every worker runs under an address-space limit (``--cap-mb``, RLIMIT_AS), so a runaway
  input fails its own allocation instead of taking the machine down. An input that hits
  it ends in a MemoryError, reported as a problem ("memory cap"); a worker that dies, or
  gives no answer in ``--hang-seconds`` of wall-clock time (it is then killed), is a
  problem of the input it was checking.
- The inputs that grew their worker's RSS the most (``--alone`` per kind) are checked
  again alone too, to give the peak of an input in a fresh worker.

The summary of each kind gives the inputs, the problems, the slowest input (CPU time),
the largest peak of one input (and its growth over the RSS before it), the largest peak of
an input checked alone, each batch's worker peak (largest, median, smallest; every one in
``summary.json`` under ``--keep``) and a worker's RSS after start-up.
"""

from __future__ import annotations

import argparse
import heapq
import json
import multiprocessing
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "fuzz"))

from fuzz_inputs import (  # noqa: E402 - the strategies live with the tests
    check_log,
    check_profile_file,
    check_scenario,
    log_files,
    profile_files,
    scenario_files,
)

from oracle.games import GameCache  # noqa: E402

BOUND_MB = 500
SUFFIX = {"profiles": ".yaml", "scenarios": ".yaml", "logs": ".jsonl"}
CHUNK = 10_000
"""Examples per Hypothesis run (a long run grows Hypothesis's own bookkeeping)."""


def strategy(kind: str) -> st.SearchStrategy[bytes]:
    """The inputs of ``kind``."""
    return {"profiles": profile_files, "scenarios": scenario_files, "logs": log_files}[kind]()


def checker(kind: str) -> Callable[[Path], list[str]]:
    """The check of one input of ``kind`` (its problems; empty: handled as the user's)."""
    if kind == "profiles":
        return _profile_check
    games = GameCache()
    if kind == "scenarios":
        return lambda path: check_scenario(path, games)
    return lambda path: check_log(path, games)


def _profile_check(path: Path) -> list[str]:
    boundary, inside = check_profile_file(path, events=40)
    return boundary + [f"in-game {p}" for p in inside]


STATUS = Path("/proc/self/status")
CLEAR_REFS = Path("/proc/self/clear_refs")


def memory_kb(field: str) -> int:
    """``VmRSS`` (resident now) or ``VmHWM`` (peak resident) of this process, in KB."""
    for line in STATUS.read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in {STATUS}")


def reset_peak() -> bool:
    """Set this process's peak RSS to its RSS now (Linux 4.0+); False where it cannot."""
    try:
        CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return True


# --- the worker -----------------------------------------------------------------------


def work(conn: Connection, kind: str, cap_mb: int) -> None:
    """Check the input files named on ``conn`` until told to stop (``None``).

    Sends (peak RSS of its start, whether a peak can be reset), then for each input
    (problems, CPU seconds, RSS before it, peak RSS while checking it), sizes in KB.
    Without a reset, an input's peak is the worker's peak so far: still an upper bound.
    """
    cap = cap_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    check = checker(kind)
    conn.send((memory_kb("VmHWM"), reset_peak()))
    while (name := conn.recv()) is not None:
        reset_peak()
        before = memory_kb("VmRSS")
        started = time.process_time()
        problems = check(Path(name))
        cpu = time.process_time() - started
        conn.send((problems, cpu, before, memory_kb("VmHWM")))


# --- the parent -----------------------------------------------------------------------


@dataclass(frozen=True)
class Input:
    """One generated input, written to ``path``."""

    index: int
    data: bytes
    path: Path


@dataclass
class Worker:
    """A worker process, its peak RSS so far and the input it is checking."""

    process: BaseProcess
    conn: Connection
    peak_kb: int
    done: int = 0
    current: Input | None = None
    sent: float = 0.0


@dataclass
class Tally:
    """What the inputs of one kind gave (sizes in KB)."""

    counts: Counter[str] = field(default_factory=Counter)
    batch_peaks: list[int] = field(default_factory=list)
    """each worker's peak RSS, start-up included"""
    start_peaks: list[int] = field(default_factory=list)
    """each worker's peak RSS after start-up, before any input"""
    largest: tuple[int, int, int] = (0, 0, 0)
    """(peak RSS, input index, bytes) of the input with the largest peak in its batch"""
    growths: list[tuple[int, int, bytes]] = field(default_factory=list)
    """heap of the largest (peak over the RSS before it, input index, input)"""
    slowest: tuple[float, int, int] = (0.0, 0, 0)
    """(CPU seconds, input index, bytes)"""
    over_bound: list[Input] = field(default_factory=list)
    alone: dict[int, int] = field(default_factory=dict)
    """input index: its peak RSS checked alone"""
    reset: bool = True
    """every worker could reset its peak before each input (else: peaks so far)"""


class Pool:
    """Workers checking inputs of one kind; ``alone``: one input per fresh worker."""

    def __init__(self, kind: str, args: argparse.Namespace, tally: Tally, alone: bool) -> None:
        self.kind, self.args, self.tally, self.alone = kind, args, tally, alone
        self.batch = 1 if alone else args.batch
        self.jobs = 1 if alone else args.jobs
        self.bound_kb = args.bound_mb * 1024
        self.workers: list[Worker] = []
        self.context = multiprocessing.get_context("spawn")

    def submit(self, item: Input) -> None:
        """Hand ``item`` to an idle worker (a new one if there is room), waiting for one."""
        while True:
            idle = [w for w in self.workers if w.current is None]
            if idle or len(self.workers) < self.jobs:
                worker = idle[0] if idle else self._start()
                break
            self._collect()
        item.path.write_bytes(item.data)
        worker.conn.send(str(item.path))
        worker.current, worker.sent = item, time.monotonic()

    def close(self) -> None:
        """Wait for every answer, then stop the workers."""
        while any(w.current is not None for w in self.workers):
            self._collect()
        for worker in list(self.workers):
            self._retire(worker)

    def kill(self) -> None:
        """Stop every worker at once (the run is aborted)."""
        for worker in self.workers:
            worker.process.kill()
            worker.process.join()

    def _start(self) -> Worker:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(
            target=work, args=(theirs, self.kind, self.args.cap_mb), daemon=True
        )
        process.start()
        theirs.close()
        try:
            if not ours.poll(self.args.hang_seconds):
                raise RuntimeError("no word")
            start_peak, reset = ours.recv()
        except (RuntimeError, EOFError) as exc:  # our own harness fails: stop the run
            process.kill()
            process.join()
            raise RuntimeError(f"a {self.kind} worker did not start: {exc!r}") from None
        self.tally.start_peaks.append(start_peak)
        self.tally.reset &= reset
        worker = Worker(process, ours, start_peak)
        self.workers.append(worker)
        return worker

    def _collect(self) -> None:
        """Take the answers that have come, or end the workers that hang or died."""
        busy = [w for w in self.workers if w.current is not None]
        first = min(w.sent for w in busy)
        timeout = max(first + self.args.hang_seconds - time.monotonic(), 0.0)
        ready = wait([w.conn for w in busy], timeout)
        for worker in busy:
            if worker.conn in ready:
                self._answer(worker)
            elif time.monotonic() - worker.sent > self.args.hang_seconds:
                self._lost(worker, f"hung: no answer in {self.args.hang_seconds} s (killed)")

    def _answer(self, worker: Worker) -> None:
        item = worker.current
        if item is None:
            raise RuntimeError("an answer from an idle worker")
        try:
            problems, cpu, before, peak = worker.conn.recv()
        except EOFError:
            worker.process.join(self.args.hang_seconds)
            self._lost(worker, f"worker died: exit {worker.process.exitcode}")
            return
        worker.current, worker.done = None, worker.done + 1
        worker.peak_kb = max(worker.peak_kb, peak)
        if any("MemoryError" in p for p in problems):
            problems = [f"memory cap: over {self.args.cap_mb} MB of address space", *problems]
        if self.alone:  # its other problems were counted in its batch
            self.tally.alone[item.index] = peak
            over = peak > self.bound_kb
            problems = [f"memory: {_mb(peak)} MB alone, over {self.args.bound_mb} MB"] * over
        else:
            self._count(item, cpu, before, peak)
        self._found(item, problems)
        item.path.unlink()
        if worker.done >= self.batch or peak > self.bound_kb:
            self._retire(worker)
        if not self.alone and self.tally.counts["inputs"] % 1000 == 0:
            print(f"{self.kind} so far: {_line(self.tally.counts)}", flush=True)

    def _count(self, item: Input, cpu: float, before: int, peak: int) -> None:
        tally = self.tally
        tally.counts["inputs"] += 1
        tally.counts["bytes"] += len(item.data)
        tally.slowest = max(tally.slowest, (cpu, item.index, len(item.data)))
        tally.largest = max(tally.largest, (peak, item.index, len(item.data)))
        heapq.heappush(tally.growths, (peak - before, item.index, item.data))
        if len(tally.growths) > self.args.alone:
            heapq.heappop(tally.growths)
        if peak > self.bound_kb:  # maybe what earlier inputs left: checked again alone
            tally.over_bound.append(item)
            tally.counts["inputs over the bound in their batch"] += 1

    def _lost(self, worker: Worker, problem: str) -> None:
        """The worker is gone without an answer: the input it was checking is a problem."""
        item = worker.current
        worker.process.kill()
        worker.process.join()
        worker.conn.close()
        self.workers.remove(worker)
        if item is not None:
            if not self.alone:
                self.tally.counts["inputs"] += 1
                self.tally.counts["bytes"] += len(item.data)
            self._found(item, [problem])
            item.path.unlink(missing_ok=True)

    def _retire(self, worker: Worker) -> None:
        worker.conn.send(None)
        worker.process.join(self.args.hang_seconds)
        if worker.process.exitcode is None:
            worker.process.kill()
            worker.process.join()
        worker.conn.close()
        self.workers.remove(worker)
        if not self.alone:
            self.tally.batch_peaks.append(worker.peak_kb)

    def _found(self, item: Input, problems: list[str]) -> None:
        """Count ``problems`` and keep the input with them, to reproduce."""
        for problem in problems:
            self.tally.counts[problem.split(":")[0]] += 1
        if problems:
            self.tally.counts["inputs with a problem"] += 1
            kept = self.args.keep / f"{self.kind}-{item.index}{SUFFIX[self.kind]}"
            kept.write_bytes(item.data)
            text = "".join(f"{problem}\n" for problem in problems)
            kept.with_suffix(".problem.txt").write_text(text, "utf-8", "replace")


def run(kind: str, count: int, args: argparse.Namespace) -> Tally:
    """Check ``count`` inputs of ``kind``, then those to check alone; what they gave."""
    tally = Tally()
    shm = Path("/dev/shm")
    work_dir = Path(tempfile.mkdtemp(prefix=f"fuzz-{kind}-", dir=shm if shm.is_dir() else None))
    started = time.monotonic()
    pool = Pool(kind, args, tally, alone=False)
    again = Pool(kind, args, tally, alone=True)
    made = 0

    def one(data: bytes) -> None:
        nonlocal made
        made += 1
        pool.submit(Input(made, data, work_dir / f"{made}{SUFFIX[kind]}"))

    try:
        while made < count:
            before = made
            chunk = settings(
                max_examples=min(count - made, CHUNK),
                phases=[Phase.generate],
                database=None,
                deadline=None,
                suppress_health_check=list(HealthCheck),
            )
            chunk(given(strategy(kind))(one))()
            if made == before:
                break
        pool.close()
        rerun = {item.index: item for item in tally.over_bound}
        for _, index, data in tally.growths:
            rerun.setdefault(index, Input(index, data, work_dir / f"{index}{SUFFIX[kind]}"))
        for item in rerun.values():
            again.submit(item)
        again.close()
    finally:
        pool.kill()
        again.kill()
        shutil.rmtree(work_dir)
    tally.counts["seconds"] = int(time.monotonic() - started)
    return tally


def summary(kind: str, tally: Tally, args: argparse.Namespace) -> dict[str, Any]:
    """The figures of one kind (sizes in MB)."""
    peaks = tally.batch_peaks or [0]
    growth, growth_index, growth_data = max(tally.growths, default=(0, 0, b""))
    alone_index, alone = max(tally.alone.items(), key=lambda kv: kv[1], default=(0, 0))
    return {
        "kind": kind,
        "counts": dict(tally.counts),
        "bound_mb": args.bound_mb,
        "cap_mb": args.cap_mb,
        "peak_reset_per_input": tally.reset,
        "largest_input_peak": _where(tally.largest[0], tally.largest[1], tally.largest[2]),
        "largest_growth": _where(growth, growth_index, len(growth_data)),
        "largest_alone_peak": _where(alone, alone_index, None),
        "inputs_checked_alone": len(tally.alone),
        "batch": args.batch,
        "batches": len(tally.batch_peaks),
        "batch_peak_mb": {
            "largest": _mb(max(peaks)),
            "median": _mb(int(statistics.median(peaks))),
            "smallest": _mb(min(peaks)),
        },
        "worker_start_mb": _mb(max(tally.start_peaks, default=0)),
        "slowest": {
            "cpu_seconds": round(tally.slowest[0], 2),
            "input": tally.slowest[1],
            "bytes": tally.slowest[2],
        },
        "batch_peaks_mb": [_mb(kb) for kb in tally.batch_peaks],
    }


def _where(kb: int, index: int, size: int | None) -> dict[str, Any]:
    return {"mb": _mb(kb), "input": index, "bytes": size}


def main(argv: list[str] | None = None) -> int:
    """Run the three kinds, print the figures of each; exit 1 when any problem was found."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--logs", type=int, default=1000)
    parser.add_argument("--scenarios", type=int, default=200)
    parser.add_argument("--profiles", type=int, default=50)
    parser.add_argument("--keep", type=Path, default=Path("fuzz-problems"))
    parser.add_argument("--jobs", type=int, default=2, help="worker processes at once")
    parser.add_argument("--batch", type=int, default=500, help="inputs per worker process")
    parser.add_argument("--bound-mb", type=int, default=BOUND_MB, help="per-input RSS bound")
    parser.add_argument("--cap-mb", type=int, default=2048, help="address space of a worker")
    parser.add_argument("--hang-seconds", type=float, default=300.0)
    parser.add_argument("--alone", type=int, default=5, help="largest growths re-run alone")
    args = parser.parse_args(argv)
    args.keep.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    found = False
    figures = []
    for kind, count in (
        ("profiles", args.profiles),
        ("scenarios", args.scenarios),
        ("logs", args.logs),
    ):
        if count <= 0:
            continue
        tally = run(kind, count, args)
        found |= tally.counts["inputs with a problem"] > 0
        figures.append(summary(kind, tally, args))
        print(_report(figures[-1]), flush=True)
    wall = int(time.monotonic() - started)
    print(f"wall time {wall} s; peak RSS of the generating process {_mb(memory_kb('VmHWM'))} MB")
    (args.keep / "summary.json").write_text(
        json.dumps({"wall_seconds": wall, "kinds": figures}, indent=1), "utf-8"
    )
    return 1 if found else 0


def _report(f: dict[str, Any]) -> str:
    largest, growth, alone = f["largest_input_peak"], f["largest_growth"], f["largest_alone_peak"]
    peaks, slow = f["batch_peak_mb"], f["slowest"]
    how = "reset before each input" if f["peak_reset_per_input"] else "worker's peak so far"
    return "\n".join(
        [
            f"{f['kind']}: {_line(Counter(f['counts']))}",
            f"  per input ({how}): largest peak {largest['mb']} MB (input "
            f"{largest['input']}, {largest['bytes']} bytes); largest growth over the RSS "
            f"before it {growth['mb']} MB (input {growth['input']}, {growth['bytes']} bytes); "
            f"bound {f['bound_mb']} MB",
            f"  alone in a fresh worker ({f['inputs_checked_alone']} inputs: the largest "
            f"growths and any over the bound): largest peak {alone['mb']} MB "
            f"(input {alone['input']})",
            f"  {f['batches']} worker batches of at most {f['batch']} inputs: peak largest "
            f"{peaks['largest']} MB, median {peaks['median']} MB, smallest {peaks['smallest']} "
            f"MB; a worker after start-up {f['worker_start_mb']} MB; cap {f['cap_mb']} MB "
            "of address space",
            f"  slowest: {slow['cpu_seconds']} s CPU (input {slow['input']}, "
            f"{slow['bytes']} bytes)",
        ]
    )


def _mb(kb: int) -> float:
    return round(kb / 1024, 1)


def _line(tally: Counter[str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(tally.items()))


if __name__ == "__main__":
    sys.exit(main())
