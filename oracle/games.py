"""Making rule sets for the oracle: options from a file header plus a profile from the CLI."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from reference.core.game import Game
from reference.registry import make_game


class GameCache:
    """Rule sets already made, by game and options (loading data files costs milliseconds).

    ``options`` override a file's own options (to replay a log under another reading of a
    dispute); ``profile`` data values win over any the file carries.
    """

    def __init__(
        self,
        profile: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self._games: dict[str, Game] = {}
        self._profile = dict(profile or {})
        self._options = dict(options or {})

    def get(self, name: str, options: Mapping[str, Any]) -> Game:
        """The rule set for ``name`` with ``options``; the CLI profile wins over the file's.

        Raises BadOptions for an unknown game or bad options.
        """
        merged = {**options, **self._options}
        if self._profile:
            embedded = merged.get("profile") or {}
            merged["profile"] = (
                {**embedded, **self._profile} if isinstance(embedded, dict) else embedded
            )
        key = name + "\0" + json.dumps(merged, sort_keys=True, default=str)
        if key not in self._games:
            self._games[key] = make_game(name, merged)
        return self._games[key]
