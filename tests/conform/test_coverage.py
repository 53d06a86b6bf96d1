"""Rule coverage of a conform run: what is counted, the coverage files, the reports.

Expected counts follow from the definition (docs/conformance.md, "Rule coverage"): the turn
rule lets through every event accepted, so it is accepted once per event the run applied;
every probe sent is refused by one rule; the setup rules are exercised once per game
started from the setup; the replays of shrinking count nothing.
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import jsonschema
import pytest
import xmlschema
from typer.testing import CliRunner

from oracle.conform import Conformance
from oracle.coverage import Tracker, load_coverage_file
from oracle.findings import Report, RuleCoverage, Settings
from oracle.formats.converter import structure_event, unstructure_event
from oracle.play import choose
from oracle.probes import new_pool, remember
from oracle.reach import near_misses
from oracle.refengine import LocalEngine
from reference.core.game import step
from reference.palmyra.lattice import neighbours
from reference.registry import game_names, make_game
from rules_oracle_cli.cli import app
from tests.conform.conftest import ROOT, SERVE, adapter

SCHEMA = json.loads((ROOT / "rules_oracle" / "schemas" / "report-conform.schema.json").read_text())
JUNIT = xmlschema.XMLSchema(ROOT / "tests" / "junit" / "junit-10.xsd")
runner = CliRunner()


def run(game: str, *parts: str, engine: str | None = None, **kw: Any) -> Report:
    settings = Settings(
        engine=engine or f"{SERVE} --game {game}",
        game=game,
        players=(2,),
        games=1,
        parts=parts or ("playout",),
        reach=False,
        **kw,
    )
    return Conformance(settings).run()


def covered(report: Report) -> RuleCoverage:
    """The run's rule coverage (every run that played measures it)."""
    assert report.rules_exercised is not None
    return report.rules_exercised


# --- the coverage files --------------------------------------------------------------------


@pytest.mark.parametrize("game", game_names())
def test_every_rule_a_coverage_file_names_is_in_the_catalogue(game: str) -> None:
    rules = make_game(game, {})
    ids = {r.id for r in rules.catalogue.rules}
    listed = load_coverage_file(rules)
    assert set(listed.listed()) <= ids, set(listed.listed()) - ids
    reasons = [*listed.unreachable.values(), *(u.reason for u in listed.unreachable_when)]
    assert all(len(reason.split()) >= 8 for reason in reasons)


