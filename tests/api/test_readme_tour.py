"""The README tour runs as written on a fresh clone: every command, exit 0."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
TOUR = re.search(r"## A short tour\n.*?```sh\n(.*?)```", README, re.S)
COMMANDS = [line for line in (TOUR.group(1) if TOUR else "").splitlines() if line.strip()]


def test_the_tour_names_only_files_a_clone_has() -> None:
    assert len(COMMANDS) >= 10
    for line in COMMANDS:
        for word in re.findall(r"(?:examples|profiles|scenarios)/[\w./-]*", line):
            assert (ROOT / word).exists(), word


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what a fresh clone holds that the tour reads."""
    where = tmp_path_factory.mktemp("clone")
    for folder in ("examples", "profiles", "scenarios"):
        shutil.copytree(ROOT / folder, where / folder)
    return where


@pytest.mark.parametrize("command", COMMANDS)
def test_a_tour_command_runs(command: str, clone: Path) -> None:
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    run = subprocess.run(
        ["bash", "-c", command], cwd=clone, env=env, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, (command, run.stdout[-2000:], run.stderr[-2000:])
    # A real process (not CliRunner): a crash of ours would print its traceback here, and
    # exit 3 would already fail the return-code check above.
    assert "Traceback" not in run.stderr
