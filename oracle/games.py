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
    dispute); ``profile`` data values win over any the file carries, in the games whose
    data tables know at least one of its keys (a Pillars profile leaves Palmyra alone; an
    unknown key in a game it applies to is still refused).
    """

    def __init__(
        self,
        profile: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self._games: dict[str, Game] = {}
        self._profile = dict(profile or {})
        self._options = dict(options or {})
        self._data_keys: dict[str, frozenset[str]] = {}

    def _profile_applies(self, name: str) -> bool:
        """Whether the profile is (at least partly) about ``name``'s data."""
        if name not in self._data_keys:
            self._data_keys[name] = frozenset(make_game(name, {}).data.entries)
        return any(key in self._data_keys[name] for key in self._profile)

    def profile_fits_some_game(self, names: tuple[str, ...]) -> bool:
        """Whether any of ``names`` takes the profile (else it would apply nowhere)."""
        return not self._profile or any(self._profile_applies(name) for name in names)

    @property
    def profile(self) -> dict[str, Any]:
        """The profile given on the command line (a copy)."""
        return dict(self._profile)

    @property
    def options(self) -> dict[str, Any]:
        """The options given on the command line (a copy)."""
        return dict(self._options)

    def get(
        self, name: str, options: Mapping[str, Any], extra: Mapping[str, Any] | None = None
    ) -> Game:
        """The rule set for ``name`` with ``options``; the CLI options and profile win over
        the file's, and ``extra`` options over both.

        Raises BadOptions for an unknown game or bad options.
        """
        merged = {**options, **self._options, **(extra or {})}
        if self._profile and self._profile_applies(name):
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
