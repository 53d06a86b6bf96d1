"""A second way to count: every event the game's event classes allow, kept if ``apply``
accepts it. It never asks the engine for its legal events.

Each event class's fields take every value of their kind from the game's vocabulary (the
data tables and the names docs/games/<game>.md gives: cards, spaces, points, cells, kinds),
whole numbers from 0 to a bound no count at the suite's positions comes near, and the lists
of the lengths the rules name (in every order). A candidate counts once per distinct event:
two candidates that are the same event written in another order (fields whose order does not
matter, docs/perft.md) lead to the same position and are counted once.
"""

from __future__ import annotations

import itertools
import typing
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from reference.core.errors import MalformedEvent, RuleViolation
from reference.core.game import Game, step

BOOLS = (False, True)
Domain = Callable[[Game, Any, type, str], list[Any]]
"""The values a field of an event class takes at a state: (game, state, class, field)."""
Candidates = Callable[[Game, Any], Iterator[Any]]
"""Every candidate event at a state."""


def candidates(game: Game, state: Any, domain: Domain) -> Iterator[Any]:
    """Every event of every class the game has, with every combination of field values."""
    for cls in game.event_types:
        names = [f.name for f in attrs.fields(cls)]
        values = [domain(game, state, cls, name) for name in names]
        for combo in itertools.product(*values):
            try:
                yield cls(**dict(zip(names, combo, strict=True)))
            except (TypeError, ValueError):
                continue


def accepted(game: Game, state: Any, every: Candidates) -> list[tuple[Any, Any]]:
    """Each distinct accepted event with the state after it."""
    if game.is_over(state):
        return []
    found: dict[tuple[Any, ...], list[tuple[Any, Any]]] = {}
    for event in every(game, state):
        try:
            after = step(game, state, event)
        except (RuleViolation, MalformedEvent):
            continue
        same = found.setdefault(_unordered(event), [])
        if all(after != seen for _, seen in same):
            same.append((event, after))
    return [pair for pairs in found.values() for pair in pairs]


def count(game: Game, state: Any, depth: int, every: Candidates) -> int:
    """The number of sequences of ``depth`` accepted events from ``state``."""
    if depth == 0:
        return 1
    events = accepted(game, state, every)
    if depth == 1:
        return len(events)
    return sum(count(game, after, depth - 1, every) for _, after in events)


def _unordered(event: Any) -> tuple[Any, ...]:
    """The event with every list field taken as a collection (sorted)."""
    values = []
    for f in attrs.fields(type(event)):
        value = getattr(event, f.name)
        values.append(tuple(sorted(value)) if isinstance(value, tuple) else value)
    return (type(event), *values)


def _hint(cls: type, name: str) -> Any:
    return typing.get_type_hints(cls)[name]


def _players(state: Any) -> list[str]:
    return list(state.players)


# --- the four games' vocabularies --------------------------------------------------------------


def pillars(game: Game, state: Any, cls: type, name: str) -> list[Any]:
    """Pillars: card ids, craftsmen, board spaces, resources; counts from 0 to the most cubes
    anyone holds (at least 8: the market's stock and the die stay below)."""
    t = game.tables.t  # type: ignore[attr-defined]
    cards = [*t.resource_cards, *t.craftsmen, *t.advantages]
    resources = ["sand", "wood", "stone", "metal"]
    if name in ("player", "owner"):
        return _players(state)
    if name == "card":
        return cards
    if name == "craftsman":
        return list(t.craftsmen)
    if name == "space":
        return list(game.tables.spaces)  # type: ignore[attr-defined]
    if name == "resource":
        return resources
    # cubes bought, sold, used or returned: never more than anyone holds, the market or the
    # die shows (8 is above both)
    most = max([8, *(n for p in state.players.values() for n in p.resources.values())])
    if name in ("count", "times", "tax"):
        return list(range(most + 1))
    if name in resources:  # return_resources
        return list(range(most + 1))
    if name == "event":
        return list(t.events)
    if name == "cards":
        return list(itertools.permutations(t.advantages, t.advantages_per_round))
    if name == "shiring":
        return list(itertools.permutations(t.craftsmen, t.shiring_per_round))
    if name == "set_aside":
        aside = len(t.resource_cards) - t.resource_cards_revealed
        return list(itertools.permutations(t.resource_cards, aside))
    if _hint(cls, name) is bool:
        return list(BOOLS)
    raise KeyError(f"pillars: no vocabulary for {cls.__name__}.{name}")


