"""Our own engine behind the driver interface of oracle.protocol (in-process, no subprocess).

Built on oracle.position (Rules, Position: what the public API hands out); ``serve`` puts
it behind the protocol, ``conform`` and the scenario runner drive it as the reference. Three
uses of the engines' internals are left: the fuzzed-event generator of the negative probes
(oracle.probes), which builds events from the game's event classes; the leaf walk, which
reads a position's state objects so it can reuse the leaves of the parts that did not change
(reference.core.walk.LeafCache; the same values as walking ``Position.to_json()``); and
``internals`` for the rule coverage (oracle.coverage), which replays an event through a
recording copy of the rule set.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from oracle.errors import Illegal
from oracle.formats.converter import structure_event, to_json, unstructure_event
from oracle.games import GameCache
from oracle.perft import perft
from oracle.position import Position, Rules
from oracle.probes import Pool, candidates, remember
from oracle.protocol import CAPABILITIES, EngineError, Refusal
from reference.core.errors import BadOptions
from reference.core.errors import MalformedEvent as Malformed
from reference.core.game import CHANCE, Game
from reference.core.paths import UnknownPath
from reference.core.walk import LeafCache

NAME = "rules-oracle"
_MISSING: Any = object()


class LocalEngine:
    """One position of one of our games. Bad requests raise EngineError (the protocol's
    ``{"ok": false, "error": ...}``); an illegal event gives a Refusal with our rule id.
    Our own bugs (InternalError) propagate: they are never the caller's fault."""

    reference = True
    capabilities = frozenset(CAPABILITIES)

    def __init__(self, seed: int = 0, games: GameCache | None = None) -> None:
        self.rng = random.Random(seed)
        self.games = games or GameCache()
        self._game: Game | None = None
        self._position: Position | None = None
        self._leaves: tuple[Position, dict[str, Any], str] | None = None
        self._walk = LeafCache(to_json)
        self._legal: tuple[Position, list[dict[str, Any]]] | None = None
        self._legal_json: tuple[Position, str] | None = None

    @property
    def position(self) -> Position:
        """The current position (immutable); EngineError before ``new_game``."""
        if self._position is None:
            raise EngineError("no game yet: send new_game first")
        return self._position

    def new_game(self, game: str, players: tuple[str, ...], options: Mapping[str, Any]) -> None:
        try:
            rules = self.games.get(game, options)
            position = Rules(rules, options).setup(players)
        except BadOptions as exc:
            raise EngineError(exc.message) from exc
        self._game, self._position = rules, position
        self._walk = LeafCache(to_json)  # nothing of another game's positions is reused

    def internals(self) -> tuple[Game, Any]:
        """The rule set and the state object of the current position: for oracle.coverage,
        which applies an event once more through a recording copy of the rule set to learn
        the rules it is accepted under (EngineError before ``new_game``)."""
        position = self.position
        if self._game is None:
            raise EngineError("no game yet: send new_game first")
        return self._game, position._state  # noqa: SLF001

    def refusal(self, raw: Mapping[str, Any]) -> tuple[Refusal | None, Position | None]:
        """Whether ``raw`` applies here: (None, the next position) or (the refusal, None)."""
        try:
            return None, self.position.apply(raw)
        except Illegal as exc:
            return Refusal(exc.rule_id, exc.message, exc.citation or None), None
        except Malformed as exc:
            raise EngineError(exc.message) from exc

    def apply(self, event: Mapping[str, Any]) -> Refusal | None:
        refused, position = self.refusal(event)
        if position is not None:
            self._position = position
        return refused

    def probe(self, event: Mapping[str, Any]) -> Refusal | None:
        return self.refusal(event)[0]

    def to_act(self) -> tuple[str, bool]:
        position = self.position
        return ("", True) if position.is_over else (position.to_act, False)

    def state(self, paths: list[str]) -> dict[str, Any]:
        # Many paths (a whole position): one walk answers the leaves; others are read.
        if self.asks_every_leaf(paths):
            return dict(self.leaves())  # a play-out's question after every event
        found = self.leaves() if len(paths) > 16 else {}
        values: dict[str, Any] = {}
        for path in paths:
            value = found[path] if path in found else self._read(path)
            if value is not _MISSING:
                values[path] = value
        return values

    def asks_every_leaf(self, paths: Any) -> bool:
        """Whether ``paths`` is every leaf path of the position, in walk order."""
        if not isinstance(paths, list) or len(paths) <= 16:
            return False
        found = self.leaves()
        return len(paths) == len(found) and paths == list(found)

    def _read(self, path: str) -> Any:
        try:
            return self.position.get(path, _MISSING)
        except UnknownPath:  # an empty segment
            return _MISSING

    def leaves(self) -> dict[str, Any]:
        """Every leaf path of the position with its value (reference.core.walk); shared,
        do not change it."""
        return self._walk_here()[1]

    def leaves_json(self) -> str:
        """``json.dumps(self.leaves())``, kept part by part from position to position."""
        return self._walk_here()[2]

    def _walk_here(self) -> tuple[Position, dict[str, Any], str]:
        position = self.position
        if self._leaves is None or self._leaves[0] is not position:
            found, text = self._walk.walk(position._state)  # noqa: SLF001
            self._leaves = (position, found, text)
        return self._leaves

    def legal(self) -> list[dict[str, Any]]:
        position = self.position
        if self._legal is None or self._legal[0] is not position:
            self._legal = (position, [] if position.is_over else position.legal())
        return list(self._legal[1])

    def legal_json(self) -> str:
        """``json.dumps(self.legal())``, once per position."""
        position = self.position
        if self._legal_json is None or self._legal_json[0] is not position:
            self._legal_json = (position, json.dumps(self.legal()))
        return self._legal_json[1]

    def result(self) -> tuple[dict[str, Any], list[Any]]:
        try:
            result = self.position.result()
        except BadOptions as exc:
            raise EngineError(exc.message) from exc
        return dict(result.scores), list(result.winners)

    def set_state(self, values: Mapping[str, Any]) -> None:
        try:
            self._position = self.position.with_values(values)
        except UnknownPath as exc:
            raise EngineError(str(exc)) from exc
        except Malformed as exc:
            unsound = exc.message.removeprefix("unsound position: ")
            message = exc.message if unsound == exc.message else f"given state unsound: {unsound}"
            raise EngineError(message) from exc

    def next(self) -> dict[str, Any]:
        if self.position.is_over:
            raise EngineError("the game is over: no next event")
        event = self.legal()[self.choice(self.rng)]
        if self.apply(event) is not None:
            raise EngineError("internal error in rules-oracle: our own legal event was refused")
        return event

    def perft(self, depth: int, divide: bool) -> tuple[int, list[tuple[dict[str, Any], int]]]:
        """The count of event sequences of ``depth`` events from here (oracle.perft), and
        with ``divide`` the count under each first event; the position stays as it was."""
        try:
            counted = perft(self.position, depth, with_divide=divide)
        except BadOptions as exc:
            raise EngineError(exc.message) from exc
        return counted.count, list(counted.divide or ())

    def choice(self, rng: random.Random) -> int:
        """A seeded choice as an index into ``legal()``, drawn as ``rules-oracle play``
        draws: a chance outcome by its probability, else uniformly."""
        legal = self.legal()
        if self.position.to_act != CHANCE:
            return rng.randrange(len(legal))
        outcomes = self.position.chance_outcomes()
        events = [event for event, _ in outcomes]
        return legal.index(rng.choices(events, weights=[p for _, p in outcomes])[0])

    # --- negative probes (the fuzzed-event generator works on event classes) ------------

    def remember_fields(self, pool: Pool) -> None:
        """Add the field values of the legal events here to a probe pool."""
        if self._game is not None:
            remember(pool, [structure_event(self._game, e) for e in self.legal()])

    def refused_probes(self, pool: Pool, rng: random.Random, count: int) -> list[dict[str, Any]]:
        """Fuzzed events our engine refuses here as illegal, as wire events."""
        if self._game is None:
            return []
        out: list[dict[str, Any]] = []
        for event in candidates(self._game, pool, rng, count):
            record = unstructure_event(event)
            try:
                refused = self.probe(record)
            except EngineError:
                continue  # a value the game cannot read: malformed, not a rule question
            if refused is not None and record not in out:
                out.append(record)
        return out
