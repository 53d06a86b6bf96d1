"""Where several players' decisions are pending (Pillars' independent decisions: each
player's discards at the division, in any order), the legal events of a verdict are all of
them: the report says "legal there", not "legal for <the player to act> there", and lists
them under each player; the JSON keeps its data; the replay page shows them the same way."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import rules_oracle
from oracle.formats.converter import unstructure_event
from oracle.formats.log import header_line
from oracle.play import choose
from reference.core.game import step
from reference.registry import make_game
from rules_oracle_cli.cli import app

PLAYERS = ("gold_1", "gold_2", "gold_3")


@pytest.fixture(scope="module")
def several_pending(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A Pillars log that reaches the first point where several players decide at once and
    then gives an event no rule allows there; with the pending players' own legal events."""
    game: Any = make_game("pillars", {})
    for seed in range(50):
        rng, state, events = random.Random(seed), game.new_game(PLAYERS), []
        while not game.is_over(state) and len(game.pending(state)) < 2:
            event = choose(game, state, rng)
            events.append(unstructure_event(event))
            state = step(game, state, event)
        if not game.is_over(state):
            break
    pending = game.pending(state)
    own = {
        name: [unstructure_event(e) for e in game.legal_events(state) if e.player == name]
        for name in pending
    }
    bad = {"type": "pass_market", "player": pending[0]}
    log = tmp_path_factory.mktemp("logs") / "several.jsonl"
    lines = [header_line("pillars", PLAYERS, {}), *map(json.dumps, [*events, bad])]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return log, {"pending": pending, "own": own, "index": len(events)}


def test_the_report_says_legal_there_and_groups_by_player(
    several_pending: tuple[Path, dict[str, Any]],
) -> None:
    log, found = several_pending
    verdict = rules_oracle.validate_log(log)
    assert (verdict.kind, verdict.event_index) == ("illegal", found["index"])
    text = rules_oracle.describe(verdict).splitlines()
    count = sum(len(events) for events in found["own"].values())
    shown = f" ({count}):" if count <= 12 else f": {count}, for example:"
    heading = f"  legal there{shown}"
    assert heading in text
    assert not any(line.startswith("  legal for") for line in text)
    listed = text[text.index(heading) + 1 :]
    groups: dict[str, list[dict[str, Any]]] = {}
    player = ""
    for line in listed:
        if line.startswith("      "):
            groups[player].append(json.loads(line))
        else:
            player = line.strip().removesuffix(":")
            groups[player] = []
    assert list(groups) == list(found["pending"])
    for player, events in groups.items():
        assert events and all(e in found["own"][player] for e in events), player


def test_the_json_report_keeps_the_list_as_it_was(
    several_pending: tuple[Path, dict[str, Any]],
) -> None:
    log, found = several_pending
    result = CliRunner().invoke(app, ["validate", "--format", "json", str(log)])
    (item,) = json.loads(result.stdout)["results"]
    every = [e for events in found["own"].values() for e in events]
    assert item["to_act"] == found["pending"][0]
    assert item["legal_count"] == len(every)
    assert all(e in every for e in item["legal"])
    assert {e["player"] for e in item["legal"]} == set(found["pending"])


def test_the_replay_page_groups_them_too(several_pending: tuple[Path, dict[str, Any]]) -> None:
    log, found = several_pending
    page, _ = rules_oracle.ReplayPages().log_page(log)
    count = sum(len(events) for events in found["own"].values())
    assert f"<summary>legal there: {count} events" in page
    assert f"legal for {found['pending'][0]} there" not in page
    for player in found["pending"]:
        assert f'<li class="legal-player">{player}<ul>' in page


def test_one_player_to_act_is_still_named(tmp_path: Path) -> None:
    lines = rules_oracle.play_log("milestones", 2)
    header, *events = (json.loads(x) for x in lines[:-1])
    turn = next(i for i, e in enumerate(events) if e.get("player") == "blue")
    events[turn]["player"] = "red"  # MIL-TURN-01: only blue may act there
    verdict = rules_oracle.validate_events("milestones", header["players"], events)
    text = rules_oracle.describe(verdict)
    assert "  legal for blue there" in text and "  legal there" not in text
    assert "\n    blue:" not in text