@pytest.mark.parametrize("game", game_names())
def test_the_game_docs_list_every_rule_no_play_reaches_with_its_reason(game: str) -> None:
    listed = load_coverage_file(make_game(game, {}))
    text = (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")
    section = text.split("## Rules no play reaches", 1)
    assert len(section) == 2, f"docs/games/{game}.md has no 'Rules no play reaches' section"
    body = section[1].split("\n## ", 1)[0]
    # one bullet per rule: "- `PAL-GEO-02` (what it says): why"
    listed_in_docs = re.findall(r"^- `([A-Z]+-[A-Z]+-\d+)` ", body, flags=re.MULTILINE)
    conditional = [u.rule for u in listed.unreachable_when]
    assert sorted(listed_in_docs) == sorted({*listed.unreachable, *conditional})


UNLIMITED = {
    "milestones": {"supply.cubes_per_good": None, "supply.coins": None, "supply.cover_tiles": None},
    "palmyra": {"bank.total": None},
    "pillars": {"setup.cubes": dict.fromkeys(("sand", "wood", "stone", "metal"))},
}
"""A profile per game making unlimited every supply a rule of ``unreachable_when`` needs."""


@pytest.mark.parametrize("game", sorted(UNLIMITED))
def test_rules_only_a_limit_reaches_are_unreachable_under_an_unlimited_profile(game: str) -> None:
    # Played with every supply unlimited, from the setup and from the rare ends (reach: the
    # bank or stacks nearly empty, the last round), no event is accepted or refused under
    # them, and the report lists them as unreachable with the file's reason; with the
    # rulebook's counts they are not listed.
    conditional = load_coverage_file(make_game(game, {})).unreachable_when
    assert conditional
    settings = Settings(
        engine=f"{SERVE} --game {game}",
        game=game,
        players=(2, 3),
        games=3,
        parts=("playout",),
        reach=True,
        options={"profile": UNLIMITED[game]},
    )
    report = Conformance(settings).run()
    assert report.passed(), [f.message for f in report.findings]
    summary = covered(report)
    for entry in conditional:
        count = summary.counts[entry.rule]
        assert (count.accepted, count.refused) == (0, 0), entry.rule
        assert summary.unreachable[entry.rule] == entry.reason
    limited = covered(run(game, "playout"))
    assert not {u.rule for u in conditional} & set(limited.unreachable)


def test_a_limit_partly_unlimited_is_still_reachable() -> None:
    # Goods unlimited but coins counted: a sale can still find no coin left (MIL-SUPPLY-01).
    game = make_game("milestones", {"profile": {"supply.cubes_per_good": None}})
    assert "MIL-SUPPLY-01" not in load_coverage_file(game).unreachable_in(game)
    both = make_game(
        "milestones", {"profile": {"supply.cubes_per_good": None, "supply.coins": None}}
    )
    assert "MIL-SUPPLY-01" in load_coverage_file(both).unreachable_in(both)
    # Good by good: all four goods null is the same; one good still counted is not.
    per_good: dict[str, Any] = dict.fromkeys(("stone", "wood", "sand", "grain"))
    for counts, unreachable in ((per_good, True), ({**per_good, "grain": 12}, False)):
        profile = {"supply.cubes_per_good": counts, "supply.coins": None}
        game = make_game("milestones", {"profile": profile})
        assert ("MIL-SUPPLY-01" in load_coverage_file(game).unreachable_in(game)) is unreachable


# --- what a run counts ---------------------------------------------------------------------


def test_the_turn_rule_is_accepted_once_per_event_and_the_setup_once_per_game() -> None:
    report = run("palmyra")
    counts = covered(report).counts
    assert report.counts.events > 0
    assert counts["PAL-TURN-01"].accepted == report.counts.events
    # the setup rules Palmyra's setup notes (reference/palmyra/engine.py SETUP_MADE)
    assert counts["PAL-SETUP-06"].accepted == 1 and counts["PAL-SETUP-01"].accepted == 1
    # a standard game: the advanced game's extra coin is not part of its setup
    assert counts["PAL-SETUP-04"].accepted == 0
    # the result compared at the end: the game's scoring rule
    assert counts["PAL-END-03"].accepted == 1


def test_every_probe_sent_is_refused_by_one_rule() -> None:
    report = run("palmyra", "playout", "probes")
    definitions = load_coverage_file(make_game("palmyra", {})).used_by  # counted with others
    counts = covered(report).counts
    refused = sum(c.refused for rule, c in counts.items() if rule not in definitions)
    # the one probe after the end is refused by CORE-END-01, a rule of no game's catalogue
    assert report.counts.probes > 1
    assert refused == report.counts.probes - 1


def test_the_replays_of_shrinking_are_not_counted() -> None:
    report = run("palmyra", engine=adapter("palmyra", "--lie", "bank", "--from-event", "10"))
    (finding,) = report.failing()
    assert finding.shrunk_from == 10 and report.counts.shrink_runs > 0
    assert covered(report).counts["PAL-TURN-01"].accepted == report.counts.events == 10


def test_the_share_is_of_the_whole_catalogue() -> None:
    summary = covered(run("municipium"))
    exercised = [rule for rule, c in summary.counts.items() if c.accepted or c.refused]
    assert summary.percent() == pytest.approx(100 * len(exercised) / len(summary.rules))
    assert 0 < summary.percent() < 100
    assert set(summary.not_exercised()) == set(summary.counts) - set(exercised)


def test_a_definition_counts_as_often_as_the_rules_that_decide_with_it() -> None:
    counts = covered(run("palmyra")).counts
    users = ("PAL-PLACE-03", "PAL-PLACE-04", "PAL-MATCH-01", "PAL-MATCH-02")
    assert counts["PAL-GEO-03"].accepted == sum(counts[u].accepted for u in users) > 0


def accepted_under(name: str, players: int, seed: int, rule: str) -> list[tuple[Any, Any, bool]]:
    """For each event of a seeded random game: the state, the event, and whether ours
    accepts it under ``rule`` (what a run counts)."""
    game = make_game(name, {})
    tracker = Tracker()
    state = game.new_game(("red", "blue", "green", "white")[:players])
    rng = random.Random(seed)
    seen = []
    while not game.is_over(state):
        event = choose(game, state, rng)
        rules = tracker.accepted_rules(game, state, unstructure_event(event))
        seen.append((state, event, rule in rules))
        state = step(game, state, event)
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_leftover_draft_tile_is_counted_at_the_last_pick_only(players: int) -> None:
    # MIL-SETUP-05: two picks each; MIL-SETUP-07: the tile left after them leaves the game
    seen = accepted_under("milestones", players, players, "MIL-SETUP-07")
    picks = [(s, e, under) for s, e, under in seen if e.type == "draft_worker_tile"]
    assert len(picks) == 2 * players
    assert [under for _, _, under in picks] == [False] * (2 * players - 1) + [True]
    assert sum(under for _, _, under in seen) == 1


def test_the_neutral_city_is_counted_at_tiles_placed_next_to_it_only() -> None:
    # PAL-MATCH-04: city-centre tiles never match: it decides at a tile touching the city
    seen = accepted_under("palmyra", 2, 5, "PAL-MATCH-04")
    placed = [(s, e, under) for s, e, under in seen if e.type == "place_tile"]
    touching = [any(n in s.city for n in neighbours(e.cell)) for s, e, _ in placed]
    assert any(touching) and not all(touching)
    assert [under for _, _, under in placed] == touching
    assert sum(under for _, _, under in seen) == sum(touching)


def test_near_misses_are_legal_events_with_one_field_changed() -> None:
    ref = LocalEngine()
    ref.new_game("pillars", ("red", "blue"), {})
    pool = new_pool()
    game, _ = ref.internals()
    remember(pool, [structure_event(game, e) for e in ref.legal()])
    legal = ref.legal()
    misses = near_misses(ref, pool, random.Random(3), 20)
    assert misses
    for miss in misses:
        differences = [
            sum(miss[k] != e[k] for k in miss) for e in legal if e["type"] == miss["type"]
        ]
        assert 1 in differences, miss  # its source (it may be another legal event too)


# --- the reports ---------------------------------------------------------------------------


def cli(*more: str) -> Any:
    args = ["conform", "--engine", f"{SERVE} --game palmyra", "--game", "palmyra"]
    args += ["--players", "2", "--games", "1", "--part", "playout", "--no-reach", *more]
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_the_text_report_has_a_row_per_rule_and_the_share() -> None:
    result = cli()
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    rows = [line for line in lines if line.startswith("PAL-")]
    assert len(rows) == len(make_game("palmyra", {}).catalogue.rules)
    (geo,) = [row for row in rows if row.startswith("PAL-GEO-02 ")]
    assert geo.endswith("unreachable by play (listed)")
    (share,) = [line for line in lines if line.startswith("rule coverage: ")]
    assert "unreachable by play: 1 (listed)" in share


def test_below_the_minimum_the_run_fails_with_one_clear_line() -> None:
    result = cli("--min-coverage", "100")
    assert result.exit_code == 1
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("FAIL coverage")]
    assert "below --min-coverage 100%" in line
    assert result.stdout.splitlines()[-1].startswith("FAIL: 0 failing")
    assert cli("--min-coverage", "1").exit_code == 0


