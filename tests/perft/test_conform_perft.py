"""``conform --part perft``: a broken copy of our own engine with one extra legal event deep
in a rare phase (and one with a missing one) is caught and bisected to that very position and
event, reported with the rule that refuses it; the saved scenario fails on the broken engine
and passes on ours. Engines without the perft capability are walked; our own serve passes
the bundled suites."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

import oracle.conform_perft
import rules_oracle
from oracle.conform import Conformance
from oracle.findings import Finding, Report, Settings
from oracle.games import GameCache
from oracle.perft import BadPosition, spot_position
from oracle.perft_files import load_suite, suite_path
from oracle.protocol import EngineProcess, RemoteEngine
from oracle.scenarios import run_scenario
from reference.registry import game_names
from rules_oracle_cli.cli import app
from tests.conform.conftest import SERVE, adapter

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "perft" / "broken_engine.py"
CONFORM_SCHEMA = json.loads(
    (ROOT / "rules_oracle" / "schemas" / "report-conform.schema.json").read_text()
)
runner = CliRunner()


def broken(game: str, plant: str, *more: str) -> str:
    parts = [sys.executable, str(BROKEN), "--game", game, "--plant", plant, *more]
    return " ".join(shlex.quote(p) for p in parts)


def small_suite(tmp_path: Path, game: str, *ids: str) -> Path:
    """A suite of the bundled one's positions ``ids`` only."""
    data = yaml.safe_load(suite_path(game).read_text())
    data["positions"] = [p for p in data["positions"] if p["id"] in ids]
    assert len(data["positions"]) == len(ids)
    path = tmp_path / f"{game}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.fixture
