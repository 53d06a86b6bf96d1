"""docs/games/<game>.md is the public position notation and the table of refusals.

Every state path a scenario's ``given`` or ``expect`` uses, and every field of the state,
must be documented under "State paths"; the "Rule ids by event" table must name exactly the
rule ids the engine code can raise on each event's way, in the order the code checks them,
each one in the catalogue, and every (event, rule) pair a scenario expects to be refused.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import attrs
import pytest
import yaml
from refusals import refusal_order, refusals

from oracle.rulebook import core_catalogue
from reference.registry import game_names, make_game

ROOT = Path(__file__).resolve().parents[2]
TICKED = re.compile(r"`([^`]+)`")
PLAYER = "<player>"


def _section(game: str, title: str) -> list[list[str]]:
    """The table rows (cells) of one ``## title`` section of docs/games/<game>.md."""
    text = (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    rows = []
    for line in text[start : end if end > 0 else None].splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[1:]  # without the header row


def documented_patterns(game: str) -> list[list[str]]:
    """Each documented path pattern, as its segments."""
    return [
        pattern.split(".")
        for row in _section(game, "State paths")
        for pattern in TICKED.findall(row[0])
    ]


def _segment_matches(pattern: str, segment: str, players: set[str]) -> bool:
    if pattern == PLAYER:
        return segment in players
    if pattern.startswith("<") and pattern.endswith(">"):
        return True
    if pattern.startswith("{") and pattern.endswith("}"):
        return segment in pattern[1:-1].split(",")
    return pattern == segment


def is_documented(path: str, patterns: list[list[str]], players: set[str]) -> bool:
    """A path matches a pattern whole, or stops early inside one (the whole mapping)."""
    segments = path.split(".")
    return any(
        len(segments) <= len(pattern)
        and all(_segment_matches(p, s, players) for p, s in zip(pattern, segments, strict=False))
        for pattern in patterns
    )


def _scenarios(game: str) -> list[tuple[Path, dict[str, Any]]]:
    files = sorted((ROOT / "scenarios" / game).glob("*.yaml"))
    return [(f, yaml.safe_load(f.read_text(encoding="utf-8"))) for f in files]


def test_the_matcher_on_hand_made_patterns() -> None:
    patterns = [
        ["players", PLAYER, "gold"],
        ["market", "<resource>"],
        ["players", PLAYER, "workers", "<space>", "{kind,number}"],
    ]
    players = {"red", "blue"}
    assert is_documented("players.red.gold", patterns, players)
    assert is_documented("players.blue", patterns, players)  # stops early: the player
    assert is_documented("market", patterns, players)
    assert is_documented("market.wood", patterns, players)
    assert is_documented("players.red.workers.W3.kind", patterns, players)
    assert not is_documented("players.green.gold", patterns, players)  # not a player
    assert not is_documented("players.red.gld", patterns, players)
    assert not is_documented("market.wood.price", patterns, players)  # too deep
    assert not is_documented("players.red.workers.W3.half", patterns, players)
    assert not is_documented("bank", patterns, players)


@pytest.mark.parametrize("game", game_names())
def test_every_scenario_path_is_documented(game: str) -> None:
    patterns = documented_patterns(game)
    missing = []
    for path, scenario in _scenarios(game):
        players = set(scenario.get("players", ()))
        for part in ("given", "expect"):
            for state_path in (scenario.get(part) or {}).get("state") or {}:
                if not is_documented(state_path, patterns, players):
                    missing.append(f"{path.name}: {part}.state {state_path}")
    assert not missing, "undocumented in docs/games/" + game + ".md:\n" + "\n".join(missing)


def _field_paths(node: Any, prefix: str) -> list[str]:
    """Every attrs field of a state, as a path (descending into players' and other records)."""
    if attrs.has(type(node)):
        found = []
        for f in attrs.fields(type(node)):
            path = f"{prefix}.{f.name}" if prefix else f.name
            found.append(path)
            found += _field_paths(getattr(node, f.name), path)
        return found
    if isinstance(node, dict):
        return [p for key, value in node.items() for p in _field_paths(value, f"{prefix}.{key}")]
    return []


@pytest.mark.parametrize("game", game_names())
def test_every_field_of_the_state_is_documented(game: str) -> None:
    players = ("red", "blue")
    state = make_game(game, {}).new_game(players)
    patterns = documented_patterns(game)
    missing = [p for p in _field_paths(state, "") if not is_documented(p, patterns, set(players))]
    assert not missing, f"state fields missing from docs/games/{game}.md: {missing}"


def documented_refusals(game: str) -> dict[str, set[str]]:
    """Event type -> rule ids, with the "any event" row added to each."""
    rows = {row[0]: set(TICKED.findall(row[1])) for row in _section(game, "Rule ids by event")}
    shared = rows.pop("any event")
    return {TICKED.findall(event)[0]: ids | shared for event, ids in rows.items()}


@pytest.mark.parametrize("game", game_names())
def test_refusal_table_names_every_event_and_catalogued_ids(game: str) -> None:
    rule_set = make_game(game, {})
    table = documented_refusals(game)
    assert set(table) == {cls.type for cls in rule_set.event_types}
    known = set(rule_set.catalogue.ids()) | set(core_catalogue().ids())
    unknown = {event: ids - known for event, ids in table.items() if ids - known}
    assert not unknown, f"ids not in the catalogue: {unknown}"


@pytest.mark.parametrize("game", game_names())
def test_refusal_table_matches_the_code(game: str) -> None:
    table = documented_refusals(game)
    from_code = refusals(game)
    differ = {
        event: {"raised, not listed": sorted(ids - table[event])}
        | {"listed, never raised": sorted(table[event] - ids)}
        for event, ids in from_code.items()
        if ids != table.get(event)
    }
    assert not differ, f"docs/games/{game}.md 'Rule ids by event' differs from the code: {differ}"


@pytest.mark.parametrize("game", game_names())
def test_refusal_table_lists_the_ids_in_the_order_the_code_checks_them(game: str) -> None:
    """Which rule an event breaking two gets: the first in the row (the first row, for every
    event, before the event's own), as the code makes its checks."""
    rows = {row[0]: TICKED.findall(row[1]) for row in _section(game, "Rule ids by event")}
    documented = {(k if k == "any event" else TICKED.findall(k)[0]): v for k, v in rows.items()}
    assert documented == refusal_order(game)


@pytest.mark.parametrize("game", game_names())
def test_every_refusal_a_scenario_expects_is_listed(game: str) -> None:
    table = documented_refusals(game)
    missing = []
    for path, scenario in _scenarios(game):
        illegal = (scenario.get("expect") or {}).get("illegal")
        if illegal:
            event = scenario["steps"][illegal["step"]]["type"]
            if illegal["rule"] not in table.get(event, set()):
                missing.append(f"{path.name}: {event} refused by {illegal['rule']}")
    assert not missing, "\n".join(missing)
