"""Play-outs that reach on purpose: from rare ends and scenario positions, with a policy
that favours events under rules not yet exercised (oracle/coverage.py, oracle/starts.py).

The planted bug of tests/conform/broken_serve.py shows only when Palmyra's bank runs dry
(PAL-END-02): random play-outs end with the bank far from empty, so only a play-out from
the rare end finds it.
"""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import attrs
import pytest

from oracle.conform import Conformance
from oracle.coverage import Coverage
from oracle.findings import Settings
from oracle.games import GameCache
from oracle.reach import Favouring
from oracle.refengine import LocalEngine
from oracle.starts import RARE_END, rare_ends
from reference.registry import game_names, make_game
from tests.conform.conftest import ROOT, SERVE, adapter
from tests.conform.test_coverage import covered

BROKEN = ROOT / "tests" / "conform" / "broken_serve.py"


def broken(bug: str, game: str) -> str:
    """Our serve with one rule bug planted (tests/conform/broken_serve.py)."""
    return " ".join(shlex.quote(p) for p in (sys.executable, str(BROKEN), bug, "--game", game))


def bank_dry_settings(**kw: object) -> Settings:
    return Settings(
        engine=broken("palmyra-bank-dry-goes-on", "palmyra"),
        game="palmyra",
        players=(2,),
        games=1,
        parts=("playout", "engine"),
        **kw,  # type: ignore[arg-type]
    )


def test_a_bug_when_the_bank_runs_dry_is_found_by_play_outs_alone(tmp_path: Path) -> None:
    report = Conformance(bank_dry_settings()).run()
    (finding,) = report.failing()
    # ours ends the game when the bank's last coin is paid out; the broken copy plays on
    assert (finding.part, finding.kind) == ("playout", "no_end")
    assert finding.case.startswith("rare-0-bank-nearly-dry-2p")
    # found from a written position, shrunk by position like any play-out's finding: the
    # last coin's tax, a step or few from a position with one coin in the bank
    assert finding.given is not None and finding.given["bank"] == 1
    assert finding.shrink == "position" and 1 <= len(finding.steps) <= 3
    assert finding.rule == "PAL-END-02", finding.rule_reason  # the rule that ended ours
    # the case starts from that position: it passes on ours, fails on the broken one
    assert finding.scenario is not None and "bank: 1" in finding.scenario
    (tmp_path / "case.yaml").write_text(finding.scenario)
    ours = Settings(
        engine=f"{SERVE} --game palmyra",
        game="palmyra",
        players=(2,),
        games=0,
        parts=("scenarios",),
        scenarios_dir=tmp_path,
    )
    assert Conformance(ours).run().counts.scenarios_passed == 1
    on_broken = attrs.evolve(ours, engine=bank_dry_settings().engine)
    assert Conformance(on_broken).run().counts.scenarios_failed == 1


@pytest.mark.parametrize("unshrunk", [{"shrink": False}, {"shrink_seconds": 0.0}])
def test_a_finding_from_a_start_is_named_from_its_written_position_unshrunk(
    unshrunk: dict[str, object],
) -> None:
    report = Conformance(bank_dry_settings(**unshrunk)).run()
    (finding,) = report.failing()
    # the game as found: the rare end's position, then the events played from it; ours
    # replays them from that position to name the rule that ended its game
    assert finding.given is not None and finding.given["bank"] == 1
    assert finding.shrink in (None, "not shrunk: the shrink budget is spent")
    assert len(finding.events) > 1 and finding.rule == "PAL-END-02"
    assert finding.rule_reason is not None and "the bank is empty" in finding.rule_reason
    assert finding.log is None  # a log cannot set values by path
    assert finding.scenario is not None and "bank: 1" in finding.scenario


def test_random_play_outs_alone_do_not_reach_the_bank_running_dry() -> None:
    report = Conformance(bank_dry_settings(reach=False)).run()
    assert report.passed(), [f.message for f in report.findings]


