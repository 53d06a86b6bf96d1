"""Corpus scale: files/s against file count, one call against a bare script, --jobs 2 against
--jobs 1, a Dask LocalCluster against --jobs 2, peak memory at 10 and 10,000 logs.

    python benchmarks/bench_scale.py                 # everything (several minutes)
    python benchmarks/bench_scale.py --only rss --no-dask   # peak RSS, 10 and 10,000 logs
    python benchmarks/bench_scale.py --only rss --rss-format junit --rss-format text

Every figure is a whole ``rules-oracle validate`` process, as a user runs it: wall seconds,
CPU seconds (user + system of the process and of the workers it waited for) and peak RSS of
the largest process, from the operating system's own accounting (``os.wait4``). The corpus
is ``--base`` seeded logs per game (benchmarks/corpus/, not committed) named again and again
through ``--from-list`` to reach a count. The load average is printed with each figure: on
a shared machine wall-clock speed-ups are only as good as the idle cores. Nothing is
asserted: speed is measured here, never in tests.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import attrs
from bench_validate import make_corpus

from reference.registry import game_names

PARTS = ("overhead", "one", "count", "jobs", "rss")
BARE = """
import sys
from pathlib import Path
from oracle.games import GameCache
from oracle.replay import validate_log
print(validate_log(Path(sys.argv[1]), GameCache()).kind)
"""


@attrs.frozen
class Run:
    """One measured process."""

    wall: float
    cpu: float
    peak_mib: float
    load: float


def measure(command: list[str]) -> Run:
    """Run ``command`` to the end, its output thrown away; what it cost."""
    load = os.getloadavg()[0]
    start = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    errors = child.stderr.read().decode() if child.stderr else ""
    if child.returncode not in (0, 1) or errors.strip():
        raise SystemExit(f"{' '.join(command)}: exit {child.returncode}: {errors}")
    cpu = usage.ru_utime + usage.ru_stime
    return Run(wall, cpu, usage.ru_maxrss / 1024, load)


def median_run(command: list[str], repeat: int) -> Run:
    """The median of each figure over ``repeat`` runs."""
    runs = [measure(command) for _ in range(repeat)]
    return Run(
        statistics.median(r.wall for r in runs),
        statistics.median(r.cpu for r in runs),
        statistics.median(r.peak_mib for r in runs),
        statistics.median(r.load for r in runs),
    )


def corpus(per_game: int) -> list[Path]:
    """``per_game`` logs of each game, interleaved (a mixed corpus)."""
    by_game = [make_corpus(name, per_game, None) for name in game_names()]
    return [p for group in itertools.zip_longest(*by_game) for p in group if p is not None]


def listing(paths: list[Path], count: int, folder: Path) -> Path:
    """A --from-list file naming ``count`` logs, cycling through ``paths``."""
    out = folder / f"list-{count}.txt"
    names = itertools.islice(itertools.cycle(str(p) for p in paths), count)
    out.write_text("\n".join(names) + "\n", encoding="utf-8")
    return out


def validate(*args: str) -> list[str]:
    return [sys.executable, "-m", "rules_oracle_cli", "validate", *args]


def report(label: str, run: Run, files: int | None = None) -> None:
    rate = f"{files / run.wall:>9,.1f} files/s" if files else " " * 17
    print(
        f"{label:<34} wall {run.wall:>7.2f} s  cpu {run.cpu:>7.2f} s  {rate}  "
        f"peak {run.peak_mib:>6.1f} MiB  load {run.load:>5.2f}"
    )


def bench_count(paths: list[Path], folder: Path, repeat: int) -> None:
    print("== files/s against file count (one process)")
    for count in (1, 10, 100, 1000):
        run = median_run(validate("--from-list", str(listing(paths, count, folder))), repeat)
        report(f"{count} logs", run, count)


def bench_one_call(paths: list[Path], folder: Path, repeat: int) -> None:
    print("== one call against a bare script (median of pairs, run in turn)")
    script = folder / "bare.py"
    script.write_text(BARE, encoding="utf-8")
    for path in paths[:4]:
        pairs = [
            (measure(validate(str(path))), measure([sys.executable, str(script), str(path)]))
            for _ in range(repeat)
        ]
        ratio = statistics.median(a.cpu / b.cpu for a, b in pairs)
        cli = statistics.median(a.cpu for a, _ in pairs)
        bare = statistics.median(b.cpu for _, b in pairs)
        load = statistics.median(a.load for a, _ in pairs)
        # on a shared machine the least CPU each took is the figure least touched by the load
        best = min(a.cpu for a, _ in pairs) / min(b.cpu for _, b in pairs)
        print(
            f"{path.name:<34} cli {cli:.3f} s  bare {bare:.3f} s  ratio {ratio:.2f}  "
            f"best-of-{repeat} ratio {best:.2f}  load {load:.2f}"
        )


def bench_jobs(paths: list[Path], folder: Path, repeat: int, count: int, dask: bool) -> None:
    print(f"== --jobs 2 against --jobs 1, {count} logs ({os.cpu_count()} cores)")
    listed = str(listing(paths, count, folder))
    one = median_run(validate("--jobs", "1", "--from-list", listed), repeat)
    two = median_run(validate("--jobs", "2", "--from-list", listed), repeat)
    report("--jobs 1", one, count)
    report("--jobs 2", two, count)
    print(f"speed-up (wall) {one.wall / two.wall:.2f}x; cpu ratio {two.cpu / one.cpu:.2f}")
    if not dask:
        return
    local = median_run(validate("--dask", "local", "--from-list", listed), repeat)
    report("--dask local (2 workers)", local, count)
    print(f"--dask local against --jobs 2 (wall) {two.wall / local.wall:.2f}x")


def bench_overhead(paths: list[Path], folder: Path, repeat: int) -> None:
    """In this process: the corpus pipeline (batches, totals, text report) against a bare loop
    of validate_log, on a two-event log (so the replay itself costs little)."""
    from collections import Counter
    from io import StringIO

    from oracle import corpus as pipeline
    from oracle import report as reports
    from oracle.games import GameCache
    from oracle.replay import validate_log

    print("== per-file overhead of the corpus pipeline (CPU, in process, 3,000 tiny logs)")
    tiny = folder / "tiny.jsonl"
    tiny.write_text("".join(paths[0].read_text(encoding="utf-8").splitlines(True)[:3]))
    names = [str(tiny)] * 3000

    def bare() -> None:
        games = GameCache()
        for name in names:
            validate_log(Path(name), games)

    def piped() -> None:
        counts: Counter[str] = Counter()
        out = StringIO()
        settings = pipeline.Settings()
        for verdict in pipeline.run_local(pipeline.validate_batch, iter(names), settings, 1):
            counts[verdict.kind] += 1
            out.write(reports.verdict_text(verdict) + "\n")
        out.write(reports.totals_text(counts))

    timings: dict[str, list[float]] = {"bare": [], "piped": []}
    for _ in range(repeat):
        for label, run in (("bare", bare), ("piped", piped)):
            start = time.process_time()
            run()
            timings[label].append((time.process_time() - start) / len(names) * 1000)
    b, p = min(timings["bare"]), min(timings["piped"])
    print(f"bare loop {b:.3f} ms/file  pipeline {p:.3f} ms/file  overhead {p - b:+.3f} ms/file")


def bench_rss(paths: list[Path], folder: Path, big: int, formats: list[str]) -> None:
    """Peak RSS of one process at 10 logs and at ``big`` logs: the same 10 logs (all four
    games, 2 to 4 players) named again and again, so both runs load the same rule sets and
    replay the same logs, and only the count differs."""
    same = paths[:10]
    for fmt in formats:
        print(f"== peak RSS, --format {fmt} --at 5 (the same 10 logs, {big:,} times over)")
        runs = []
        for count in (10, big):
            listed = str(listing(same, count, folder))
            runs.append(measure(validate("--format", fmt, "--at", "5", "--from-list", listed)))
            report(f"{count} logs", runs[-1], count)
        growth = runs[1].peak_mib / runs[0].peak_mib - 1
        print(f"growth {growth:+.1%} (issue 10: within 10%)")


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=int, default=10, help="distinct logs per game")
    parser.add_argument("--repeat", type=int, default=3, help="median of N runs")
    parser.add_argument("--count", type=int, default=1000, help="logs for --jobs and Dask")
    parser.add_argument("--big", type=int, default=10_000, help="logs for the memory figure")
    parser.add_argument("--only", choices=PARTS, action="append")
    parser.add_argument(
        "--rss-format", choices=("json", "text", "junit"), action="append", help="default json"
    )
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    only = set(args.only or PARTS)
    paths = corpus(args.base)
    print(f"{len(paths)} distinct logs, load average {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if "one" in only:
            bench_one_call(paths, folder, max(args.repeat, 5))
        if "overhead" in only:
            bench_overhead(paths, folder, args.repeat)
        if "count" in only:
            bench_count(paths, folder, args.repeat)
        if "jobs" in only:
            bench_jobs(paths, folder, args.repeat, args.count, not args.no_dask)
        if "rss" in only:
            bench_rss(paths, folder, args.big, args.rss_format or ["json"])


if __name__ == "__main__":
    main()
