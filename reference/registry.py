"""The games rules-oracle knows, by the name logs and the command line use."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from reference.core.errors import BadOptions
from reference.core.game import Game, unsound_setup

GAMES: dict[str, str] = {
    # name: module exposing ``make(options) -> Game``
    "pillars": "reference.pillars",
    "milestones": "reference.milestones",
    "palmyra": "reference.palmyra",
    "municipium": "reference.municipium",
}


def game_names() -> tuple[str, ...]:
    """Every registered game name."""
    return tuple(GAMES)


def make_game(name: str, options: Mapping[str, Any] | None = None) -> Game:
    """The rule set for ``name`` with these options (a ``profile`` key replaces data)."""
    if name not in GAMES:
        raise BadOptions(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    module = importlib.import_module(GAMES[name])
    game: Game = module.make(dict(options or {}))
    profile = (options or {}).get("profile")
    if profile:
        # A profile may pass every table's own check and still make an unsound game
        # (a craftsman named twice): the setups are checked before any game is played.
        problem = unsound_setup(game)
        if problem:
            keys = ", ".join(sorted(map(str, profile)))
            raise BadOptions(f"profile ({keys}): {problem}")
    return game
