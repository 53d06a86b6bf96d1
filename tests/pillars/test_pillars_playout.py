"""Seeded random play-outs of the Pillars engine over every player count."""

from __future__ import annotations

import random
import re
from pathlib import Path

import cattrs
import pytest

from reference.core.errors import RuleViolation
from reference.core.game import CHANCE, step
from reference.pillars import make
from reference.pillars.engine import HANDLERS

SEEDS = range(6)
MAX_EVENTS = 3000
OPTION_SETS = [
    {},
    {
        "bishop_positive": "cube_only",
        "resale_ban": "both_ways",
        "cathedral_empty": "left_neighbour",
        "income_cards": "once",
        "start_player_rejects": True,
    },
]


def _play(options: dict[str, object], seed: int, players: int) -> None:
    game = make(options)
    rng = random.Random(seed)
    conv = cattrs.Converter()
    state = game.new_game([f"p{i}" for i in range(players)])
    events = 0
    while not game.is_over(state):
        legal = game.legal_events(state)
        assert legal, f"no legal event at round {state.round} stage {state.stage}"
        if events % 11 == 0:
            for event in legal:
                step(game, state, event)  # every listed event applies
            again = conv.structure(conv.unstructure(state), game.state_type)
            assert again == state
        if game.to_act(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert [e for e, _ in outcomes] == legal
            event = rng.choices([e for e, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            event = rng.choice(legal)
        state = step(game, state, event)
        events += 1
        assert events < MAX_EVENTS, "game did not end"
    result = game.result(state)
    assert set(result.scores) == set(state.players)
    assert result.winners
    assert game.legal_events(state) == []


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_pillars_random_playout(seed: int, players: int) -> None:
    _play(OPTION_SETS[0], seed, players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pillars_random_playout_all_options(players: int) -> None:
    for seed in range(3):
        _play(OPTION_SETS[1], 100 + seed, players)


def test_pillars_dispatch_is_complete() -> None:
    game = make({})
    assert set(HANDLERS) == set(game.event_types)
    types = [t.type for t in game.event_types]
    assert len(types) == len(set(types))


def test_pillars_every_raised_rule_is_catalogued() -> None:
    game = make({})
    src = Path(__file__).resolve().parents[2] / "reference" / "pillars"
    raised: set[str] = set()
    for path in src.glob("*.py"):
        raised |= set(re.findall(r"\"(PIL-[A-Z]+-\d+)\"", path.read_text()))
    assert raised <= set(game.catalogue.ids())


def test_pillars_no_random_import() -> None:
    src = Path(__file__).resolve().parents[2] / "reference" / "pillars"
    for path in src.glob("*.py"):
        assert not re.search(r"^\s*(import|from)\s+random", path.read_text(), re.M), path


def test_pillars_illegal_event_from_listed_state_is_rule_violation() -> None:
    game = make({})
    state = game.new_game(["a", "b"])
    with pytest.raises(RuleViolation) as err:
        from reference.pillars.events import PassCards

        game.apply(state, PassCards("a"))
    assert err.value.rule_id == "PIL-TURN-01"
