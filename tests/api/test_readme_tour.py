"""The README tour runs as written on a fresh clone: every command, exit 0."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()

TOUR = re.search(r"## A short tour\n.*?```sh\n(.*?)```", README, re.S)
COMMANDS = [line for line in (TOUR.group(1) if TOUR else "").splitlines() if line.strip()]


def test_the_tour_names_only_files_a_clone_has() -> None:
    assert len(COMMANDS) >= 10
    for line in COMMANDS:
        for word in re.findall(r"(?:examples|profiles|scenarios)/[\w./-]*", line):
            assert (ROOT / word).exists(), word


def test_the_tour_runs_in_order_in_a_clone(tmp_path: Path) -> None:
    """Every command, in the README's order, in one copy of what a fresh clone holds (a
    command reads what an earlier one wrote: ``play -o game.jsonl``, then ``validate
    game.jsonl``), so the tour is one test: test workers run tests in any order."""
    for folder in ("examples", "profiles", "scenarios"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    failed = []
    for command in COMMANDS:
        run = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        # A real process (not CliRunner): a crash of ours would print its traceback, and
        # exit 3 would already fail the return-code check.
        if run.returncode != 0 or "Traceback" in run.stderr:
            failed.append((command, run.returncode, run.stdout[-1000:], run.stderr[-1000:]))
    assert failed == []
