"""A game's rules with their options (``Rules``) and an immutable position you can step."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from oracle.errors import Illegal
from oracle.formats.converter import assign, structure_event, to_json, unstructure_event
from oracle.rulebook import citation, find_rule
from reference.core import paths
from reference.core.catalogue import Rule
from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import CHANCE, Game, Result, player_names_ok, step
from reference.registry import make_game

_MISSING: Any = object()


def _kind(value: object) -> str:
    """A wrong argument, named for a message: its type and a short repr."""
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 60 else shown[:57] + '...'}"


def merged_options(
    options: Mapping[str, Any] | None, profile: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Game options with a profile's data values on top of any ``profile`` they carry.
    Raises ``BadOptions`` when either is not a mapping."""
    for name, value in (("options", options), ("profile", profile)):
        if value is not None and not isinstance(value, Mapping):
            raise BadOptions(f"{name} is a mapping, not {_kind(value)}")
    merged = dict(options or {})
    if profile:
        embedded = merged.get("profile") or {}
        if not isinstance(embedded, Mapping):
            raise BadOptions("options.profile must be a mapping from data keys to values")
        merged["profile"] = {**embedded, **profile}
    return merged


def load(
    game: str, options: Mapping[str, Any] | None = None, profile: Mapping[str, Any] | None = None
) -> Rules:
    """The rules of ``game`` (pillars, milestones, palmyra, municipium) with these options.

    ``profile`` replaces data values (a mapping from data key to value), as ``--profile``
    does. Raises ``BadOptions`` for an unknown game, option or data key, or a bad value.
    """
    merged = merged_options(options, profile)
    return Rules(make_game(game, merged), merged)


class Rules:
    """One game's rule set, configured by its options and data tables. Immutable."""

    __slots__ = ("_game", "_options")

    def __init__(self, game: Game, options: Mapping[str, Any]) -> None:
        self._game = game
        self._options = dict(options)

    def __repr__(self) -> str:
        return f"<Rules {self.name} options={self._options!r}>"

    @property
    def name(self) -> str:
        """The game's short name, as logs use it (``pillars``)."""
        return self._game.name

    @property
    def min_players(self) -> int:
        """Fewest players the game takes."""
        return self._game.min_players

    @property
    def max_players(self) -> int:
        """Most players the game takes."""
        return self._game.max_players

    @property
    def options(self) -> dict[str, Any]:
        """The options as given (with any profile under ``profile``)."""
        return dict(self._options)

    @property
    def event_types(self) -> tuple[str, ...]:
        """The wire name of every event type the game accepts."""
        return tuple(cls.type for cls in self._game.event_types)

    @property
    def rules(self) -> tuple[Rule, ...]:
        """Every catalogue rule of the game, in catalogue order."""
        return self._game.catalogue.rules

    def rule(self, rule_id: str) -> Rule | None:
        """The catalogue rule with this id (the game's or a shared CORE-* rule), or None."""
        return find_rule(self._game, rule_id)

    def data(self, key: str) -> Any:
        """The value in force of one data key (e.g. ``market.metal_sell_price``)."""
        entry = self._game.data.entries.get(key) if isinstance(key, str) else None
        if entry is None:
            raise BadOptions(f"no data key {key!r} in {self.name}")
        return entry.value

    def placeholders(self) -> tuple[str, ...]:
        """Data keys in force whose value nobody has confirmed."""
        return self._game.data.placeholders()

    def setup(self, players: Sequence[str]) -> Position:
        """The standard setup for these player names, in seat order."""
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise BadOptions(f"players is a list of names, not {_kind(players)}")
        names = tuple(players)
        for name in names:
            if not isinstance(name, str):
                raise BadOptions(f"a player name is a str, not {_kind(name)}")
        problem = player_names_ok(names, self.min_players, self.max_players)
        if problem:
            raise BadOptions(problem)
        return Position(self, self._game.new_game(names))


