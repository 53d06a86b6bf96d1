"""The invariant shortcuts a game keeps give exactly the full count: after every event of
every golden play-out (tests/contract/golden_cases.py: every player count, seeds 1-5,
Palmyra's modes too), and on states broken in each part a shortcut keys on.

A shortcut reuses what its game's checker counted for a part of the state that is the very
same object as before (states are frozen and share what an event left alone). It is kept
only where it buys at least 5% of the game's validation CPU (the figures are in the
commits that kept them), and the product and this suite run it alike. Here the rule set's
``invariant_failures`` (the shortcut) is compared with the game's ``invariant_failures``
function (every law counted in full) on each state of a play-out; every ``EVERY`` states,
each part the shortcut keys on is broken in turn, in a state that shares everything else
with a sound state the checker has just counted, so that a key left out of the shortcut
lets the fault through and this test fails. Pillars keeps no shortcut. Municipium's is
also compared under unlimited favour and wreath supplies (a profile's null).

Milestones is also played out with its supplies unlimited by profile (``null``:
reference/core/stock.py), all of them or some: the goods-and-coins shortcut must then give
the full count too, and the supply is also broken by a number where the game's count is
unlimited and by null where it is limited. (A good, coin or cover tile from nowhere breaks
no law when its supply is unlimited, so those corruptions are made only where it is not.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from golden_cases import case_key, cases

from oracle.play import PLAYER_NAMES, choose
from reference.milestones import invariants as milestones_invariants
from reference.milestones.names import KINDS as WORKER_KINDS
from reference.milestones.names import PIECES as MILESTONES_PIECES
from reference.municipium import invariants as municipium_invariants
from reference.palmyra import invariants as palmyra_invariants
from reference.palmyra.lattice import kind_of
from reference.registry import make_game

EVERY = 40
"""Break the parts every this many states of a play-out (and at the first and the last)."""

Corruption = Callable[[Any, Any], Iterator[Any]]
"""(rule set, sound state) -> the states broken in one part (none where it cannot be)."""


def _with_player(state: Any, name: str, **changes: Any) -> Any:
    """``state`` with one player's record changed (a new players' dict, the rest shared)."""
    record = attrs.evolve(state.players[name], **changes)
    return attrs.evolve(state, players={**state.players, name: record})


def _without_player(state: Any, name: str) -> Any:
    """``state`` with one player gone from the players' dict."""
    return attrs.evolve(state, players={n: p for n, p in state.players.items() if n != name})


# -- Palmyra: the tile count and the lattice (a sound state's holders and board) ----------


def _palmyra_board(game: Any, state: Any) -> Iterator[Any]:
    """A tile on the board swapped for another tile of its size (the tiles miscounted)."""
    for cell, code in state.board.items():
        other = next(c for c in game.tables.tables.mix if c[0] == code[0] and c != code)
        yield attrs.evolve(state, board={**state.board, cell: other})
        return


def _palmyra_added_tile(game: Any, state: Any) -> Iterator[Any]:
    """A large tile from the stack laid on a square cell (the tiles balance; it does not
    fit its cell)."""
    code = next((c for c, n in state.large_stack.items() if n > 0), None)
    if code is None:
        return
    cell = next(
        f"{x},{y}"
        for x in range(-12, 13)
        for y in range(-12, 13)
        if kind_of(f"{x},{y}") == "S" and f"{x},{y}" not in state.board
        if f"{x},{y}" not in state.city
    )
    stack = {**state.large_stack, code: state.large_stack[code] - 1}
    yield attrs.evolve(state, board={**state.board, cell: code}, large_stack=stack)


def _palmyra_stacks(game: Any, state: Any) -> Iterator[Any]:
    """A tile more in the large stack, then in the small stack."""
    for field in ("large_stack", "small_stack"):
        stack = getattr(state, field)
        code = next(iter(stack), None)
        if code is not None:
            yield attrs.evolve(state, **{field: {**stack, code: stack[code] + 1}})


def _palmyra_hands(game: Any, state: Any) -> Iterator[Any]:
    """A tile more in each player's supply, then in each player's face-down pile."""
    code = next(iter(game.tables.tables.mix))
    for name, p in state.players.items():
        yield _with_player(state, name, supply=(*p.supply, code))
        yield _with_player(state, name, face_down=(*p.face_down, code))


def _palmyra_seats(game: Any, state: Any) -> Iterator[Any]:
    """A player holding tiles gone from the players' dict (their tiles with them)."""
    for name, p in state.players.items():
        if len(state.players) > 1 and (p.supply or p.face_down):
            yield _without_player(state, name)
            return


def _palmyra_city(game: Any, state: Any) -> Iterator[Any]:
    """A city that takes in a cell holding a land tile."""
    for cell in state.board:
        yield attrs.evolve(state, city=(*state.city, cell))
        return


