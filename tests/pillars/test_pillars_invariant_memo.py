"""The invariant count (reference/pillars/invariants.py, every law counted in full on every
state: Pillars keeps no shortcut) finds a state broken in any one part, the rest shared
with a sound state of play: cubes, cards, workers, master builders, seats."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from reference.core.game import step
from reference.core.state import with_player
from reference.pillars.engine import Pillars
from reference.pillars.state import State, evolve


def _play(game: Pillars, seed: int, players: int, until: Callable[[State], bool]) -> list[State]:
    """The states of a seeded random play-out, up to the first for which ``until`` holds
    (or the end)."""
    rng = random.Random(seed)
    state = game.new_game([f"p{i}" for i in range(players)])
    seen = [state]
    while not game.is_over(state) and not until(state):
        state = step(game, state, rng.choice(game.legal_events(state)))
        seen.append(state)
    return seen


def _red(state: State, **changes: object) -> State:
    """``state`` with some fields of the first player changed (the rest shared)."""
    name = state.seats[0]
    return with_player(state, name, evolve(state.players[name], **changes))


def _placer(state: State) -> str:
    """A player with workers on resource cards."""
    return next(n for n, p in state.players.items() if p.workers_placed)


def _buyer(state: State) -> str:
    """The player, not the start player, holding the most craftsmen."""
    others = [n for n in state.seats if n != state.start_player]
    return max(others, key=lambda n: len(state.players[n].craftsmen))


def _in_builders(state: State) -> bool:
    """Phase II with a builder drawn: builders are in the bag, on the board and drawn."""
    return state.phase == "builders" and state.drawn is not None and bool(state.spaces)


BREAKS: dict[str, tuple[Callable[[State], State], str]] = {
    "a player's cubes": (
        lambda s: _red(s, resources={**s.players[s.seats[0]].resources, "sand": 9}),
        "sand cubes:",
    ),
    "the supply": (lambda s: evolve(s, supply={**s.supply, "wood": s.supply["wood"] + 1}), "wood"),
    "the market": (lambda s: evolve(s, market={**s.market, "stone": -1}), "negative stock"),
    "King's Court": (lambda s: evolve(s, kings_court_metal=s.kings_court_metal + 1), "metal"),
    "a player's craftsmen": (
        lambda s: _red(s, craftsmen=(*s.players[s.seats[0]].craftsmen, "mason_1")),
        "craftsman cards:",
    ),
    "a player's advantages": (
        lambda s: _red(s, advantages=tuple(s.advantage_deck) * 9),
        "more advantage cards",
    ),
    "the removed craftsmen": (
        lambda s: evolve(s, craftsmen_out=(*s.craftsmen_out, "mason_1")),
        "craftsman cards:",
    ),
    "the event cards": (
        lambda s: evolve(s, events_unseen=s.events_unseen[1:]),
        "event cards are not",
    ),
    "a player's grey workers": (
        lambda s: _red(s, grey_workers_next=s.players[s.seats[0]].grey_workers_next + 1),
        "grey workers:",
    ),
    "Shiring Castle": (lambda s: evolve(s, castle_workers=s.castle_workers + 1), "grey workers:"),
    "a player's workers placed": (lambda s: _red(s, workers_placed=99), "more workers placed"),
    "a player's master builders": (
        lambda s: _red(s, master_builders=s.players[s.seats[0]].master_builders + 1),
        "master builders,",
    ),
    "the bag": (lambda s: evolve(s, bag={**s.bag, s.seats[0]: 7}), "master builders,"),
    "the board": (lambda s: evolve(s, spaces={**s.spaces, "zz_1": s.seats[0]}), "master builders,"),
    "the drawn builder": (
        lambda s: evolve(s, drawn=next(n for n in s.seats if n != s.drawn)),
        "master builders,",
    ),
    "the Phase I supply": (
        lambda s: evolve(s, card_supply=(*s.card_supply, "mason_1")),
        "craftsman cards:",
    ),
    "Shiring": (lambda s: evolve(s, shiring={**s.shiring, "x": "mason_1"}), "craftsman cards:"),
    "the craftsman deck": (
        lambda s: evolve(s, craftsman_deck=(*s.craftsman_deck, "mason_1")),
        "craftsman cards:",
    ),
    "Kingsbridge": (
        lambda s: evolve(s, kingsbridge={str(i): "madonna" for i in range(99)}),
        "more advantage cards",
    ),
    "the advantages out": (
        lambda s: evolve(s, advantages_out=("madonna",) * 99),
        "more advantage cards",
    ),
    "the advantage deck": (
        lambda s: evolve(s, advantage_deck=("madonna",) * 99),
        "more advantage cards",
    ),
    "a player's grey workers now": (
        lambda s: _red(s, grey_workers=s.players[s.seats[0]].grey_workers + 1),
        "grey workers:",
    ),
    "a player's own workers": (
        lambda s: with_player(s, _placer(s), evolve(s.players[_placer(s)], workers=0)),
        "more workers placed",
    ),
    "the passed builders": (
        lambda s: evolve(s, passed_builders=(*s.passed_builders, s.seats[0])),
        "master builders,",
    ),
    "a player's name": (
        lambda s: evolve(
            s, players={("x" if n == s.seats[0] else n): p for n, p in s.players.items()}
        ),
        "not keyed in seat order",
    ),
    "the seen events": (
        lambda s: evolve(s, events_seen=(*s.events_seen, s.events_unseen[0])),
        "event cards are not",
    ),
    "a player with a bought craftsman gone": (
        lambda s: evolve(
            s,
            seats=tuple(n for n in s.seats if n != _buyer(s)),
            players={n: p for n, p in s.players.items() if n != _buyer(s)},
        ),
        "craftsman cards:",
    ),
    "the seat order": (
        lambda s: evolve(s, players=dict(reversed(list(s.players.items())))),
        "not keyed in seat order",
    ),
}


@pytest.mark.parametrize("part", list(BREAKS))
def test_a_part_broken_after_a_sound_state_is_found(part: str) -> None:
    game = Pillars({})
    sound = _play(game, 8, 3, _in_builders)[-1]
    assert _in_builders(sound)
    assert game.invariant_failures(sound) == []
    brk, found = BREAKS[part]
    failures = game.invariant_failures(brk(sound))
    assert [f for f in failures if found in f], failures
