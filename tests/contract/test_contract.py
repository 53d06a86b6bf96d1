"""The contract suite: every registered game, the same checks (docs/engine-contract.md).

Random legal play-outs with invariants after every step, the chance and legal-event
contract, cattrs round trips, catalogue completeness, and play -> validate through the CLI
with the bad-input guarantees (divergent, illegal, malformed with a line number).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from oracle.formats.converter import CONVERTER, structure_event, unstructure_event
from oracle.play import PLAYER_NAMES, choose
from reference.core.game import CHANCE, Game, step
from reference.registry import game_names, make_game
from rules_oracle_cli.cli import app

ROOT = Path(__file__).resolve().parents[2]
GAMES = game_names()
runner = CliRunner()
MAX_EVENTS = 20_000


def counts(game: Game) -> range:
    return range(game.min_players, game.max_players + 1)


def cases(seeds: int) -> list[tuple[str, int, int]]:
    out = []
    for name in GAMES:
        game = make_game(name, {})
        for n in counts(game):
            out += [(name, n, seed) for seed in range(seeds)]
    return out


def check_node(game: Game, state: Any, rng: random.Random, apply_all: bool) -> None:
    """The per-step contract: events listed, sorted out by actor, chance sums to one."""
    legal = game.legal_events(state)
    assert legal, f"{game.to_act(state)} is to act but no legal event is listed"
    assert len({repr(e) for e in legal}) == len(legal), "legal events repeat"
    if game.to_act(state) == CHANCE:
        outcomes = game.chance_outcomes(state)
        assert abs(sum(w for _, w in outcomes) - 1) < 1e-9, "chance weights must sum to 1"
        assert [e for e, _ in outcomes] == legal, "chance outcomes and legal events differ"
        assert all(not hasattr(e, "player") for e in legal)
    else:
        assert all(e.player == game.to_act(state) for e in legal)
    sample = legal if apply_all else rng.sample(legal, min(3, len(legal)))
    for event in sample:
        step(game, state, event)  # a listed event applies (raises otherwise)
        assert structure_event(game, unstructure_event(event)) == event


@pytest.mark.parametrize(("name", "players", "seed"), cases(3))
def test_random_playout(name: str, players: int, seed: int) -> None:
    game = make_game(name, {})
    rng = random.Random(seed)
    state = game.new_game(PLAYER_NAMES[:players])
    assert not game.invariant_failures(state)
    events = 0
    while not game.is_over(state):
        if events < 10 or events & (events - 1) == 0:  # OpenSpiel gear: early and powers of 2
            check_node(game, state, rng, apply_all=events < 3)
            assert CONVERTER.structure(CONVERTER.unstructure(state), game.state_type) == state
        state = step(game, state, choose(game, state, rng))
        events += 1
        assert events < MAX_EVENTS, "the game does not end"
    result = game.result(state)
    assert set(result.scores) == set(PLAYER_NAMES[:players])
    assert result.winners and set(result.winners) <= set(result.scores)
    assert CONVERTER.structure(CONVERTER.unstructure(state), game.state_type) == state


VOLUME = 240
"""Complete seeded games per game in the volume test, spread over its player counts."""


@pytest.mark.parametrize(
    ("name", "players"), [(n, p) for n in GAMES for p in counts(make_game(n, {}))]
)
def test_volume_of_complete_games(name: str, players: int) -> None:
    """Hundreds of complete games per game: invariants after every step (``step``), a legal
    event whenever the game is not over, and an end within the bound."""
    game = make_game(name, {})
    per_count = VOLUME // len(counts(game))
    for seed in range(1000, 1000 + per_count):
        rng = random.Random(seed)
        state = game.new_game(PLAYER_NAMES[:players])
        for _ in range(MAX_EVENTS):
            if game.is_over(state):
                break
            state = step(game, state, choose(game, state, rng))
        else:
            pytest.fail(f"seed {seed}: no end after {MAX_EVENTS} events")
        assert game.result(state).winners


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hypothesis_playout(name: str, data: st.DataObject) -> None:
    """Hypothesis chooses every event, so a failure shrinks to a short sequence."""
    game = make_game(name, {})
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    state = game.new_game(PLAYER_NAMES[:players])
    for _ in range(150):
        if game.is_over(state):
            break
        legal = game.legal_events(state)
        assert legal
        event = legal[data.draw(st.integers(0, len(legal) - 1))]
        state = step(game, state, event)


@pytest.mark.parametrize("name", GAMES)
def test_events_have_unique_wire_names(name: str) -> None:
    game = make_game(name, {})
    names = [cls.type for cls in game.event_types]
    assert len(set(names)) == len(names)
    assert all(
        attrs.has(cls) and re.fullmatch(r"[a-z][a-z0-9_]*", cls.type) for cls in game.event_types
    )


RULE_ID = re.compile(r"""["']([A-Z]{2,4}-[A-Z]+-[0-9A-Z]+)["']""")


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_id_in_code_is_catalogued(name: str) -> None:
    game = make_game(name, {})
    used: set[str] = set()
    for path in (ROOT / "reference" / name).rglob("*.py"):
        used |= set(RULE_ID.findall(path.read_text()))
    assert used, "the engine raises no rule id at all"
    missing = sorted(used - set(game.catalogue.ids()) - {"CORE-END-01"})
    assert not missing, f"rule ids used in code but not in the catalogue: {missing}"


@pytest.mark.parametrize("name", GAMES)
def test_catalogue_rules_name_existing_data(name: str) -> None:
    game = make_game(name, {})
    for rule in game.catalogue.rules:
        assert rule.id.split("-")[0] == rule.id.split("-")[0].upper()
        for key in rule.data:
            assert key in game.data.entries, f"{rule.id} rests on unknown data key {key}"
        if rule.dispute is not None:
            assert len(rule.dispute.claims) >= 1 and rule.dispute.resolution


def test_no_hidden_randomness_in_engines() -> None:
    for path in (ROOT / "reference").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"^\s*(import random|from random import)", text, re.M), path