def test_a_minimum_that_is_no_share_is_a_usage_error() -> None:
    result = cli("--min-coverage", "150")
    assert result.exit_code == 2
    assert "--min-coverage" in result.output


def test_the_json_report_carries_the_coverage_and_fits_the_schema() -> None:
    result = cli("--format", "json", "--min-coverage", "100")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    jsonschema.validate(report, SCHEMA)
    coverage = report["rules_exercised"]
    assert report["passed"] is False and coverage["passed"] is False
    assert coverage["minimum"] == 100 and coverage["catalogue"] == len(coverage["rules"])
    (geo,) = [r for r in coverage["rules"] if r["id"] == "PAL-GEO-02"]
    assert geo["unreachable"] and (geo["accepted"], geo["refused"]) == (0, 0)
    assert "PAL-GEO-02" in coverage["not_exercised"]


def test_the_junit_report_has_the_coverage_as_properties_and_a_failing_case() -> None:
    result = cli("--format", "junit", "--min-coverage", "100")
    assert result.exit_code == 1
    JUNIT.validate(result.stdout)
    suite = ET.fromstring(result.stdout)
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    catalogue = len(make_game("palmyra", {}).catalogue.rules)
    assert (props["rules_exercised"] or "").endswith(f" of {catalogue}")
    assert props["rules_exercised.minimum"] == "100"
    assert "PAL-GEO-02" in (props["rules_exercised.not_exercised"] or "")
    (case,) = [c for c in suite.findall("testcase") if c.get("name") == "rule-coverage"]
    failure = case.find("failure")
    assert failure is not None and "below --min-coverage 100%" in failure.get("message", "")
