#!/usr/bin/env python3
"""A deliberately broken copy of our own engine behind the engine protocol (for the perft
tests): ``rules-oracle serve`` with one planted bug in its legal events, deep in a rare phase.

    python tests/perft/broken_engine.py --game pillars --plant extra-use [--no-perft]

Plants:
  extra-use     Pillars, last round, cathedral step: one more use of the first craftsman
                listed than the cubes and the rules allow (an off-by-one); applying it
                applies the most uses there are (the engine accepts what it lists)
  missing-centre  Palmyra solo game, a Reorganise's moves: no move of a piece to the city
                centre is listed (the engine still accepts one)

``--no-perft`` leaves the capability out of ``hello``: conform walks the engine instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

from oracle.games import GameCache
from oracle.protocol import CAPABILITIES
from oracle.refengine import LocalEngine
from oracle.serve import Session
from reference.core.game import Game

PLANTS = ("extra-use", "missing-centre")


def extra_use(game: Game, state: Any, events: list[Any]) -> list[Any]:
    """The last round's cathedral step: a use too many of the first craftsman listed."""
    from reference.pillars.events import UseCraftsman

    t = game.tables.t  # type: ignore[attr-defined]
    if state.round != t.rounds or state.stage != "cathedral" or state.returning:
        return events
    uses = [e for e in events if isinstance(e, UseCraftsman)]
    if not uses:
        return events
    first = uses[0]
    most = max(e.times for e in uses if e.craftsman == first.craftsman)
    return [*events, UseCraftsman(first.player, first.craftsman, most + 1)]


def missing_centre(game: Game, state: Any, events: list[Any]) -> list[Any]:
    """The solo game's Reorganise moves: the moves to the city centre left out."""
    from reference.palmyra.events import MovePiece

    if not game.tables.solo or state.phase != "move":  # type: ignore[attr-defined]
        return events
    return [e for e in events if not (isinstance(e, MovePiece) and e.to == "centre")]


def _alias(game: Game, state: Any, event: Any) -> Any:
    """The event a planted extra one is applied as (the most uses listed)."""
    from reference.pillars.events import UseCraftsman

    if isinstance(event, UseCraftsman):
        honest = game.legal_events(state)
        if event not in honest and event in extra_use(game, state, honest):
            return UseCraftsman(event.player, event.craftsman, event.times - 1)
    return event


class Broken:
    """Our rule set with a planted bug in its legal events (everything else its own)."""

    def __init__(self, real: Game, plant: str) -> None:
        self._real = real
        self._plant = plant

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def legal_events(self, state: Any) -> list[Any]:
        events = self._real.legal_events(state)
        if self._plant == "extra-use" and self._real.name == "pillars":
            return extra_use(self._real, state, events)
        if self._plant == "missing-centre" and self._real.name == "palmyra":
            return missing_centre(self._real, state, events)
        return events

    def apply(self, state: Any, event: Any) -> Any:
        return self._real.apply(state, _alias(self._real, state, event))

    def apply_not_over(self, state: Any, event: Any) -> Any:
        not_over = self._real.apply_not_over  # type: ignore[attr-defined]
        return not_over(state, _alias(self._real, state, event))


class BrokenGames(GameCache):
    """Rule sets with the plant."""

    def __init__(self, plant: str) -> None:
        super().__init__()
        self.plant = plant

    def get(
        self, name: str, options: Mapping[str, Any], extra: Mapping[str, Any] | None = None
    ) -> Game:
        return Broken(super().get(name, options, extra), self.plant)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", required=True)
    parser.add_argument("--plant", choices=PLANTS, required=True)
    parser.add_argument("--no-perft", action="store_true")
    args = parser.parse_args()
    session = Session(tuple(args.game), 0)
    session.engine = LocalEngine(0, games=BrokenGames(args.plant))
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("op") == "hello" and args.no_perft:
            response: dict[str, Any] = session.handle(request)
            response["capabilities"] = [c for c in CAPABILITIES if c != "perft"]
            text = json.dumps(response)
        else:
            text = session.respond(request)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        if request.get("op") == "bye":
            return


if __name__ == "__main__":
    main()
