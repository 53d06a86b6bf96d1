"""Making rule sets for the oracle: options from a file header plus a profile from the CLI."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from reference.core.game import Game
from reference.registry import make_game


class GameCache:
    """Rule sets already made, by game and options (loading data files costs milliseconds)."""

    def __init__(self, profile: Mapping[str, Any] | None = None) -> None:
        self._games: dict[str, Game] = {}
        self._profile = dict(profile or {})

    def get(self, name: str, options: Mapping[str, Any]) -> Game:
        """The rule set for ``name`` with ``options``; the CLI profile wins over the file's.

        Raises BadOptions for an unknown game or bad options.
        """
        merged = dict(options)
        if self._profile:
            embedded = merged.get("profile") or {}
            merged["profile"] = (
                {**embedded, **self._profile} if isinstance(embedded, dict) else embedded
            )
        try:
            key = name + "\0" + json.dumps(merged, sort_keys=True)
        except (TypeError, ValueError):  # keys of mixed types: not cached, never confused
            return make_game(name, merged)
        if key not in self._games:
            self._games[key] = make_game(name, merged)
        return self._games[key]
