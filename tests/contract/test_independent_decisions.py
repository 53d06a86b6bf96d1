"""Independent decisions in any order: where the rules make a set of decisions each
player's own (Pillars: Thomas, the tax exemption, the archbishop, the division discard,
several discards over the craftsman limit), a log may give them in any order.

Seeded play-outs: at every point where several players' decisions are pending, one decision
is picked for each pending player from the same state; the log gives them in turn order in
one play-out and in reverse (and rotated) order in the others. Each log must validate, and
the final states must be equal.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import attrs
import pytest

from oracle.formats.converter import unstructure_event
from oracle.formats.log import header_line
from oracle.games import GameCache
from oracle.play import PLAYER_NAMES, choose, claims
from oracle.replay import validate_log
from reference.core.errors import RuleViolation
from reference.core.game import step
from reference.registry import game_names, make_game


def decisions(game: Any, seed: int, players: tuple[str, ...]) -> list[list[Any]]:
    """A seeded play-out as blocks of events: a block of one, or a set of independent
    decisions (one per pending player, picked from the same state, in pending order)."""
    rng = random.Random(seed)
    state = game.new_game(players)
    blocks: list[list[Any]] = []
    while not game.is_over(state):
        pending = game.pending(state)
        if len(pending) > 1:
            legal = game.legal_events(state)
            block = []
            for name in pending:
                own = [e for e in legal if getattr(e, "player", None) == name]
                assert own, f"{name} is pending but has no legal event"
                block.append(own[rng.randrange(len(own))])
        else:
            block = [choose(game, state, rng)]
        for event in block:
            state = step(game, state, event)
        blocks.append(block)
    return blocks


def arranged(blocks: list[list[Any]], how: str) -> list[Any]:
    """The events with each independent set in pending order, reversed, or rotated by one."""
    out: list[Any] = []
    for block in blocks:
        if how == "reversed":
            block = block[::-1]
        elif how == "rotated":
            block = block[1:] + block[:1]
        out += block
    return out


def final_state_and_log(
    game: Any, players: tuple[str, ...], events: list[Any], options: dict[str, Any]
) -> tuple[Any, list[str]]:
    """Apply ``events`` in order; the last state and the log a careful implementation writes."""
    state = game.new_game(players)
    lines = [header_line(game.name, players, options)]
    for event in events:
        state = step(game, state, event)
        record = unstructure_event(event)
        record["state"] = claims(state, event)
        lines.append(json.dumps(record))
    result = game.result(state)
    lines.append(json.dumps({"result": {"scores": result.scores, "winners": list(result.winners)}}))
    return state, lines


CASES = [("pillars", {}, 4, seed) for seed in range(1, 7)] + [
    ("pillars", {"archbishop_timing": "cathedral"}, 3, 1),
    ("pillars", {"market_builders": "each", "ordered_spaces": "any_free"}, 4, 2),
]


@pytest.mark.parametrize(("name", "options", "count", "seed"), CASES)
def test_permuted_independent_decisions_validate_with_equal_states(
    name: str, options: dict[str, Any], count: int, seed: int, tmp_path: Path
) -> None:
    game = make_game(name, options)
    players = PLAYER_NAMES[:count]
    blocks = decisions(game, seed, players)
    sets = [b for b in blocks if len(b) > 1]
    assert sets, "this play-out reaches no set of independent decisions: pick another seed"
    finals = []
    for how in ("in_order", "reversed", "rotated"):
        final, lines = final_state_and_log(game, players, arranged(blocks, how), options)
        log = tmp_path / f"{how}.jsonl"
        log.write_text("\n".join(lines) + "\n")
        verdict = validate_log(log, GameCache())
        assert verdict.kind == "valid", (how, verdict.message)
        finals.append(final)
    assert finals[0] == finals[1] == finals[2]


def test_out_of_set_player_is_still_refused() -> None:
    """Order-free acceptance is for pending players only: anyone else breaks the turn rule."""
    game = make_game("pillars", {})
    for seed in range(1, 20):
        rng = random.Random(seed)
        state = game.new_game(PLAYER_NAMES[:4])
        while not game.is_over(state):
            pending = game.pending(state)
            if len(pending) > 1 and len(pending) < 4:
                outsider = next(n for n in state.seats if n not in pending)
                sample = next(e for e in game.legal_events(state))
                with pytest.raises(RuleViolation) as info:
                    game.apply(state, type(sample)(**{**vars_plain(sample), "player": outsider}))
                assert info.value.rule_id in ("PIL-TURN-01", "PIL-CRAFT-01")
                return
            state = step(game, state, choose(game, state, rng))
    pytest.fail("no seed reached a set of independent decisions with an outsider")


def vars_plain(event: Any) -> dict[str, Any]:
    """An attrs event's fields by name."""
    return {a.name: getattr(event, a.name) for a in attrs.fields(type(event))}


def test_games_without_independent_sets_keep_one_pending_player() -> None:
    """Milestones, Palmyra and Municipium have no set of independent decisions (see
    docs/games/<game>.md): exactly one player (or chance) is pending throughout a game."""
    for name in game_names():
        if name == "pillars":
            continue
        game = make_game(name, {})
        rng = random.Random(1)
        state = game.new_game(PLAYER_NAMES[: game.min_players + 1])
        while not game.is_over(state):
            assert game.pending(state) == (game.to_act(state),)
            state = step(game, state, choose(game, state, rng))
