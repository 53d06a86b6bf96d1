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


def _write_log(folder: Path, name: str, lines: list[dict[str, object]]) -> None:
    import json

    text = "".join(json.dumps(line) + "\n" for line in lines)
    (folder / name).write_text(text, encoding="utf-8")


def test_the_pytest_recipe_fails_with_the_whole_verdict(tmp_path: Path) -> None:
    """A failing log fails the recipe's test with what ``validate`` prints: the rule, the
    line, each differing claim with both values (verdict.message alone said none of it)."""
    import json

    import rules_oracle

    block = next(b for b in BLOCKS if "import pytest" in b)
    examples = tmp_path / "examples"
    examples.mkdir()
    header, *events, _ = (json.loads(x) for x in rules_oracle.play_log("milestones", 2))
    # Only the player to act acts (MIL-TURN-01): blue's first event, given to red.
    turn = next(i for i, e in enumerate(events) if e.get("player") == "blue")
    stolen = [*events[:turn], {**events[turn], "player": "red"}, *events[turn + 1 :]]
    _write_log(examples, "stolen.jsonl", [header, *stolen])
    # A claim 1000 coins above what the game (and so the log as played) says.
    claimed = next(i for i, e in enumerate(events) if "players.red.coins" in e["state"])
    coins = events[claimed]["state"]["players.red.coins"]
    wrong = json.loads(json.dumps(events))
    wrong[claimed]["state"]["players.red.coins"] = coins + 1000
    _write_log(examples, "rich.jsonl", [header, *wrong])
    test_file = tmp_path / "test_conformance.py"
    test_file.write_text(block)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        check=False,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 failed" in run.stdout
    assert f"illegal at event {turn} (line {turn + 2})" in run.stdout
    assert "MIL-TURN-01" in run.stdout and "legal for blue there" in run.stdout
    assert f"divergent at event {claimed} (line {claimed + 2})" in run.stdout
    assert f"players.red.coins: claimed {coins + 1000}, reference {coins}" in run.stdout
