"""Every example in docs/api.md runs as written, with the public API alone."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "api.md").read_text(), re.S)


def test_the_examples_import_nothing_private() -> None:
    assert len(BLOCKS) >= 4
    for block in BLOCKS:
        assert not re.search(r"^\s*(from|import) (oracle|reference)\b", block, re.M), block


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_an_example_runs(index: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    block = BLOCKS[index]
    monkeypatch.chdir(ROOT)
    if "import pytest" in block:  # the conformance test: run it with pytest itself
        test_file = tmp_path / "test_conformance.py"
        test_file.write_text(block)
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
            check=False,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert "4 passed" in run.stdout
        return
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, f"docs/api.md block {index}", "exec"), {})


def test_the_illegal_example_prints_the_rule() -> None:
    block = next(b for b in BLOCKS if "rules_oracle.Illegal" in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(block, {})
    assert out.getvalue().startswith("PIL-MARKET-04 ")