# -- Milestones: the worker tiles (each player's workers, the places the tile laws read), --
# -- the goods and coins (each player's goods and coins, the supply) -------------------------


def _milestones_workers(game: Any, state: Any) -> Iterator[Any]:
    """Each player's first worker misprinted, then carrying a bonus tile from nowhere,
    then covered by a cover tile from nowhere (the supply's stock as it was; not when that
    stock is unlimited, where a cover tile from nowhere breaks no law)."""
    covers = state.supply["cover_tiles"] is not None
    for name, p in state.players.items():
        for space, worker in p.workers.items():
            if worker is not None:
                for change in (
                    {"number": worker.number + 1},
                    {"bonus": not worker.bonus},
                    *([{"covered": not worker.covered}] if covers else []),
                ):
                    workers = {**p.workers, space: attrs.evolve(worker, **change)}
                    yield _with_player(state, name, workers=workers)
                break


def _milestones_wealth(game: Any, state: Any) -> Iterator[Any]:
    """Each player given a cube of every good in turn, then a coin, from nowhere (only of
    a limited supply: from an unlimited one it breaks no law)."""
    limited = state.supply
    for name, p in state.players.items():
        for good in p.goods:
            if limited[good] is not None:
                yield _with_player(state, name, goods={**p.goods, good: p.goods[good] + 1})
        if limited["coin"] is not None:
            yield _with_player(state, name, coins=p.coins + 1)


def _milestones_supply(game: Any, state: Any) -> Iterator[Any]:
    """The supply with an item more, each in turn (goods, coins, pieces); an unlimited
    item with a count (0), a limited one unlimited (null)."""
    for item, n in state.supply.items():
        if n is not None:
            yield attrs.evolve(state, supply={**state.supply, item: n + 1})
        yield attrs.evolve(state, supply={**state.supply, item: 0 if n is None else None})


def _milestones_places(game: Any, state: Any) -> Iterator[Any]:
    """Each place the tile laws read broken alone: a road off the map, a tile gone from
    the draw pile, a tile twice on display, a tile more in the draft pool, an unknown tile
    removed, a worker on a board also out of play, a bonus tile more out of play and face
    down."""
    board = state.board
    yield attrs.evolve(state, board=attrs.evolve(board, roads=(*board.roads, "X1|X2")))
    if state.draw_pile:
        yield attrs.evolve(state, draw_pile=state.draw_pile[1:])
    if state.display:
        yield attrs.evolve(state, display=(*state.display, state.display[0]))
    yield attrs.evolve(state, draft_pool=(*state.draft_pool, "T99"))
    yield attrs.evolve(state, removed_tiles=(*state.removed_tiles, "T99"))
    on_boards = [
        f"{w.tile}.{w.half}"
        for p in state.players.values()
        for w in p.workers.values()
        if w is not None
    ]
    if on_boards:
        yield attrs.evolve(state, discarded_workers=(*state.discarded_workers, on_boards[0]))
    kind = WORKER_KINDS[0]
    yield attrs.evolve(state, discarded_bonus=(*state.discarded_bonus, kind))
    pool = {**state.bonus_pool, kind: state.bonus_pool.get(kind, 0) + 1}
    yield attrs.evolve(state, bonus_pool=pool)


def _milestones_seats(game: Any, state: Any) -> Iterator[Any]:
    """A player with workers gone from the players' dict (their workers with them)."""
    for name, p in state.players.items():
        if any(p.workers.values()):
            yield _without_player(state, name)
            return


# -- Municipium: the families' and the institutions' counts --------------------------------


def _municipium_families(game: Any, state: Any) -> Iterator[Any]:
    """Each family's record with a citizen from nowhere."""
    for name, p in state.players.items():
        kind = next(iter(p.citizens))
        yield _with_player(state, name, citizens={**p.citizens, kind: p.citizens[kind] + 1})


def _municipium_institutions(game: Any, state: Any) -> Iterator[Any]:
    """An institution with a citizen from nowhere."""
    name, place = next(iter(state.institutions.items()))
    more = attrs.evolve(place, citizens=place.citizens + 1)
    yield attrs.evolve(state, institutions={**state.institutions, name: more})


def _municipium_fields(game: Any, state: Any) -> Iterator[Any]:
    """A family gone at the fewest players with citizen fields, a field citizen standing:
    the fields are then out of play, with the institutions the very same dict."""
    fields = any(p.citizen_field for p in state.institutions.values())
    if fields and len(state.players) == game.tables.field_min_players:
        yield _without_player(state, next(iter(state.players)))


