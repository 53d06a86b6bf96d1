"""Making rule sets for the oracle: options from a file header plus a profile from the CLI."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import attrs

from reference.core.errors import BadOptions
from reference.core.game import Game
from reference.registry import make_game


@cache
def option_names(name: str) -> frozenset[str]:
    """The names of game ``name``'s own options (``profile`` aside): its options class's
    fields, the same for every rule set of the game (kept once asked)."""
    kind = type(make_game(name, {}).options)
    return frozenset(attrs.fields_dict(kind)) if attrs.has(kind) else frozenset()


def options_problem(options: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """Why ``options`` given for files of any of the games ``names`` are the user's mistake,
    or None: an option none of them has, or a value the games that have it refuse, or a
    ``profile`` among them that is no mapping. (Each option applies to the games that have
    it; a ``profile`` in them, to the games whose data knows its keys: ``profile_problem``
    checks one as the user's.)"""
    if not options:
        return None
    rest = dict(options)
    profile = rest.pop("profile", None)
    if profile is not None and not isinstance(profile, dict):
        return "profile must be an object of data keys to values"
    known = {name: option_names(name) for name in names}
    for key in rest:
        if not any(key in fields for fields in known.values()):
            every = sorted(set().union(*known.values()))
            return f"unknown option {key!r} (options: {', '.join(every)}, profile)"
    for name, fields in known.items():
        own = {key: value for key, value in rest.items() if key in fields}
        if own:
            try:
                make_game(name, own)
            except BadOptions as exc:
                return f"{name}: {exc.message}"
    return None


def profile_problem(profile: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """Why a user's profile fits none of the games ``names``, or None: its keys are not all
    of one game, or each game whose data knows them all refuses it: a value of the wrong
    shape (the tables' own checks), a setup its invariants call unsound (``make_game``), or
    games that do not end (``unending``: seeded games, bounded, at every player count)."""
    from oracle.play import LETS_NO_GAME_END, PLAYER_NAMES, unending

    knowing = [n for n in names if set(profile) <= set(make_game(n, {}).data.entries)]
    if not knowing:
        keys = ", ".join(sorted(map(str, profile)))
        which = names[0] if len(names) == 1 else "any one game"
        return f"data keys not all of {which}: {keys[:500]}"
    refusals = []
    for name in knowing:
        try:
            rules = make_game(name, {"profile": dict(profile)})
            rules.new_game(PLAYER_NAMES[: rules.min_players])  # set-up checks run here too
        except BadOptions as exc:
            refusals.append(f"{name}: {exc.message}")
            continue
        endless = unending(rules)
        if endless:
            keys = ", ".join(sorted(map(str, profile)))
            refusals.append(f"{name}: profile ({keys}): {endless}: {LETS_NO_GAME_END}")
            continue
        return None
    return "; ".join(refusals)


class GameCache:
    """Rule sets already made, by game and options (loading data files costs milliseconds).

    ``options`` override a file's own options (to replay a log under another reading of a
    dispute), each in the games that have that option (Palmyra's ``mode`` leaves a Pillars
    log alone; ``options_problem`` finds an option no game has); ``profile`` data values win
    over any the file carries, in the games whose data tables know at least one of its keys
    (a Pillars profile leaves Palmyra alone; an unknown key in a game it applies to is still
    refused). A ``profile`` inside ``options`` is a profile like the other (``profile``'s
    values win over its values).
    """

    def __init__(
        self,
        profile: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self._games: dict[str, Game] = {}
        self._options = dict(options or {})
        embedded = self._options.get("profile")
        if isinstance(embedded, dict):  # else left in place, for the game to refuse
            del self._options["profile"]
        self._profile = {**(embedded if isinstance(embedded, dict) else {}), **(profile or {})}
        self._data_keys: dict[str, frozenset[str]] = {}

    def _profile_applies(self, name: str) -> bool:
        """Whether the profile is (at least partly) about ``name``'s data."""
        if name not in self._data_keys:
            self._data_keys[name] = frozenset(make_game(name, {}).data.entries)
        return any(key in self._data_keys[name] for key in self._profile)

    def _options_of(self, name: str) -> dict[str, Any]:
        """The command-line options ``name`` has (``profile``, when still here, is not a
        mapping: every game is given it, to refuse)."""
        known = option_names(name) | {"profile"}
        return {key: value for key, value in self._options.items() if key in known}

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
        merged = {**options, **self._options_of(name), **(extra or {})}
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
