"""Seeded random legal games, written as complete v1 logs (``rules-oracle play``).

The randomness lives here, in the oracle, never in an engine: chance nodes are resolved
by the engine's listed probabilities, players choose uniformly among legal events.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from oracle.formats.converter import to_json, unstructure_event
from oracle.formats.log import header_line
from reference.core.errors import BadOptions, EngineInvariantError
from reference.core.game import CHANCE, Game, step
from reference.core.walk import leaves

PLAYER_NAMES: tuple[str, ...] = ("red", "blue", "green", "yellow", "white")
MAX_EVENTS = 200_000
"""A game that has not ended after this many events is an engine bug, or, under a profile,
the profile's doing (the shipped data's games end in a few thousand events at most)."""


ChancePolicy = Callable[[list[tuple[dict[str, Any], float]], random.Random], dict[str, Any]]
"""Draws a chance outcome: (the outcomes with their probabilities, as wire events; the
game's generator) -> the outcome drawn (one of them)."""


def choose(game: Game, state: Any, rng: random.Random, chance: ChancePolicy | None = None) -> Any:
    """The next event: a chance outcome by its probability (or as ``chance`` draws it), or a
    uniform legal choice."""
    if game.to_act(state) == CHANCE:
        outcomes = game.chance_outcomes(state)
        if chance is not None:
            return _drawn(game, outcomes, chance, rng)
        events = [event for event, _ in outcomes]
        weights = [weight for _, weight in outcomes]
        return rng.choices(events, weights=weights)[0]
    legal = game.legal_events(state)
    if not legal:
        raise EngineInvariantError([f"{game.to_act(state)} is to act but has no legal event"])
    return legal[rng.randrange(len(legal))]


def _drawn(
    game: Game, outcomes: list[tuple[Any, float]], chance: ChancePolicy, rng: random.Random
) -> Any:
    """The outcome a chance policy draws, as the engine's event; one not listed is refused."""
    wire = [(unstructure_event(event), p) for event, p in outcomes]
    drawn = chance(wire, rng)
    for (event, _), (listed, _) in zip(outcomes, wire, strict=True):
        if listed == drawn:
            return event
    raise ValueError(f"the chance policy drew {drawn}, not one of the outcomes")


def claims(state: Any, event: Any) -> dict[str, Any]:
    """What a log written by us claims after an event: the acting player's plain values
    (numbers, text, flags); after a chance outcome, the state's own plain values."""
    player = getattr(event, "player", None)
    if player is not None:
        node = state.players[player]
        prefix = f"players.{player}."
    else:
        node, prefix = state, ""
    out: dict[str, Any] = {}
    for name, value in vars_of(node).items():
        if isinstance(value, (bool, int, str)):
            out[prefix + name] = to_json(value)
    return out


def vars_of(node: Any) -> dict[str, Any]:
    """An attrs object's fields by name."""
    return {a.name: getattr(node, a.name) for a in attrs.fields(type(node))}


def full_claims(state: Any) -> dict[str, Any]:
    """Every leaf state path of the position with its value (``play --claims full``)."""
    return leaves(to_json(state))


LETS_NO_GAME_END = "a profile must let the game end"


def _keys(profile: Any) -> str:
    return ", ".join(sorted(map(str, profile))) if isinstance(profile, dict) else str(profile)


def unending(game: Game, seed: int = 0, budget: int = MAX_EVENTS) -> str | None:
    """Why games under this rule set may never end, or None: a bounded check, one seeded
    game (as ``play`` plays it) at each player count, each given ``budget`` events. Run on
    a user's profile before any work: a profile whose data leaves the players no way on
    (no goods at all, every worker covered) is refused as the user's, not ``play``'s bug."""
    for count in range(game.min_players, min(game.max_players, len(PLAYER_NAMES)) + 1):
        rng = random.Random(seed)
        try:
            state = game.new_game(PLAYER_NAMES[:count])
        except BadOptions:  # a profile for fewer players: this count is refused when asked
            continue
        for _ in range(budget):
            if game.is_over(state):
                break
            state = step(game, state, choose(game, state, rng))
        if not game.is_over(state):
            return f"a game of {count} players (seed {seed}) has not ended after {budget} events"
    return None


def play_lines(
    game: Game,
    players: tuple[str, ...],
    seed: int,
    options: dict[str, Any],
    full: bool = False,
    chance: ChancePolicy | None = None,
) -> Iterator[str]:
    """The lines of a complete log of one seeded random game; ``full``: every leaf path
    of the position is claimed after each event, not only the actor's plain values;
    ``chance`` draws the chance outcomes (by default: by their probabilities)."""
    rng = random.Random(seed)
    state = game.new_game(players)
    yield header_line(game.name, players, options)
    count = 0
    while not game.is_over(state):
        event = choose(game, state, rng, chance)
        state = step(game, state, event)
        count += 1
        if count > MAX_EVENTS:
            endless = f"no end after {MAX_EVENTS} events (seed {seed}, {len(players)} players)"
            profile = options.get("profile")
            if profile:
                raise BadOptions(f"profile ({_keys(profile)}): {endless}: {LETS_NO_GAME_END}")
            raise EngineInvariantError([endless])
        record = unstructure_event(event)
        record["state"] = full_claims(state) if full else claims(state, event)
        yield json.dumps(record, allow_nan=False)
    result = game.result(state)
    yield json.dumps({"result": {"scores": result.scores, "winners": list(result.winners)}})
