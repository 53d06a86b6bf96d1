"""Our own engine behind the driver interface of oracle.protocol (in-process, no subprocess).

This is the one module of the conformance kit that reaches into the engines' internals
(rule sets, the checked step, the event and state converter); ``serve`` puts it behind the
protocol, ``conform`` and the scenario runner drive it as the reference.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from oracle.formats.converter import (
    assign,
    structure_event,
    to_json,
    unstructure_event,
)
from oracle.games import GameCache
from oracle.play import choose
from oracle.probes import Pool, candidates, remember
from oracle.protocol import CAPABILITIES, EngineError, Refusal
from oracle.rulebook import citation, find_rule
from reference.core import paths
from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import CHANCE, Game, player_names_ok, step
from reference.core.walk import leaves
from reference.registry import game_names

NAME = "rules-oracle"


class LocalEngine:
    """One position of one of our games. Bad requests raise EngineError (the protocol's
    ``{"ok": false, "error": ...}``); an illegal event gives a Refusal with our rule id.
    Our own bugs (EngineInvariantError) propagate: they are never the caller's fault."""

    reference = True
    capabilities = frozenset(CAPABILITIES)

    def __init__(self, seed: int = 0, games: GameCache | None = None) -> None:
        self.rng = random.Random(seed)
        self.games = games or GameCache()
        self._game: Game | None = None
        self._state: Any = None
        self._leaves: tuple[Any, dict[str, Any]] | None = None
        self._legal: tuple[Any, list[Any], list[dict[str, Any]]] | None = None

    @staticmethod
    def game_names() -> tuple[str, ...]:
        """The games we know."""
        return tuple(game_names())

    @property
    def game(self) -> Game:
        """The rule set of the current game; EngineError before ``new_game``."""
        if self._game is None:
            raise EngineError("no game yet: send new_game first")
        return self._game

    @property
    def position(self) -> Any:
        """The current state (immutable; keep it to come back to it)."""
        if self._game is None:
            raise EngineError("no game yet: send new_game first")
        return self._state

    @position.setter
    def position(self, state: Any) -> None:
        self._state = state

    def new_game(self, game: str, players: tuple[str, ...], options: Mapping[str, Any]) -> None:
        try:
            rules = self.games.get(game, options)
        except BadOptions as exc:
            raise EngineError(exc.message) from exc
        problem = player_names_ok(players, rules.min_players, rules.max_players)
        if problem:
            raise EngineError(problem)
        try:
            state = rules.new_game(players)
        except BadOptions as exc:
            raise EngineError(exc.message) from exc
        self._game, self._state = rules, state

    def event(self, raw: Mapping[str, Any]) -> Any:
        """The game's event object for a wire event; EngineError if malformed."""
        try:
            return structure_event(self.game, raw)
        except MalformedEvent as exc:
            raise EngineError(exc.message) from exc

    def refusal(self, raw: Mapping[str, Any]) -> tuple[Refusal | None, Any]:
        """Whether ``raw`` applies here: (None, the next state) or (the refusal, None)."""
        event = self.event(raw)
        try:
            return None, step(self.game, self._state, event)
        except RuleViolation as exc:
            rule = find_rule(self.game, exc.rule_id)
            return Refusal(exc.rule_id, exc.message, citation(rule)), None
        except MalformedEvent as exc:
            raise EngineError(exc.message) from exc

    def apply(self, event: Mapping[str, Any]) -> Refusal | None:
        refused, state = self.refusal(event)
        if refused is None:
            self._state = state
        return refused

    def probe(self, event: Mapping[str, Any]) -> Refusal | None:
        return self.refusal(event)[0]

    def to_act(self) -> tuple[str, bool]:
        over = self.game.is_over(self._state)
        return ("" if over else self.game.to_act(self._state)), over

    def state(self, paths_: list[str]) -> dict[str, Any]:
        # Many paths (a whole position): one walk answers the leaves; others are read.
        found = self.leaves() if len(paths_) > 16 else {}
        values: dict[str, Any] = {}
        for path in paths_:
            if path in found:
                values[path] = found[path]
                continue
            try:
                values[path] = to_json(paths.read(self.position, path))
            except paths.UnknownPath:
                continue
        return values

    def leaves(self) -> dict[str, Any]:
        """Every leaf path of the position with its value (reference.core.walk)."""
        state = self.position
        if self._leaves is None or self._leaves[0] is not state:
            self._leaves = (state, leaves(to_json(state)))
        return self._leaves[1]

    def legal(self) -> list[dict[str, Any]]:
        return list(self._legal_here()[2])

    def legal_objects(self) -> list[Any]:
        """The legal events as event objects (empty once over)."""
        return list(self._legal_here()[1])

    def _legal_here(self) -> tuple[Any, list[Any], list[dict[str, Any]]]:
        """(state, legal events, as wire events), worked out once per position."""
        state = self.position
        if self._legal is None or self._legal[0] is not state:
            events = [] if self.game.is_over(state) else self.game.legal_events(state)
            self._legal = (state, events, [unstructure_event(e) for e in events])
        return self._legal

    def result(self) -> tuple[dict[str, Any], list[Any]]:
        if not self.game.is_over(self._state):
            raise EngineError("the game is not over: no result yet")
        result = self.game.result(self._state)
        return dict(result.scores), list(result.winners)

    def set_state(self, values: Mapping[str, Any]) -> None:
        try:
            state = assign(self.game, self.position, values)
        except (paths.UnknownPath, MalformedEvent) as exc:
            raise EngineError(str(exc)) from exc
        unsound = self.game.invariant_failures(state)
        if unsound:
            raise EngineError(f"given state unsound: {'; '.join(unsound)}")
        self._state = state

    def next(self) -> dict[str, Any]:
        if self.game.is_over(self._state):
            raise EngineError("the game is over: no next event")
        event = choose(self.game, self._state, self.rng)
        self._state = step(self.game, self._state, event)
        return unstructure_event(event)

    def choice(self, rng: random.Random) -> int:
        """A seeded choice as an index into ``legal()``: a chance outcome by its
        probability, else uniform."""
        legal = self._legal_here()[1]
        if not self.is_chance():
            return rng.randrange(len(legal))  # as oracle.play.choose does
        return legal.index(choose(self.game, self._state, rng))

    def is_chance(self) -> bool:
        """Whether the next event is a chance outcome."""
        return self.game.to_act(self._state) == CHANCE

    def remember_fields(self, pool: Pool) -> None:
        """Add the field values of the legal events here to a probe pool."""
        remember(pool, self.legal_objects())

    def refused_probes(self, pool: Pool, rng: random.Random, count: int) -> list[dict[str, Any]]:
        """Fuzzed events our engine refuses here as illegal, as wire events."""
        out = []
        for event in candidates(self.game, pool, rng, count):
            try:
                step(self.game, self._state, event)
            except RuleViolation:
                record = unstructure_event(event)
                if record not in out:
                    out.append(record)
            except MalformedEvent:
                continue  # a value the game cannot read: malformed, not a rule question
        return out