class Position:
    """A game position: immutable; ``apply`` returns a new one.

    Events are plain JSON dicts in the log's wire form, e.g.
    ``{"type": "pass_market", "player": "red"}``.
    """

    __slots__ = ("_rules", "_state")

    def __init__(self, rules: Rules, state: Any) -> None:
        self._rules = rules
        self._state = state

    def __repr__(self) -> str:
        return f"<Position {self._rules.name} to_act={self.to_act!r}>"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self._rules._game == other._rules._game
            and self._state == other._state
        )

    def __hash__(self) -> int:
        return hash((self._rules.name, json.dumps(self.to_json(), sort_keys=True)))

    @property
    def rules(self) -> Rules:
        """The rules this position is played under."""
        return self._rules

    @property
    def to_act(self) -> str:
        """The player who decides next, or ``CHANCE`` when a chance outcome is due."""
        return self._rules._game.to_act(self._state)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._rules._game.is_over(self._state)

    def legal(self) -> list[dict[str, Any]]:
        """Every legal event here in a stable order (when chance acts: every outcome)."""
        return [unstructure_event(e) for e in self._rules._game.legal_events(self._state)]

    def chance_outcomes(self) -> list[tuple[dict[str, Any], float]]:
        """When chance acts: each outcome with its probability; otherwise empty."""
        if self.to_act != CHANCE:
            return []
        outcomes = self._rules._game.chance_outcomes(self._state)
        return [(unstructure_event(e), p) for e, p in outcomes]

    def is_legal(self, event: Mapping[str, Any]) -> bool:
        """Whether ``event`` may be applied here (raises ``Malformed`` if it names nothing)."""
        try:
            self.apply(event)
        except Illegal:
            return False
        return True

    def apply(self, event: Mapping[str, Any]) -> Position:
        """The position after ``event``.

        Raises ``Malformed`` (not an event of this game, or not a mapping at all),
        ``Illegal`` (the rules forbid it here; with the rule), ``InternalError`` (our
        engine broke its invariants).
        """
        if not isinstance(event, Mapping):
            raise MalformedEvent(
                f"an event is a mapping such as {{'type': ..., 'player': ...}}, not {_kind(event)}"
            )
        game = self._rules._game
        structured = structure_event(game, event)
        try:
            new_state = step(game, self._state, structured)
        except RuleViolation as exc:
            rule = find_rule(game, exc.rule_id)
            raise Illegal(
                exc.rule_id,
                exc.message,
                rule.title if rule else "",
                rule.status if rule else "",
                citation(rule),
            ) from exc
        return Position(self._rules, new_state)

    def __getitem__(self, path: str) -> Any:
        """The value at a state path (``players.red.gold``) as JSON data; raises UnknownPath."""
        return to_json(paths.read(self._state, path))

    def get(self, path: str, default: Any = None) -> Any:
        """The value at a state path as JSON data, or ``default`` if it names nothing."""
        try:
            return self[path]
        except paths.UnknownPath:
            return default

    def paths(self) -> dict[str, Any]:
        """Every leaf path of the position with its value: the whole public position."""
        return dict(_leaves("", self.to_json()))

    def to_json(self) -> Any:
        """The whole position as JSON data."""
        return to_json(self._state)

    def result(self) -> Result:
        """Scores and winners (``.scores``, ``.winners``) of a finished game."""
        if not self.is_over:
            raise BadOptions("the game is not over: it has no result yet")
        return self._rules._game.result(self._state)

    def with_values(self, values: Mapping[str, Any]) -> Position:
        """A copy with values set by state path, as a scenario's ``given.state`` does.

        Raises ``UnknownPath`` for a path that names nothing, ``Malformed`` for a value
        that does not fit or a position the game's invariants call unsound.
        """
        if not isinstance(values, Mapping):
            raise MalformedEvent(f"values is a mapping of state paths, not {_kind(values)}")
        game = self._rules._game
        state = assign(game, self._state, values)
        unsound = position_failures(game, state)
        if unsound:
            raise MalformedEvent("unsound position: " + "; ".join(unsound))
        return Position(self._rules, state)


def _leaves(prefix: str, value: Any) -> Iterator[tuple[str, Any]]:
    """(path, value) of every leaf under ``value``; an empty list or mapping is a leaf."""
    if isinstance(value, Mapping) and value:
        for key, item in value.items():
            yield from _leaves(f"{prefix}.{key}" if prefix else str(key), item)
    elif isinstance(value, (list, tuple)) and value:
        for i, item in enumerate(value):
            yield from _leaves(f"{prefix}.{i}" if prefix else str(i), item)
    else:
        yield prefix, value


def position_failures(game: Game, state: Any) -> list[str]:
    """Why a hand-written position is unsound: the game's invariants, or its stricter
    ``position_failures`` where it has one (what play from the setup always keeps); then
    whether the rules can tell, there, whether the game is over, who acts and what they may
    do (a stage that needs a drawn builder with none drawn, a queue stage with nobody
    queued: parts that play always sets together, which no invariant names)."""
    stricter = getattr(game, "position_failures", None)
    try:
        failures: list[str] = (
            stricter(state) if callable(stricter) else game.invariant_failures(state)
        )
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        # A state the check cannot even read (an empty table it takes the minimum of, a key
        # it looks up) is the file's, not ours: play never builds one, only a given.state.
        return [f"the invariant check cannot read it ({type(exc).__name__}: {exc})"]
    if failures:
        return failures
    try:
        if not game.is_over(state):
            game.to_act(state)
            game.legal_events(state)
    except (AssertionError, KeyError, ValueError, TypeError, IndexError) as exc:
        # The same, for the rules that say who acts: a part they need is missing (what a
        # narrowing ``assert`` of the game's code states), so no rule can be judged there.
        shown = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return [f"the rules cannot tell who acts or what is legal there ({shown})"]
    return failures
