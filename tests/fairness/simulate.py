"""Corpora for the fairness tests, written through the public API: seeded random games whose
chance outcomes come from a policy (fair: the reference's own probabilities; biased: one
outcome's weight multiplied; sticky: the previous outcome of the same kind repeated with a
small probability while it is still possible). Players choose uniformly among legal events.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import rules_oracle
from rules_oracle import CHANCE

Outcomes = Sequence[tuple[dict[str, Any], float]]
Policy = Callable[[Outcomes, random.Random, dict[str, dict[str, Any]]], dict[str, Any]]
"""(outcomes at the node, the game's generator, the previous outcome of each event type)
-> the outcome drawn."""


def fair(outcomes: Outcomes, rng: random.Random, previous: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The reference's own probabilities."""
    return rng.choices([e for e, _ in outcomes], weights=[p for _, p in outcomes])[0]


def favouring(field: str, value: Any, weight: float) -> Policy:
    """Outcomes whose ``field`` is ``value`` drawn with their probability times ``weight``."""

    def policy(
        outcomes: Outcomes, rng: random.Random, previous: dict[str, dict[str, Any]]
    ) -> dict[str, Any]:
        weights = [p * (weight if e.get(field) == value else 1.0) for e, p in outcomes]
        return rng.choices([e for e, _ in outcomes], weights=weights)[0]

    return policy


def sticky(repeat: float) -> Policy:
    """The previous outcome of the same event type again with probability ``repeat``, when
    it is still among the outcomes; otherwise a fair draw."""

    def policy(
        outcomes: Outcomes, rng: random.Random, previous: dict[str, dict[str, Any]]
    ) -> dict[str, Any]:
        last = previous.get(outcomes[0][0]["type"])
        if last is not None and rng.random() < repeat and any(e == last for e, _ in outcomes):
            return last
        return fair(outcomes, rng, previous)

    return policy


def game_lines(game: str, players: int, seed: int, chance: Policy) -> list[str]:
    """A complete log (header and events, no claims) of one seeded game."""
    rules = rules_oracle.load(game)
    names = rules_oracle.PLAYER_NAMES[:players]
    position = rules.setup(names)
    rng = random.Random(seed)
    previous: dict[str, dict[str, Any]] = {}
    header = {"format": "rules-oracle-log", "version": 1, "game": game, "players": list(names)}
    lines = [json.dumps({**header, "options": {}})]
    while not position.is_over:
        if position.to_act == CHANCE:
            event = chance(position.chance_outcomes(), rng, previous)
            previous[event["type"]] = event
        else:
            legal = position.legal()
            event = legal[rng.randrange(len(legal))]
        position = position.apply(event)
        lines.append(json.dumps(event))
    return lines


def write_corpus(
    folder: Path, game: str, games: int, chance: Policy, seed: int = 0, players: Sequence[int] = ()
) -> Path:
    """``games`` logs of ``game`` in ``folder`` (player counts cycled through ``players``,
    by default every count the game takes)."""
    rules = rules_oracle.load(game)
    counts = list(players) or list(range(rules.min_players, rules.max_players + 1))
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(games):
        lines = game_lines(game, counts[k % len(counts)], seed + k, chance)
        (folder / f"{game}-{k:05d}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def chance_sequences(game: str, games: int, seed: int = 0) -> list[list[Any]]:
    """The chance nodes of ``games`` fair seeded games, each game's as a list of outcome
    lists (``Position.chance_outcomes()``), in order: positions to draw from again."""
    rules = rules_oracle.load(game)
    counts = list(range(rules.min_players, rules.max_players + 1))
    found = []
    for k in range(games):
        rng = random.Random(seed + k)
        position = rules.setup(rules_oracle.PLAYER_NAMES[: counts[k % len(counts)]])
        nodes = []
        while not position.is_over:
            if position.to_act == CHANCE:
                outcomes = position.chance_outcomes()
                nodes.append(outcomes)
                event = fair(outcomes, rng, {})
            else:
                legal = position.legal()
                event = legal[rng.randrange(len(legal))]
            position = position.apply(event)
        found.append(nodes)
    return found


def tally_of(folder: Path, seed: int = 0, jobs: int = 1) -> tuple[rules_oracle.ChanceTally, list[Any]]:
    """The chance tally of a folder of logs, and their verdicts."""
    tally = rules_oracle.ChanceTally(seed)
    verdicts = list(rules_oracle.fairness_files([folder], tally=tally, jobs=jobs))
    return tally, verdicts


def counts_by(verdicts: Sequence[Any]) -> Mapping[str, int]:
    found: dict[str, int] = {}
    for v in verdicts:
        found[v.kind] = found.get(v.kind, 0) + 1
    return found
