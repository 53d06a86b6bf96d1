"""Findings shrunk by their position: a given position and the fewest steps, deterministic,
with ids unique in the run and one shrink budget for it.

The planted bugs are rule bugs in a copy of our engine (the adapter's ``--data``), so they
show from any position where the rule applies: Milestones' majority bonus (scoring
majority_win_vp, 5 in our data) paid as 6 shows only at the game's end, after event 1000 in
the 2-player game of seed 0; Palmyra's landscape match (actions.landscape_match) paid as 2
shows in every game.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from oracle.findings import Finding
from oracle.refengine import LocalEngine
from oracle.shrink_run import ShrinkBudget, shrink_order
from oracle.starts import diff_units
from rules_oracle_cli.cli import app
from tests.conform.conftest import adapter

runner = CliRunner()


def conform(game: str, engine: str, *more: str) -> Any:
    args = ["conform", "--engine", engine, "--game", game, "--players", "2", *more]
    result = runner.invoke(app, [*args, "--format", "json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_a_bug_after_event_400_is_saved_as_a_step_from_a_given_position(tmp_path: Path) -> None:
    engine = adapter("milestones", "--data", "scoring.majority_win_vp=6")
    result = conform(  # the play-out from the setup alone (a rare end shows it sooner)
        "milestones",
        engine,
        "--games",
        "1",
        "--part",
        "playout",
        "--no-reach",
        "--save",
        str(tmp_path),
    )
    assert result.exit_code == 1
    (f,) = json.loads(result.stdout)["findings"]
    assert f["shrink"] == "position" and f["shrunk_from"] > 400
    assert f["given"] and len(f["steps"]) <= 3
    (case,) = tmp_path.glob("*.yaml")
    # the case cites the rule the wrong value rests on: the worker majorities (MIL-END-04),
    # whose winner's 5 VP the planted bug pays as 6
    assert f["rule"] == "MIL-END-04"
    assert yaml.safe_load(case.read_text())["rules"] == ["MIL-END-04"]
    # the log is the game as found: the first disagreement after event 400
    (log,) = tmp_path.glob("*.jsonl")
    assert len(log.read_text().splitlines()) - 1 == f["shrunk_from"] > 400
    ours = runner.invoke(app, ["scenarios", str(case)])
    assert ours.exit_code == 0, ours.output
    theirs = conform("milestones", engine, "--games", "0", "--scenarios-dir", str(tmp_path))
    assert theirs.exit_code == 1
    (failed,) = json.loads(theirs.stdout)["findings"]
    assert failed["kind"] == "scenario" and "the engine's" in failed["message"]


def test_two_runs_with_the_same_seed_save_the_same_bytes_and_ids_never_repeat(
    tmp_path: Path,
) -> None:
    engine = adapter("palmyra", "--data", "actions.landscape_match=2")
    folders = [tmp_path / "one", tmp_path / "two"]
    for folder in folders:
        both = ["--part", "playout", "--part", "engine"]
        result = conform("palmyra", engine, "--games", "2", *both, "--save", str(folder))
        assert result.exit_code == 1
    saved = [sorted(p.name for p in folder.iterdir()) for folder in folders]
    assert saved[0] == saved[1] and len(saved[0]) == 8  # four findings, two files each
    for name in saved[0]:
        assert (folders[0] / name).read_bytes() == (folders[1] / name).read_bytes(), name
    cases = sorted(folders[0].glob("*.yaml"))
    ids = [yaml.safe_load(p.read_text())["id"] for p in cases]
    assert ids == [p.stem for p in cases] and len(set(ids)) == 4
    # play-out game n and engine game n are different cases; every one runs on ours
    assert any("-playout-" in n for n in saved[0]) and any("-engine-" in n for n in saved[0])
    assert runner.invoke(app, ["scenarios", str(folders[0])]).exit_code == 0


@pytest.mark.slow
def test_shrinking_a_20_game_run_with_a_finding_in_every_game_takes_under_3_minutes() -> None:
    engine = adapter("palmyra", "--data", "actions.landscape_match=2")
    started = time.monotonic()
    result = conform("palmyra", engine, "--games", "20", "--part", "playout")
    elapsed = time.monotonic() - started
    report = json.loads(result.stdout)
    assert len(report["findings"]) == 20
    assert all(f["shrink"] == "position" and len(f["steps"]) <= 3 for f in report["findings"])
    assert report["shrink_seconds"] < 180 and elapsed < 180 + 120


def test_the_budget_is_for_the_whole_run_when_no_position_shows_a_bug() -> None:
    # a lie keyed on the adapter's own count of events: no written position shows it, each
    # finding falls back to the prefix shrink, and all of it fits the run's one budget
    engine = adapter("palmyra", "--lie", "bank", "--from-event", "30")
    budget = 8.0
    result = conform(
        "palmyra", engine, "--games", "4", "--part", "playout", "--shrink-seconds", str(budget)
    )
    report = json.loads(result.stdout)
    assert len(report["findings"]) == 4
    assert all(f["shrink"] == "prefix" and f["events"] == 30 for f in report["findings"])
    assert report["shrink_seconds"] < budget + 5  # the replay under way when it ran out


def test_the_first_finding_of_each_signature_is_shrunk_first() -> None:
    found = [
        Finding("playout", "state", "", path="bank"),
        Finding("playout", "state", "", path="bank"),
        Finding("playout", "legal", ""),
        Finding("engine", "state", "", path="bank"),
        Finding("probes", "accepted_illegal", "", rule="PAL-TURN-01"),
    ]
    assert shrink_order(found) == [0, 2, 4, 1, 3]
    budget = ShrinkBudget(100.0)
    assert budget.share(4) == 25.0
    budget.spend(10.0)
    assert budget.share(3) == 30.0


def test_a_position_is_written_as_values_set_takes_whole_where_keys_went() -> None:
    ref = LocalEngine()
    ref.new_game("palmyra", ("red", "blue"), {})
    setup = dict(ref.leaves())
    large = ref.state(["large_stack"])["large_stack"]
    # every L:D tile drawn from the large stack: the key leaves the mapping
    moved = {"large_stack": {k: v for k, v in large.items() if k != "L:D"}}
    here = {p: v for p, v in setup.items() if not p.startswith("large_stack.")}
    here |= {f"large_stack.{k}": v for k, v in moved["large_stack"].items()}
    here["bank"] = setup["bank"] - 1

    class At:
        def state(self, paths: list[str]) -> dict[str, Any]:
            return {"large_stack": moved["large_stack"]} if paths == ["large_stack"] else {}

    units = diff_units(setup, here, At())  # type: ignore[arg-type]
    assert units == [moved, {"bank": setup["bank"] - 1}]