@pytest.mark.parametrize("game", game_names())
def test_every_game_has_a_rare_end_our_engine_takes_for_every_player_count(game: str) -> None:
    rules = make_game(game, {})
    games = GameCache()
    for count in range(rules.min_players, rules.max_players + 1):
        players = ("red", "blue", "green", "yellow", "white")[:count]
        (end,) = rare_ends(games, game, players, {}, seed=5)
        start = end.start
        assert end.kind == RARE_END and start.given and start.players == players
        ref = LocalEngine(games=games)
        ref.new_game(game, players, {})
        ref.set_state(start.given)  # EngineError if our engine called it unsound
        assert not ref.to_act()[1]


def test_a_rare_end_an_unlimited_supply_puts_out_of_reach_is_left_out() -> None:
    # An unlimited bank never runs dry: no bank-nearly-dry start (it was an internal error,
    # arithmetic on the bank's null). Pillars with only metal unlimited still brings the
    # other kinds near empty and leaves metal as it is; with every kind unlimited, no start.
    games = GameCache()
    players = ("red", "blue")
    assert rare_ends(games, "palmyra", players, {"profile": {"bank.total": None}}, seed=5) == []
    cubes = {"sand": 23, "wood": 23, "stone": 23, "metal": None}
    (end,) = rare_ends(games, "pillars", players, {"profile": {"setup.cubes": cubes}}, seed=5)
    given = end.start.given
    assert given is not None
    ref = LocalEngine(games=games)
    ref.new_game("pillars", players, {"profile": {"setup.cubes": cubes}})
    ref.set_state(given)
    assert [ref.position[f"supply.{k}"] for k in ("sand", "wood", "stone")] == [1, 1, 1]
    assert ref.position["supply.metal"] is None
    unlimited = dict.fromkeys(cubes)
    assert (
        rare_ends(games, "pillars", players, {"profile": {"setup.cubes": unlimited}}, seed=5) == []
    )


def test_favouring_takes_the_event_under_the_one_rule_not_yet_exercised() -> None:
    settings = Settings(engine="unused", game="palmyra", players=(2,))
    coverage = Coverage(settings, GameCache())
    for rule, count in coverage.summary.counts.items():
        count.accepted = 0 if rule == "PAL-REORG-01" else 1
    ref = LocalEngine()
    ref.new_game("palmyra", ("red", "blue"), {})
    rng = random.Random(0)
    while ref.legal()[0]["type"] == "draw_tile":  # the setup's draws
        ref.apply(ref.legal()[ref.choice(rng)])
    chooser = Favouring(coverage, random.Random(1), limit=10)
    choice = chooser(ref, 0)
    assert choice is not None and ref.legal()[choice]["type"] == "reorganise"
    assert chooser(ref, 10) is None  # the limit


def test_the_same_seed_plays_the_same_deliberate_play_outs() -> None:
    settings = Settings(
        engine=f"{SERVE} --game municipium",
        game="municipium",
        players=(3,),
        games=1,
        parts=("playout", "probes"),
        seed=7,
    )
    first, second = Conformance(settings).run(), Conformance(settings).run()
    assert first.cases == second.cases and len(first.cases) > 1
    assert covered(first).counts == covered(second).counts
    assert covered(first).starts_played == covered(second).starts_played > 0


def test_without_set_state_the_play_outs_start_only_from_the_setup() -> None:
    settings = Settings(
        engine=adapter("palmyra", "--no-capabilities"),
        game="palmyra",
        players=(2,),
        games=1,
        parts=("playout",),
    )
    report = Conformance(settings).run()
    assert report.passed(), [f.message for f in report.findings]
    assert not any(name.startswith("rare-") for _, name in report.cases)
    assert any("no set_state" in note for note in covered(report).notes)
    assert covered(report).starts_skipped >= 1


# --- the done-when: a default run reaches 95% of each catalogue -------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game", game_names())
def test_a_default_run_against_serve_exercises_95_percent_of_the_catalogue(game: str) -> None:
    rules = make_game(game, {})
    settings = Settings(
        engine=f"{SERVE} --game {game}",
        game=game,
        players=tuple(range(rules.min_players, rules.max_players + 1)),
        min_coverage=95.0,
    )
    report = Conformance(settings).run()
    summary = covered(report)
    assert report.passed(), (summary.percent(), summary.not_exercised())
    assert summary.percent() >= 95.0
    # what is left is listed as unreachable by play: every rule play reaches leaves a mark
    assert set(summary.not_exercised()) <= set(summary.unreachable), summary.not_exercised()