SHORTCUTS: dict[str, tuple[Callable[[Any, Any], list[str]], dict[str, Corruption]]] = {
    "palmyra": (
        lambda game, state: palmyra_invariants.invariant_failures(game.tables, state),
        {
            "board": _palmyra_board,
            "added tile": _palmyra_added_tile,
            "stacks": _palmyra_stacks,
            "hands": _palmyra_hands,
            "seats": _palmyra_seats,
            "city": _palmyra_city,
        },
    ),
    "milestones": (
        lambda game, state: milestones_invariants.invariant_failures(game.tables, state),
        {
            "workers": _milestones_workers,
            "wealth": _milestones_wealth,
            "supply": _milestones_supply,
            "places": _milestones_places,
            "seats": _milestones_seats,
        },
    ),
    "municipium": (
        lambda game, state: municipium_invariants.invariant_failures(game.tables, state),
        {
            "families": _municipium_families,
            "institutions": _municipium_institutions,
            "fields": _municipium_fields,
        },
    ),
}
"""Per game with shortcuts: its full count, and how to break each part they key on."""

MILESTONES_UNLIMITED: dict[str, dict[str, Any]] = {
    "all": {
        "supply.cubes_per_good": None,
        "supply.coins": None,
        **{f"supply.{piece}": None for piece in MILESTONES_PIECES},
    },
    "goods+pieces": {
        "supply.cubes_per_good": None,
        "supply.road_pieces": None,
        "supply.houses": None,
        "supply.cover_tiles": None,
    },
    "coins": {"supply.coins": None, "supply.milestones": None, "supply.flour_sacks": None},
    "stone+grain": {  # a count per good: two goods unlimited, two scarce
        "supply.cubes_per_good": {"stone": None, "wood": 6, "sand": 5, "grain": None},
    },
}
"""Milestones profiles with supplies unlimited: all of them, or some (the rest as printed)."""

CASES = [case for case in cases() if case[0] in SHORTCUTS]


@pytest.mark.parametrize(
    ("name", "options", "count", "seed"), CASES, ids=[case_key(*case) for case in CASES]
)
def test_the_shortcuts_give_the_full_count(
    name: str, options: dict[str, Any], count: int, seed: int
) -> None:
    _compare_play_out(name, options, count, seed)


UNLIMITED_CASES: list[tuple[str, str, dict[str, Any], int, int]] = [
    *(
        ("milestones", label, {"profile": profile}, n, n)
        for label, profile in MILESTONES_UNLIMITED.items()
        for n in (2, 3, 4)
    ),
    *(
        (
            "municipium",
            "favours+wreaths",
            {"profile": {"components.favours": None, "components.wreaths": None}},
            n,
            s,
        )
        for n in (2, 3, 4)
        for s in (1, 2)
    ),
]
"""Play-outs under supplies a profile made unlimited (reference/core/stock.py): the
supplies' counts are then null and conservation skips them, with the shortcuts alike."""


@pytest.mark.parametrize(
    ("name", "options", "count", "seed"),
    [(name, options, n, s) for name, _, options, n, s in UNLIMITED_CASES],
    ids=[f"{name} unlimited={label} {n}p seed{s}" for name, label, _, n, s in UNLIMITED_CASES],
)
def test_the_shortcuts_give_the_full_count_under_unlimited_supplies(
    name: str, options: dict[str, Any], count: int, seed: int
) -> None:
    _compare_play_out(name, options, count, seed)


def _compare_play_out(name: str, options: dict[str, Any], count: int, seed: int) -> None:
    """One seeded play-out, the shortcut against the full count after every event and on
    the states broken in each part every ``EVERY`` states."""
    game = make_game(name, options)
    full, corruptions = SHORTCUTS[name]
    rng = random.Random(seed)  # the golden play-out's choices (oracle.play.play_lines)
    state = game.new_game(PLAYER_NAMES[:count])
    broken: dict[str, int] = dict.fromkeys(corruptions, 0)
    index = 0
    while True:
        assert game.invariant_failures(state) == full(game, state) == [], index
        if index % EVERY == 0 or game.is_over(state):
            for label, corrupt in corruptions.items():
                for bad in corrupt(game, state):
                    expected = full(game, bad)
                    assert expected, f"{label}: the corruption breaks no law"
                    # The checker has just counted the sound state: only ``bad``'s broken
                    # part is new to it.
                    assert game.invariant_failures(bad) == expected, (label, index)
                    assert game.invariant_failures(state) == [], (label, index)
                    broken[label] += 1
        if game.is_over(state):
            break
        state = game.apply(state, choose(game, state, rng))
        index += 1
    unbroken = [label for label, n in broken.items() if not n and _possible(game, label, count)]
    assert not unbroken, f"parts never broken in this play-out: {unbroken}"


def _possible(game: Any, label: str, count: int) -> bool:
    """Whether a play-out with ``count`` players can have the part broken at all."""
    if label == "seats":
        return count > 1
    if label == "fields":
        return bool(count == game.tables.field_min_players)
    if label == "wealth" and game.name == "milestones":  # none from an unlimited supply
        limited = [c for c in game.tables.cubes_per_good.values() if c is not None]
        return bool(limited) or game.tables.coins is not None
    return True
