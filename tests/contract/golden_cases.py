"""The play-outs whose logs must stay byte-identical through any refactor of the engines.

Every game, every player count it takes (solo too), seeds 1-5, with default options (and
Palmyra's advanced and solo modes). ``make_golden.py`` writes their sha256 hashes once, from
the code before a refactor; ``test_golden_logs.py`` compares.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from oracle.play import PLAYER_NAMES, play_lines
from reference.registry import game_names, make_game

GOLDEN_FILE = Path(__file__).parent / "golden_logs.txt"
SEEDS = (1, 2, 3, 4, 5)
EXTRA_OPTIONS: dict[str, tuple[dict[str, Any], ...]] = {
    "palmyra": ({"mode": "advanced"}, {"mode": "solo"}),
}


def cases() -> list[tuple[str, dict[str, Any], int, int]]:
    """(game, options, players, seed) for every golden play-out."""
    out = []
    for name in game_names():
        for options in ({}, *EXTRA_OPTIONS.get(name, ())):
            game = make_game(name, options)
            for count in range(game.min_players, game.max_players + 1):
                out += [(name, options, count, seed) for seed in SEEDS]
    return out


def case_key(name: str, options: dict[str, Any], count: int, seed: int) -> str:
    """One line's key in the golden file, e.g. ``palmyra mode=solo 1p seed 3``."""
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "default"
    return f"{name} {opts} {count}p seed{seed}"


def log_hash(name: str, options: dict[str, Any], count: int, seed: int) -> str:
    """The sha256 of the whole log text of one seeded play-out."""
    game = make_game(name, options)
    lines = play_lines(game, PLAYER_NAMES[:count], seed, options)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def read_golden() -> dict[str, str]:
    """The stored hashes by case key."""
    out = {}
    for line in GOLDEN_FILE.read_text().splitlines():
        key, _, digest = line.rpartition(" ")
        out[key] = digest
    return out
