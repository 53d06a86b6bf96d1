"""The long fuzz run: hostile logs, scenario files and profiles, checked in-process.

    nice python benchmarks/fuzz_run.py --logs 100000 --scenarios 20000 --profiles 5000

Inputs come from the Hypothesis strategies in tests/fuzz/fuzz_inputs.py (generation
only: no shrinking, no example database). Each input is written to a file and checked as
the CLI would treat it (see ``check_log``, ``check_scenario``, ``check_profile_file``):
no internal error, no exception escaping, every report renders and its JSON and XML
parse, no input over 10 s. The peak memory of the whole run is printed at the end (all
inputs run in one process, so no single input went over it). Each problem input is kept
under ``--keep`` with the problem, to reproduce it. Nothing is asserted: the counts are
the result (exit 1 when any problem was found).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

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


def run(
    kind: str,
    count: int,
    strategy: st.SearchStrategy[bytes],
    check: Callable[[Path], list[str]],
    keep: Path,
    suffix: str,
) -> Counter[str]:
    """Check ``count`` inputs drawn from ``strategy``; the count of each outcome."""
    tally: Counter[str] = Counter()
    shm = Path("/dev/shm")
    work = Path(tempfile.mkdtemp(prefix=f"fuzz-{kind}-", dir=shm if shm.is_dir() else None))
    started = time.monotonic()

    @settings(
        max_examples=count,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def one(data: bytes) -> None:
        path = work / f"input{suffix}"
        path.write_bytes(data)
        problems = check(path)
        tally["inputs"] += 1
        tally["bytes"] += len(data)
        for problem in problems:
            tally[problem.split(":")[0]] += 1
        if problems:
            tally["inputs with a problem"] += 1
            kept = keep / f"{kind}-{tally['inputs']}{suffix}"
            kept.write_bytes(data)
            kept.with_suffix(".problem.txt").write_text("\n".join(problems), "utf-8", "replace")
        if tally["inputs"] % 1000 == 0:
            rate = tally["inputs"] / (time.monotonic() - started)
            print(f"{kind} so far ({rate:.0f}/s): {_line(tally)}", flush=True)

    one()
    shutil.rmtree(work)
    tally["seconds"] = int(time.monotonic() - started)
    return tally


def main() -> int:
    """Run the three kinds, print the tally of each and the peak memory."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--logs", type=int, default=1000)
    parser.add_argument("--scenarios", type=int, default=200)
    parser.add_argument("--profiles", type=int, default=50)
    parser.add_argument("--keep", type=Path, default=Path("fuzz-problems"))
    args = parser.parse_args()
    args.keep.mkdir(parents=True, exist_ok=True)
    games = GameCache()
    kinds: list[tuple[str, int, st.SearchStrategy[bytes], Callable[[Path], list[str]], str]] = [
        ("profiles", args.profiles, profile_files(), _profile_check, ".yaml"),
        (
            "scenarios",
            args.scenarios,
            scenario_files(),
            lambda p: check_scenario(p, games),
            ".yaml",
        ),
        ("logs", args.logs, log_files(), lambda p: check_log(p, games), ".jsonl"),
    ]
    found = False
    for kind, count, strategy, check, suffix in kinds:
        if count <= 0:
            continue
        tally = run(kind, count, strategy, check, args.keep, suffix)
        found |= tally["inputs with a problem"] > 0
        print(f"{kind}: {_line(tally)}", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"peak memory of the run: {peak} MB", flush=True)
    return 1 if found else 0


def _line(tally: Counter[str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(tally.items()))


def _profile_check(path: Path) -> list[str]:
    boundary, inside = check_profile_file(path, events=40)
    return boundary + [f"in-game {p}" for p in inside]


if __name__ == "__main__":
    sys.exit(main())
