"""Corpora for the fairness tests, written through the public API (``play_log`` with a
chance policy): seeded random games whose chance outcomes come from a policy. ``Fair``
draws by the reference's own probabilities; ``Favouring`` multiplies the weight of the
outcomes with one field value; ``Sticky`` repeats the previous outcome of the same kind with
a small probability while it is still possible; ``Reseeded`` draws fairly from a generator
seeded alike at every game. Players choose uniformly among legal events.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import rules_oracle

Outcomes = list[tuple[dict[str, Any], float]]
Corpus = Callable[..., Path]
"""The session's corpora (conftest.py): ``corpus(name, game, games, policy)`` -> folder."""


class Fair:
    """The reference's own probabilities."""

    def fresh(self) -> Fair:
        """The policy for a new game (a policy with a memory starts afresh)."""
        return self

    def __call__(self, outcomes: Outcomes, rng: random.Random) -> dict[str, Any]:
        return rng.choices([e for e, _ in outcomes], weights=[p for _, p in outcomes])[0]


class Favouring(Fair):
    """Outcomes whose ``field`` is ``value`` drawn with their probability times ``weight``."""

    def __init__(self, field: str, value: Any, weight: float) -> None:
        self.field, self.value, self.weight = field, value, weight

    def __call__(self, outcomes: Outcomes, rng: random.Random) -> dict[str, Any]:
        weights = [
            p * (self.weight if e.get(self.field) == self.value else 1.0) for e, p in outcomes
        ]
        return rng.choices([e for e, _ in outcomes], weights=weights)[0]


class Sticky(Fair):
    """The previous outcome of the same event type again with probability ``repeat``, when
    it is still among the outcomes; otherwise a fair draw."""

    def __init__(self, repeat: float) -> None:
        self.repeat = repeat
        self.previous: dict[str, dict[str, Any]] = {}

    def fresh(self) -> Sticky:
        return Sticky(self.repeat)

    def __call__(self, outcomes: Outcomes, rng: random.Random) -> dict[str, Any]:
        kind = outcomes[0][0]["type"]
        last = self.previous.get(kind)
        if last is not None and rng.random() < self.repeat and any(e == last for e, _ in outcomes):
            drawn = last
        else:
            drawn = super().__call__(outcomes, rng)
        self.previous[kind] = drawn
        return drawn


class Reseeded(Fair):
    """Fair draws from a generator of its own, seeded with ``seed`` at every new game (the
    players' events still come from the game's own seed, so games go their own ways)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def fresh(self) -> Reseeded:
        return Reseeded(self.seed)

    def __call__(self, outcomes: Outcomes, rng: random.Random) -> dict[str, Any]:
        return super().__call__(outcomes, self.rng)


def _write(folder: Path, game: str, k: int, players: int, seed: int, policy: Fair) -> None:
    lines = rules_oracle.play_log(game, players, seed=seed, chance=policy.fresh())
    (folder / f"{game}-{k:05d}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_corpus(
    folder: Path,
    game: str,
    games: int,
    policy: Fair,
    seed: int = 0,
    players: Sequence[int] = (),
    jobs: int = 2,
) -> Path:
    """``games`` logs of ``game`` in ``folder`` (player counts cycled through ``players``,
    by default every count the game takes; game k is seeded ``seed + k``)."""
    rules = rules_oracle.load(game)
    counts = list(players) or list(range(rules.min_players, rules.max_players + 1))
    folder.mkdir(parents=True, exist_ok=True)
    jobs_args = [(folder, game, k, counts[k % len(counts)], seed + k, policy) for k in range(games)]
    if jobs == 1:
        for args in jobs_args:
            _write(*args)
        return folder
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for future in [pool.submit(_write, *args) for args in jobs_args]:
            future.result()
    return folder


def chance_nodes(game: str, games: int, seed: int = 0) -> list[list[Outcomes]]:
    """The chance nodes of ``games`` fair seeded games, each game's as the outcome lists
    (``Position.chance_outcomes()``) met in order: positions to draw from again."""
    rules = rules_oracle.load(game)
    counts = list(range(rules.min_players, rules.max_players + 1))
    fair = Fair()
    found = []
    for k in range(games):
        rng = random.Random(seed + k)
        position = rules.setup(rules_oracle.PLAYER_NAMES[: counts[k % len(counts)]])
        nodes = []
        while not position.is_over:
            if position.to_act == rules_oracle.CHANCE:
                outcomes = position.chance_outcomes()
                nodes.append(outcomes)
                event = fair(outcomes, rng)
            else:
                legal = position.legal()
                event = legal[rng.randrange(len(legal))]
            position = position.apply(event)
        found.append(nodes)
    return found


def tally_of(
    folders: Sequence[Path], seed: int = 0, jobs: int = 2
) -> tuple[rules_oracle.ChanceTally, list[rules_oracle.Verdict]]:
    """The chance tally of folders of logs, and the logs' verdicts."""
    tally = rules_oracle.ChanceTally(seed)
    verdicts = list(rules_oracle.fairness_files(folders, tally=tally, jobs=jobs))
    return tally, verdicts
