"""Each planted bug of the example adapter is caught, reported in time, and shrunk.

Expected values come from the planted bug itself: a lie from the Nth event shows after
exactly N events; a crash, hang or garbage at the Nth event is reported with the apply
request of event N; a refused event type shrinks to a game whose last event is of that type.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from oracle.conform import Conformance
from oracle.findings import Finding, Report, Settings
from oracle.refengine import LocalEngine
from oracle.shrink import MAX_HANG_REPLAYS, hang_replays
from rules_oracle_cli.cli import app
from tests.conform.conftest import adapter

GAME = "palmyra"
runner = CliRunner()


def run(*flags: str, parts: tuple[str, ...] = ("playout",), games: int = 1, **kw: object) -> Report:
    settings = Settings(
        engine=adapter(GAME, *flags),
        game=GAME,
        players=(2,),
        games=games,
        parts=parts,
        shrink_seconds=20.0,
        reach=False,  # play-outs from other positions: tests/conform/test_coverage_reach.py
        **kw,  # type: ignore[arg-type]
    )
    return Conformance(settings).run()


def only(report: Report) -> Finding:
    hard = report.failing()
    assert len(hard) == 1, [f.message for f in report.findings]
    return hard[0]


def test_a_lie_from_the_tenth_event_shows_after_exactly_ten() -> None:
    f = only(run("--lie", "bank", "--from-event", "10"))
    assert (f.kind, f.path, f.event_index, len(f.events)) == ("state", "bank", 10, 10)
    assert f.theirs == f.ours + 1
    assert f.shrunk_from == 10


def test_a_lie_from_the_setup_shrinks_to_no_event() -> None:
    f = only(run("--lie", "players.red.coins"))
    assert (f.kind, f.path, len(f.events)) == ("state", "players.red.coins", 0)


def test_accepting_an_illegal_event_is_caught_by_a_probe(tmp_path: Path) -> None:
    f = only(run("--accept-illegal", parts=("playout", "probes")))
    assert (f.part, f.kind) == ("probes", "accepted_illegal")
    assert f.rule is not None and f.probe is not None
    assert f.shrunk_from is not None and len(f.events) <= f.shrunk_from
    # the shrunk log gives our verdict: this event is illegal, under the same rule
    log = tmp_path / "case.jsonl"
    log.write_text(f.log or "")
    result = runner.invoke(app, ["validate", "--format", "json", str(log)])
    assert result.exit_code == 1, result.output
    (verdict,) = json.loads(result.stdout)["results"]
    assert (verdict["status"], verdict["rule_id"]) == ("illegal", f.rule)
    assert verdict["event_index"] == len(f.events)
    scenario = tmp_path / "case.yaml"
    scenario.write_text(f.scenario or "")
    result = runner.invoke(app, ["scenarios", str(scenario)])
    assert (result.exception is None or isinstance(result.exception, SystemExit)) is True
    assert result.exit_code == 0, result.output


def test_refusing_a_legal_event_shrinks_to_its_first_occurrence(tmp_path: Path) -> None:
    f = only(run("--refuse", "end_action"))
    assert f.kind == "refused_legal"
    assert f.probe is not None and f.probe["type"] == "end_action"
    # no end_action before the one refused: the prefix is no longer than needed
    assert all(e["type"] != "end_action" for e in f.events)
    log = tmp_path / "case.jsonl"
    log.write_text(f.log or "")
    result = runner.invoke(app, ["validate", str(log)])
    assert result.exit_code == 0, result.output  # our verdict: legal (the log is incomplete)
    assert "incomplete" in result.output


def test_a_smaller_legal_set_is_caught_at_the_setup() -> None:
    f = only(run("--drop-legal"))
    assert (f.kind, len(f.events)) == ("legal", 0)
    assert isinstance(f.ours, list) and len(f.ours) == 1 and f.theirs == []


def test_a_crash_is_reported_with_the_request_and_the_engine_restarted() -> None:
    report = run("--crash", "--from-event", "3", games=2)
    crashes = [f for f in report.failing() if f.kind == "crash"]
    assert len(crashes) == 2  # one per game: restarted for the second
    assert crashes[0].request is not None and crashes[0].request["op"] == "apply"
    assert crashes[0].event_index == 3


def test_a_hang_is_reported_within_the_timeout() -> None:
    started = time.monotonic()
    f = only(run("--hang", "--from-event", "2", timeout=1.0))
    assert (f.kind, f.event_index) == ("hang", 2)
    assert f.request is not None and f.request["op"] == "apply"
    assert time.monotonic() - started < 8


def test_garbage_is_a_finding_not_our_crash() -> None:
    f = only(run("--garbage", "--from-event", "1"))
    assert (f.kind, f.event_index) == ("garbage", 1)
    assert "this is not JSON" in f.message


def complete_game(events: tuple[dict[str, Any], ...]) -> bool:
    """Whether these events are a whole game on our engine: each legal, over after the last."""
    ours = LocalEngine()
    ours.new_game(GAME, ("red", "blue"), {})
    for event in events:
        if ours.to_act()[1] or ours.apply(event) is not None:
            return False
    return ours.to_act()[1]


def test_an_engine_that_never_ends_is_caught_at_our_end_of_a_shorter_game() -> None:
    f = only(run("--never-end"))
    assert (f.kind, f.event_index) == ("no_end", len(f.events))
    assert f.shrunk_from is not None and len(f.events) < f.shrunk_from
    assert complete_game(f.events)


def test_a_wrong_result_is_caught_and_shrunk_to_a_shorter_game() -> None:
    f = only(run("--wrong-result"))
    assert f.kind == "result" and isinstance(f.ours, list) and isinstance(f.theirs, list)
    (ours, _), (theirs, _) = f.ours, f.theirs
    assert theirs["red"] == ours["red"] + 1 and theirs["blue"] == ours["blue"]
    assert f.shrunk_from is not None and len(f.events) < f.shrunk_from
    assert complete_game(f.events)


def test_a_hang_that_depends_on_the_game_is_shrunk_within_a_bound() -> None:
    timeout, budget = 1.0, 5.0
    settings = Settings(
        engine=adapter(GAME, "--hang-on", "conquer"),
        game=GAME,
        players=(2,),
        games=1,
        parts=("playout",),
        timeout=timeout,
        shrink_seconds=budget,
    )
    started = time.monotonic()
    f = only(Conformance(settings).run())
    elapsed = time.monotonic() - started
    assert (f.kind, f.event_index) == ("hang", len(f.events))
    assert f.request is not None and f.request["event"]["type"] == "conquer"
    # the shrunk game reaches its first conquer sooner, and no conquer comes before it
    assert f.shrunk_from is not None and len(f.events) < f.shrunk_from
    assert all(e["type"] != "conquer" for e in f.events)
    # the first hang, the budget, one timeout over it for the replay started last, and the
    # replays that did not hang (fast): never one timeout per ddmin candidate
    assert hang_replays(timeout, budget) == 5
    assert elapsed < timeout + budget + timeout + 10


def test_a_hang_may_hang_a_few_replays_only() -> None:
    assert hang_replays(10.0, 60.0) == 6  # the defaults: six timeouts fit the budget
    assert hang_replays(1.0, 60.0) == MAX_HANG_REPLAYS  # never more than the cap
    assert hang_replays(30.0, 10.0) == 1  # at least one, however long the timeout


def test_another_rule_id_is_soft_unless_strict() -> None:
    report = run("--other-rule", parts=("playout", "probes"))
    assert report.passed()
    soft = [f for f in report.findings if f.kind == "rule_id"]
    assert soft and soft[0].their_rule == "OTHER-RULE-01" and soft[0].soft
    strict = run("--other-rule", parts=("playout", "probes"), strict_rules=True)
    assert not strict.passed()


@pytest.mark.parametrize("flags", [("--lie", "bank"), ("--crash",)])
def test_the_cli_exits_1_on_a_finding_and_never_3(flags: tuple[str, ...]) -> None:
    result = runner.invoke(
        app,
        ["conform", "--engine", adapter(GAME, *flags), "--game", GAME, "--players", "2"]
        + ["--games", "1", "--part", "playout"],
    )
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines()[-1].startswith("FAIL: 1 failing")


def test_an_engine_driven_game_validates_each_event_and_gives_the_log_so_far(
    tmp_path: Path,
) -> None:
    f = only(run("--bad-next", "--from-event", "4", parts=("engine",)))
    assert (f.part, f.kind, f.event_index) == ("engine", "bad_event", 4)
    assert f.probe == {"type": "teleport", "player": "red"}
    log = tmp_path / "engine.jsonl"
    log.write_text(f.log or "")
    assert log.read_text().count("\n") == 6  # header, the four events, the bad one
    result = runner.invoke(app, ["validate", "--format", "json", str(log)])
    assert result.exit_code == 1
    (verdict,) = json.loads(result.stdout)["results"]
    assert (verdict["status"], verdict["event_index"]) == ("malformed", 4)


def test_a_lie_in_an_engine_driven_game_is_caught_live() -> None:
    f = only(run("--lie", "bank", "--from-event", "6", parts=("engine",)))
    assert (f.part, f.kind, f.path, f.event_index) == ("engine", "state", "bank", 6)


def test_the_scenarios_json_report_says_what_each_scenario_needs() -> None:
    from tests.conform.conftest import ROOT

    folder = ROOT / "scenarios" / GAME
    result = runner.invoke(app, ["scenarios", "--format", "json", str(folder)])
    assert result.exit_code == 0
    needs = {r["id"]: r["needs"] for r in json.loads(result.stdout)["results"]}
    assert "set_state" in needs["PAL-CHAIN-01-p06-fifth-tile-illegal"]
    assert all(set(n) <= {"state", "legal", "set_state"} for n in needs.values())