def play(tmp_path: Path, name: str, players: int, seed: int) -> list[str]:
    out = tmp_path / f"{name}-{players}-{seed}.jsonl"
    result = runner.invoke(
        app,
        ["play", "--game", name, "--players", str(players), "--seed", str(seed), "-o", str(out)],
    )
    assert result.exit_code == 0, result.output
    return out.read_text().splitlines()


def validate(tmp_path: Path, lines: list[str]) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "check.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["validate", "--format", "json", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    verdict = json.loads(result.stdout)["results"][0]
    assert result.exit_code == (0 if verdict["status"] in ("valid", "incomplete") else 1), verdict
    return result.exit_code, verdict


@pytest.mark.parametrize(("name", "players", "seed"), cases(5))
def test_play_then_validate_is_valid(tmp_path: Path, name: str, players: int, seed: int) -> None:
    lines = play(tmp_path, name, players, seed + 100)
    code, verdict = validate(tmp_path, lines)
    assert (code, verdict["status"]) == (0, "valid"), verdict
    assert verdict["events"] == len(lines) - 2


def first_player_event(lines: list[str], skip: int = 0) -> int:
    found = [i for i, line in enumerate(lines[1:-1], 1) if '"player"' in line]
    return found[min(skip, len(found) - 1)]


@pytest.mark.parametrize("name", GAMES)
def test_tampered_claim_is_divergent_there(tmp_path: Path, name: str) -> None:
    lines = play(tmp_path, name, 2, 7)
    i = first_player_event(lines, skip=3)
    record = json.loads(lines[i])
    path = next(
        p for p, v in record["state"].items() if isinstance(v, int) and not isinstance(v, bool)
    )
    record["state"][path] += 1
    lines[i] = json.dumps(record)
    code, verdict = validate(tmp_path, lines)
    assert (code, verdict["status"], verdict["line"], verdict["event_index"]) == (
        1,
        "divergent",
        i + 1,
        i - 1,
    )
    assert verdict["divergences"][0]["path"] == path


@pytest.mark.parametrize("name", GAMES)
def test_action_by_the_wrong_player_is_illegal(tmp_path: Path, name: str) -> None:
    lines = play(tmp_path, name, 2, 8)
    i = first_player_event(lines, skip=2)
    record = json.loads(lines[i])
    record["player"] = "blue" if record["player"] == "red" else "red"
    lines[i] = json.dumps(record)
    code, verdict = validate(tmp_path, lines)
    assert (code, verdict["status"], verdict["event_index"]) == (1, "illegal", i - 1)
    assert verdict["rule_id"].endswith("-TURN-01")
    assert verdict["citation"]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (lambda r: {**r, "type": "teleport"}, "unknown event type"),
        (lambda r: {**r, "player": 5}, "expected str"),
        (lambda r: {**r, "bogus_field": 1}, "bogus_field"),
        (lambda r: json.dumps(r)[:-5], "not JSON"),
    ],
)
def test_bad_lines_are_malformed_with_line(
    tmp_path: Path, name: str, edit: Any, reason: str
) -> None:
    lines = play(tmp_path, name, 2, 9)
    i = first_player_event(lines, skip=1)
    changed = edit(json.loads(lines[i]))
    lines[i] = changed if isinstance(changed, str) else json.dumps(changed)
    code, verdict = validate(tmp_path, lines)
    assert (code, verdict["status"], verdict["line"]) == (1, "malformed", i + 1)
    assert reason in verdict["message"]


@pytest.mark.parametrize("name", GAMES)
def test_example_log_is_valid(name: str) -> None:
    path = ROOT / "examples" / f"{name}.jsonl"
    result = runner.invoke(app, ["validate", "--format", "json", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["results"][0]["status"] == "valid"