def use_suite(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Point the perft part at another suite file."""

    def use(path: Path) -> None:
        monkeypatch.setattr(oracle.conform_perft, "suite_path", lambda game: path)

    return use


def run(
    engine: str, game: str, players: tuple[int, ...] = (2,), games: int = 0, **more: Any
) -> Report:
    settings = Settings(
        engine=engine,
        game=game,
        players=players,
        games=games,
        parts=("perft",),
        timeout=60,
        **more,
    )
    return Conformance(settings).run()


def only(report: Report) -> Finding:
    failing = report.failing()
    assert len(failing) == 1, [f.message for f in report.findings]
    return failing[0]


def position_of(game: str, finding: Finding, options: dict[str, Any]) -> rules_oracle.Position:
    position = rules_oracle.load(game, options).setup(finding.players)
    for event in finding.events:
        position = position.apply(event)
    return position


def scenario_status(path: Path, engine: str | None) -> str:
    """The scenario's result on our engine (None) or on an engine under test."""
    if engine is None:
        (result,) = rules_oracle.run_scenarios([path])
        return result.status
    process = EngineProcess(engine, 30)
    remote = RemoteEngine(process)
    remote.hello()
    try:
        return run_scenario(path, GameCache(), driver=remote).status
    finally:
        process.close()


def the_extra_use(position: rules_oracle.Position) -> dict[str, Any]:
    """The planted event, worked out from our legal events: one use more than the most
    listed for the first craftsman listed."""
    uses = [e for e in position.legal() if e["type"] == "use_craftsman"]
    first = uses[0]
    most = max(e["times"] for e in uses if e["craftsman"] == first["craftsman"])
    return {**first, "times": most + 1}


def test_an_extra_event_deep_in_the_last_round_is_bisected_to_it(
    tmp_path: Path, use_suite: Any
) -> None:
    use_suite(small_suite(tmp_path, "pillars", "last-round-market"))
    engine = broken("pillars", "extra-use")
    report = run(engine, "pillars")
    f = only(report)
    assert (f.part, f.kind, f.case) == ("perft", "perft_extra", "perft-last-round-market")
    # the position: below the suite's (its events go on from there), at the last round's
    # cathedral step, where the plant lives
    suite = load_suite(suite_path("pillars"))
    root = next(e for e in suite.entries if e.id == "last-round-market").given.events
    assert f.events[: len(root)] == root and len(f.events) > len(root)
    position = position_of("pillars", f, {})
    assert (position["round"], position["stage"], position["returning"]) == (6, "cathedral", False)
    # the event, and the rule ours refuses it by
    assert f.probe == the_extra_use(position)
    with pytest.raises(rules_oracle.Illegal) as refused:
        position.apply(f.probe)
    assert f.rule == refused.value.rule_id and f.rule.startswith("PIL-CATH-")
    assert f.rule in f.message and json.dumps(f.probe) in f.message
    # the saved scenario passes on ours and fails on the broken engine
    scenario = tmp_path / "finding.yaml"
    scenario.write_text(f.scenario or "")
    assert yaml.safe_load(f.scenario or "")["expect"] == {"legal": {"excludes": [f.probe]}}
    assert scenario_status(scenario, None) == "pass"
    assert scenario_status(scenario, engine) == "fail"
    # and the log gives our verdict: that event breaks that rule
    log = tmp_path / "finding.jsonl"
    log.write_text(f.log or "")
    verdict = rules_oracle.validate_log(log)
    assert (verdict.kind, verdict.rule_id, verdict.event_index) == (
        "illegal",
        f.rule,
        len(f.events),
    )


def test_a_missing_event_in_the_solo_game_is_bisected_to_it(tmp_path: Path, use_suite: Any) -> None:
    use_suite(small_suite(tmp_path, "palmyra", "solo-end"))
    engine = broken("palmyra", "missing-centre")
    f = only(run(engine, "palmyra", players=(1,)))
    assert (f.kind, f.case) == ("perft_missing", "perft-solo-end")
    options = {"mode": "solo"}
    position = position_of("palmyra", f, options)
    assert position["phase"] == "move" and len(f.events) > 168
    centre = [e for e in position.legal() if e["type"] == "move_piece" and e["to"] == "centre"]
    assert f.probe == centre[0]
    assert f.ours == centre and f.theirs == []
    assert f.rule is not None and rules_oracle.load("palmyra").rule(f.rule) is not None
    scenario = tmp_path / "finding.yaml"
    scenario.write_text(f.scenario or "")
    assert yaml.safe_load(f.scenario or "")["expect"] == {"legal": {"includes": [f.probe]}}
    assert scenario_status(scenario, None) == "pass"
    assert scenario_status(scenario, engine) == "fail"


def test_an_engine_without_perft_is_walked_to_the_same_event(
    tmp_path: Path, use_suite: Any
) -> None:
    use_suite(small_suite(tmp_path, "pillars", "last-round-market"))
    report = run(broken("pillars", "extra-use", "--no-perft"), "pillars")
    assert "perft" not in report.capabilities
    f = only(report)
    assert f.kind == "perft_extra" and "walked" in f.message
    position = position_of("pillars", f, {})
    assert position["stage"] == "cathedral" and f.probe == the_extra_use(position)


def test_the_example_adapter_without_perft_passes(tmp_path: Path, use_suite: Any) -> None:
    use_suite(small_suite(tmp_path, "municipium", "forum", "small-bag"))
    report = run(adapter("municipium"), "municipium", games=1)
    assert report.passed(), [f.message for f in report.findings]
    assert "perft" not in report.capabilities and "set_state" in report.capabilities
    # the two suite positions and the play-out's three
    assert report.counts.perft_positions == 2 + oracle.conform_perft.SPOTS_PER_PLAYOUT
    assert report.counts.perft_sequences > 0


def test_the_cli_reports_a_perft_finding_in_json(tmp_path: Path, use_suite: Any) -> None:
    use_suite(small_suite(tmp_path, "palmyra", "solo-end"))
    args = ["conform", "--engine", broken("palmyra", "missing-centre"), "--game", "palmyra"]
    args += ["--players", "2", "--games", "0", "--part", "perft", "--format", "json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    jsonschema.validate(report, CONFORM_SCHEMA)
    (finding,) = report["findings"]
    assert (finding["part"], finding["kind"]) == ("perft", "perft_missing")
    assert report["settings"]["parts"] == ["perft"]


@pytest.mark.slow
@pytest.mark.parametrize("game", game_names())
def test_our_serve_passes_the_bundled_suite(game: str) -> None:
    report = run(f"{SERVE} --game {game}", game, games=1)
    assert report.passed(), [f.message for f in report.findings]
    suite = load_suite(suite_path(game))
    spots = oracle.conform_perft.SPOTS_PER_PLAYOUT
    assert report.counts.perft_positions == len(suite.entries) + spots
    assert report.capabilities == ("legal", "next", "perft", "set_state", "state")


def test_a_finding_below_a_given_state_keeps_the_state_and_the_way_down(tmp_path: Path) -> None:
    """A scenario of a position built with values set by path and events after them: the
    events go to ``steps``; it passes on our engine."""
    from oracle.conform_perft import _scenario
    from oracle.perft import Spot

    market = {
        "phase": "actions",
        "stage": "market",
        "queue": ["a", "b"],
        "spaces": {
            "market_1": "a",
            "market_2": "b",
            "priory_1": "a",
            "priory_2": "b",
            "kings_court_1": "a",
            "kings_court_2": "b",
        },
    }
    spot = Spot("pillars", ("a", "b"), {}, (), market).then({"type": "pass_market", "player": "a"})
    metal = {"type": "buy_resources", "player": "b", "resource": "metal", "count": 1}
    finding = Finding("perft", "perft_extra", "metal", probe=metal, rule="PIL-MARKET-04")
    text = _scenario(spot, finding)
    assert text is not None
    data = yaml.safe_load(text)
    assert data["given"] == {"state": market} and data["steps"] == [dict(spot.after[0])]
    assert data["expect"] == {"legal": {"excludes": [metal]}} and data["rules"] == ["PIL-MARKET-04"]
    path = tmp_path / "state.yaml"
    path.write_text(text)
    assert scenario_status(path, None) == "pass"


def test_an_engine_without_perft_or_legal_has_its_positions_skipped(
    tmp_path: Path, use_suite: Any
) -> None:
    use_suite(small_suite(tmp_path, "municipium", "forum", "small-bag"))
    report = run(adapter("municipium", "--no-capabilities"), "municipium", games=1)
    assert report.passed() and report.capabilities == ()
    assert (report.counts.perft_positions, report.counts.perft_skipped) == (
        0,
        2 + oracle.conform_perft.SPOTS_PER_PLAYOUT,
    )


def test_suite_positions_that_do_not_build_under_the_runs_profile_are_skipped() -> None:
    # The suite's events were written for the rulebook's data. With the favours and wreaths
    # unlimited, the small-bag position's events no longer replay (its sixth event comes
    # where a chance outcome is due): it is skipped (it was an internal error), the others
    # are counted afresh under the profile.
    profile = {"components.favours": None, "components.wreaths": None}
    report = run(f"{SERVE} --game municipium", "municipium", options={"profile": profile})
    assert report.passed(), [f.message for f in report.findings]
    entries = load_suite(suite_path("municipium")).entries
    (small_bag,) = [e for e in entries if e.id == "small-bag"]
    spot = small_bag.spot("municipium")
    spot_position(spot)  # builds with the rulebook's data
    with pytest.raises(BadPosition, match="MUN-TURN-01"):
        spot_position(attrs.evolve(spot, options={**spot.options, "profile": profile}))
    assert report.counts.perft_skipped == 1
    assert report.counts.perft_positions == len(entries) - 1


def test_with_the_option_matrix_the_play_out_positions_follow_its_settings() -> None:
    # The positions along the play-outs come from the playout part's games: with the
    # matrix, game k is played under the matrix's k-th setting (Palmyra's solo game with
    # one player among them), not under the run's options.
    report = run(f"{SERVE} --game palmyra", "palmyra", games=3, option_matrix=True)
    assert report.passed(), [f.message for f in report.findings]
    modes = {s.get("mode", "standard") for s in report.option_settings}
    assert modes == {"standard", "advanced", "solo"}, report.option_settings
