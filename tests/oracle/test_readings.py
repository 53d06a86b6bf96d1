"""Issue 23 item 1: the readings search. A log played under a non-default reading of a
disputed rule, validated with our default, gets that reading suggested, and only after the
log was replayed under it.

The logs are our own: seeded games played through the API under the other reading, with
that option then taken out of the header (as another implementation's log would come).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import rules_oracle
from oracle.games import GameCache
from oracle.readings import readings_search
from oracle.replay import Verdict, validate_records
from rules_oracle_cli.cli import app

runner = CliRunner()

ORDERED_LOCATIONS = ("bishop", "priory", "kings_court", "castle", "market", "cathedral")
"""PIL-BUILD-11 (docs/games/pillars.md): these fill from the first space; Kingsbridge and
Shiring spaces hold different cards and are chosen."""
MARKET_ACTIONS = ("buy_resources", "sell_resources", "pass_market")


def played(game: str, players: int, seed: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    """A seeded game under ``options``: its events with their claims, then its result."""
    lines = rules_oracle.play_log(game, players, seed=seed, options=options)
    return [json.loads(line) for line in lines[1:]]


def names(players: int) -> list[str]:
    return list(rules_oracle.PLAYER_NAMES[:players])


def validated(game: str, players: int, events: list[dict[str, Any]]) -> Verdict:
    """The verdict under our default reading, with the readings search."""
    return rules_oracle.validate_events(game, names(players), events, readings=True)


def suggested(verdict: Verdict) -> list[tuple[dict[str, Any], str]]:
    assert verdict.readings is not None
    return [(r.options, r.status) for r in verdict.readings.found]


def test_archbishop_at_step_13_is_suggested_for_a_log_that_asks_it_there() -> None:
    events = played("pillars", 2, 2, {"archbishop_timing": "cathedral"})
    verdict = validated("pillars", 2, events)
    # PIL-EVENT-04, our default: the archbishop's choice is asked at the event (step 1), so
    # right after the archbishop is revealed the step is "archbishop"; the log, asking it
    # at step 13, goes on to the tax roll and claims the step "tax".
    reveal = next(
        i for i, e in enumerate(events) if e == {**e, "type": "reveal_event", "event": "archbishop"}
    )
    assert (verdict.kind, verdict.event_index) == ("divergent", reveal)
    assert [(d.path, d.claimed, d.reference) for d in verdict.divergences] == [
        ("stage", "tax", "archbishop")
    ]
    assert suggested(verdict)[0] == ({"archbishop_timing": "cathedral"}, "valid")


def first_ordered_space_skipped(events: list[dict[str, Any]]) -> int:
    """PIL-BUILD-11 worked by hand: the first placement on a later space of a location that
    fills from the first while an earlier space there is free (spaces empty each round)."""
    taken: set[str] = set()
    for index, event in enumerate(events):
        if event["type"] == "reveal_advantages":  # a new round: the board is cleared
            taken = set()
        if event["type"] != "place_master_builder":
            continue
        location, number = event["space"].rsplit("_", 1)
        earlier = {f"{location}_{n}" for n in range(1, int(number))}
        if location in ORDERED_LOCATIONS and not earlier <= taken:
            return index
        taken.add(event["space"])
    raise AssertionError("no space was skipped")


def test_any_free_space_is_suggested_for_a_log_that_skips_a_free_first_space() -> None:
    events = played("pillars", 2, 1, {"ordered_spaces": "any_free"})
    verdict = validated("pillars", 2, events)
    assert (verdict.kind, verdict.rule_id) == ("illegal", "PIL-BUILD-11")
    assert verdict.event_index == first_ordered_space_skipped(events)
    assert suggested(verdict)[0] == ({"ordered_spaces": "any_free"}, "valid")


def test_the_later_market_space_is_suggested_for_a_log_that_trades_there() -> None:
    events = played("pillars", 3, 2, {"market_builders": "last"})
    verdict = validated("pillars", 3, events)
    assert (verdict.kind, verdict.rule_id) == ("illegal", "PIL-TURN-01")
    assert verdict.action in MARKET_ACTIONS
    assert "PIL-MARKET-11" in verdict.message
    # PIL-MARKET-11 by hand: the lap opens with the owner of the first market space under
    # our default (a player with several builders trades at the first of them); the log
    # has the player whose last builder comes earliest trade first.
    before = rules_oracle.validate_events("pillars", names(3), events, at=verdict.event_index)
    spaces = before.state_at["spaces"]
    owners = [spaces[f"market_{n}"] for n in range(1, 5) if f"market_{n}" in spaces]
    first_of = {o: owners.index(o) for o in owners}
    last_of = {o: len(owners) - 1 - owners[::-1].index(o) for o in owners}
    assert verdict.to_act == min(first_of, key=first_of.__getitem__)
    assert verdict.player == min(last_of, key=last_of.__getitem__) != verdict.to_act
    assert suggested(verdict)[0] == ({"market_builders": "last"}, "valid")


def test_one_turn_per_market_builder_is_suggested_for_a_log_that_plays_so() -> None:
    events = played("pillars", 3, 2, {"market_builders": "each"})
    verdict = validated("pillars", 3, events)
    assert (verdict.kind, verdict.rule_id) == ("illegal", "PIL-TURN-01")
    assert verdict.action in MARKET_ACTIONS
    assert "PIL-MARKET-11" in verdict.message
    assert suggested(verdict)[0] == ({"market_builders": "each"}, "valid")


def test_a_reading_is_proven_by_its_replay_never_guessed() -> None:
    """The archbishop log with a wrong claim on its last event: under the fitting reading
    the log still fails there, so the reading is offered as getting further, not valid."""
    events = played("pillars", 2, 2, {"archbishop_timing": "cathedral"})
    assert "result" in events[-1]  # the log's last line: the result
    last = len(events) - 2
    claims = events[last]["state"]
    gold = next(path for path in claims if path.endswith(".gold"))
    events[last] = {**events[last], "state": {**claims, gold: claims[gold] + 1}}
    verdict = validated("pillars", 2, events)
    assert verdict.kind == "divergent"
    assert suggested(verdict)[0] == ({"archbishop_timing": "cathedral"}, "divergent")
    assert verdict.readings is not None
    assert verdict.readings.found[0].events == last
    assert verdict.readings.found[0].text() == (
        f"reaches event {last} with archbishop_timing=cathedral (then divergent)"
    )


PILLARS_OTHER_VALUES = 10
"""docs/games/pillars.md, Options: bishop_positive 1 other value, resale_ban 1,
cathedral_empty 2, income_cards 1, start_player_rejects 1, archbishop_timing 1,
market_builders 2, ordered_spaces 1."""


def test_a_log_no_reading_helps_gets_no_suggestion() -> None:
    events = played("pillars", 2, 0, {})
    del events[0]  # the first round's advantage cards are never revealed
    verdict = validated("pillars", 2, events)
    assert (verdict.kind, verdict.event_index) == ("illegal", 0)
    assert verdict.readings is not None
    assert verdict.readings.found == ()
    # every other value alone, and no pair: no option's rule is touched, none moved it
    assert (verdict.readings.tried, verdict.readings.complete) == (PILLARS_OTHER_VALUES, True)


def test_the_search_stops_at_its_time_bound() -> None:
    events = played("pillars", 2, 0, {})
    del events[0]
    header = {"format": "rules-oracle-log", "version": 1, "game": "pillars"}
    records = [(1, {**header, "players": names(2), "options": {}})]
    records += [(n, e) for n, e in enumerate(events, start=2)]
    games = GameCache()
    verdict = validate_records("log", lambda: iter(records), games, None)
    ticks = iter(range(100))  # one second passes at each look at the clock
    search = readings_search(verdict, lambda: iter(records), games, 3.0, lambda: next(ticks))
    assert (search.tried, search.complete) == (3, False)


@pytest.mark.parametrize(
    ("game", "players", "seed", "options"),
    [("palmyra", 2, 2, {"icon_match": "add"}), ("municipium", 2, 2, {"end_mode": "immediate"})],
)
def test_every_game_takes_part(game: str, players: int, seed: int, options: dict[str, Any]) -> None:
    verdict = validated(game, players, played(game, players, seed, options))
    assert verdict.fails()
    assert (options, "valid") in suggested(verdict)


def write_log(tmp_path: Path, events: list[dict[str, Any]], players: int) -> Path:
    header = {"format": "rules-oracle-log", "version": 1, "game": "pillars"}
    header |= {"players": names(players), "options": {}}
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [header, *events]) + "\n")
    return path


def test_the_cli_searches_readings_for_one_log_in_text_by_default(tmp_path: Path) -> None:
    log = write_log(tmp_path, played("pillars", 2, 1, {"ordered_spaces": "any_free"}), 2)
    result = runner.invoke(app, ["validate", str(log)])
    assert result.exit_code == 1
    assert "    valid with ordered_spaces=any_free" in result.stdout.splitlines()
    quiet = runner.invoke(app, ["validate", str(log), "--no-readings"])
    assert quiet.exit_code == 1
    assert "readings that fit" not in quiet.stdout
    folder = runner.invoke(app, ["validate", str(tmp_path)])
    assert folder.exit_code == 1
    assert "readings that fit" not in folder.stdout
    data = runner.invoke(app, ["validate", str(log), "--format", "json", "--readings"])
    assert data.exit_code == 1
    [found] = json.loads(data.stdout)["results"]
    assert found["readings"]["found"][0] == {
        "options": {"ordered_spaces": "any_free"},
        "status": "valid",
        "events": len(log.read_text().splitlines()) - 2,  # the header and result lines
        "rule_id": None,
    }
    plain = runner.invoke(app, ["validate", str(log), "--format", "json"])
    assert json.loads(plain.stdout)["results"][0]["readings"] is None