def milestones(game: Game, state: Any, cls: type, name: str) -> list[Any]:
    """Milestones: worker tiles and spaces, goods, the map's points and triangles (a road's
    three points along the map's edges, flour numbers among a marketplace's neighbours)."""
    from reference.milestones.names import GOODS, ITEMS, KINDS, WORKER_SPACES

    t = game.tables  # type: ignore[attr-defined]
    geo = t.geometry
    if name == "player":
        return _players(state)
    if name == "tile":
        return list(t.worker_tiles)
    if name == "space":
        return list(WORKER_SPACES)
    if name == "steps":
        return list(range(13))
    if name in ("good", "item"):
        return list(ITEMS)
    if name == "goods":
        return [c for k in (1, 2, 3) for c in itertools.product(GOODS, repeat=k)]
    if name in ("triangle",):
        return list(geo.triangles)
    if name == "kind":
        return list(KINDS)
    if name == "point":
        return list(geo.neighbours)
    raise KeyError(f"milestones: no vocabulary for {cls.__name__}.{name}")


def milestones_candidates(game: Game, state: Any) -> Iterator[Any]:
    """Milestones' candidates, with a road's and a delivery's fields taken together (three
    points in a row along the map's edges; flour numbers among the marketplace's neighbours):
    any other combination names points that are not on one road (malformed or refused)."""
    from reference.milestones import events as ev

    geo = game.tables.geometry  # type: ignore[attr-defined]
    for cls in game.event_types:
        if cls is ev.BuildRoad:
            for player in _players(state):
                for a, near in geo.neighbours.items():
                    for b in near:
                        for c in geo.neighbours[b]:
                            yield ev.BuildRoad(player, a, b, c)
            continue
        if cls is ev.DeliverFlour:
            for player in _players(state):
                for m, near in geo.neighbours.items():
                    for k in (1, 2):
                        for numbers in itertools.combinations(near, k):
                            yield ev.DeliverFlour(player, m, numbers)
            continue
        names = [f.name for f in attrs.fields(cls)]
        values = [milestones(game, state, cls, name) for name in names]
        for combo in itertools.product(*values):
            try:
                yield cls(**dict(zip(names, combo, strict=True)))
            except (TypeError, ValueError):
                continue


def palmyra(game: Game, state: Any, cls: type, name: str) -> list[Any]:
    """Palmyra: tile codes, pieces, stacks, and every cell within two of the board's."""
    from reference.palmyra.tiles import TILES

    cells = _cells_near(state)
    if name == "player":
        return _players(state)
    if name == "piece":
        return ["legion", "censor"]
    if name == "tile":
        return list(TILES)
    if name == "cell":
        return cells
    if name == "to":
        return ["centre", *cells]
    if name in ("size", "stack"):
        return ["large", "small"]
    if _hint(cls, name) is bool:
        return list(BOOLS)
    raise KeyError(f"palmyra: no vocabulary for {cls.__name__}.{name}")


def _cells_near(state: Any) -> list[str]:
    """Every cell "x,y" within two of a cell of the board or the city."""
    taken = [tuple(map(int, cell.split(","))) for cell in (*state.board, *state.city)]
    xs = [x for x, _ in taken] or [0]
    ys = [y for _, y in taken] or [0]
    return [
        f"{x},{y}" for x in range(min(xs) - 2, max(xs) + 3) for y in range(min(ys) - 2, max(ys) + 3)
    ]


def municipium(game: Game, state: Any, cls: type, name: str) -> list[Any]:
    """Municipium: institutions, citizen kinds, card ids, families; counts 0 to 7."""
    from reference.municipium.tables import FAVOUR, INSTITUTIONS, KINDS

    t = game.tables  # type: ignore[attr-defined]
    if name in ("player", "family", "victim"):
        return _players(state)
    if name in ("institution", "origin", "destination"):
        return list(INSTITUTIONS)
    if name == "path":
        return [p for k in (2, 3) for p in itertools.product(INSTITUTIONS, repeat=k)]
    if name == "card":
        return [*t.common_ids, *t.family_ids]
    if name == "kind":
        return list(KINDS)
    if name == "tokens":
        return list(itertools.combinations_with_replacement((*KINDS, FAVOUR), 3))
    hint = _hint(cls, name)
    if hint is bool:
        return list(BOOLS)
    if hint is int:
        return list(range(8))
    raise KeyError(f"municipium: no vocabulary for {cls.__name__}.{name}")


def by_fields(domain: Domain) -> Candidates:
    """Every combination of the fields' values, field by field."""
    return lambda game, state: candidates(game, state, domain)


CANDIDATES: dict[str, Candidates] = {
    "pillars": by_fields(pillars),
    "milestones": milestones_candidates,
    "palmyra": by_fields(palmyra),
    "municipium": by_fields(municipium),
}
