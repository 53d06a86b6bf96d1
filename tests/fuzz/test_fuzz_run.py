"""The long fuzz run measures memory input by input, and an input over the bound is a problem.

``benchmarks/fuzz_run.py`` checks each input in a worker process that resets its peak RSS
before the input and reads it after. These tests run it on a couple of inputs (a few
worker start-ups, a few seconds): under the 500 MB bound nothing is found; under a bound
no Python process can keep (1 MB) every input is found over it, checked again alone and
kept to reproduce.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def fuzz_run(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The fuzz run's module, importable by its workers too."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import fuzz_run

    return fuzz_run


def _summary(keep: Path) -> dict[str, Any]:
    (kind,) = json.loads((keep / "summary.json").read_text("utf-8"))["kinds"]
    return dict(kind)


def test_a_transient_allocation_shows_in_the_peak_after_a_reset(fuzz_run: Any) -> None:
    if not fuzz_run.reset_peak():
        pytest.skip("this kernel cannot reset a process's peak RSS")
    before = fuzz_run.memory_kb("VmRSS")
    block = b"x" * (64 * 2**20)  # every page written: 64 MB resident
    del block
    peak = fuzz_run.memory_kb("VmHWM")
    assert peak - before >= 60 * 1024
    fuzz_run.reset_peak()
    assert fuzz_run.memory_kb("VmHWM") < peak - 60 * 1024


def test_inputs_under_the_bound_are_measured_and_pass(fuzz_run: Any, tmp_path: Path) -> None:
    keep = tmp_path / "keep"
    args = ["--logs", "2", "--scenarios", "0", "--profiles", "0", "--alone", "1"]
    assert fuzz_run.main([*args, "--keep", str(keep)]) == 0
    figures = _summary(keep)
    assert figures["counts"]["inputs"] == 2
    assert "inputs with a problem" not in figures["counts"]
    largest = figures["largest_input_peak"]["mb"]
    assert 1 < largest <= figures["batch_peak_mb"]["largest"] < 500
    assert figures["inputs_checked_alone"] == 1
    assert 1 < figures["largest_alone_peak"]["mb"] < 500
    assert sorted(p.name for p in keep.iterdir()) == ["summary.json"]


def test_an_input_over_the_bound_is_a_problem_kept_to_reproduce(
    fuzz_run: Any, tmp_path: Path
) -> None:
    keep = tmp_path / "keep"
    args = ["--logs", "1", "--scenarios", "0", "--profiles", "0", "--bound-mb", "1"]
    assert fuzz_run.main([*args, "--keep", str(keep)]) == 1
    figures = _summary(keep)
    assert figures["counts"]["inputs over the bound in their batch"] == 1
    assert figures["counts"]["memory"] == 1
    assert figures["inputs_checked_alone"] == 1
    problem = (keep / "logs-1.problem.txt").read_text("utf-8")
    assert problem.startswith("memory: ") and problem.endswith(" MB alone, over 1 MB\n")
    assert (keep / "logs-1.jsonl").stat().st_size > 0
