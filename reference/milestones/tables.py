"""The data tables in force, read from `game.data` and checked once when the game is made."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import attrs

from reference.core import tables as tb
from reference.core.datafile import DataSet
from reference.core.stock import Stock
from reference.milestones.board import MapGeometry, parse_map
from reference.milestones.names import GOODS, ITEMS, KINDS, PIECES

if TYPE_CHECKING:  # the recorder is imported only where a value is explained (a cheap start)
    from reference.core.trace import Recorder


@attrs.frozen
class WorkerTile:
    """One worker tile from `tiles.worker_tiles`: two workers side by side."""

    id: str
    left_kind: str
    left_number: int
    right_kind: str
    right_number: int


@attrs.frozen
class Tables:
    """Every data value the rules use, in checked Python form."""

    start_coins: int
    display_size: int
    draft_pool: dict[int, int]
    draft_take: int
    moves_per_turn: int
    worker_tile_cost: dict[str, int]
    buy_good_cost: dict[str, int]
    sell_goods_per_coin: int
    order_bonus_coins: int
    costs: dict[str, dict[str, int]]
    """Cost of `road`, `house`, `marketplace` and `flour`."""
    flour_coins: int
    end_vp: dict[int, int]
    bonus_vp: int
    bonus_worker_weight: int
    majority_win_vp: int
    majority_tie_vp: int
    flour_numbers_scored: int
    keep_max: int
    cover_if_workers_over: int
    cubes_per_good: dict[str, Stock]
    """The cubes of each good (GOODS): ``supply.cubes_per_good`` is one count for every good,
    or a mapping with a count for each; null (for all, or one good) is unlimited."""
    coins: Stock
    """The game's coins (null in a profile: the supply's coins never run out)."""
    pieces: dict[str, Stock]
    """The stock of each piece (PIECES; null in a profile: that stock never runs out)."""
    worker_tiles: dict[str, WorkerTile]
    bonus_tiles: dict[str, int]
    geometry: MapGeometry
    recorder: Recorder | None = None
    """Set only in the recording copy that explains a value (reference/core/trace.py)."""


def _cost(data: DataSet, key: str) -> dict[str, int]:
    cost = tb.counts(key, data.value(key), ITEMS, high=99)
    if not cost:
        raise tb.bad(key, "a mapping like {stone: 1, sand: 1}", cost)
    return {item: n for item, n in cost.items() if n}


def _per_players(data: DataSet, key: str) -> dict[int, int]:
    raw = tb.player_counts(key, data.value(key), (2, 3, 4))
    if set(raw) != {2, 3, 4}:
        raise tb.bad(key, "exactly the player counts 2, 3 and 4", sorted(raw))
    return {n: tb.whole(f"{key}.{n}", v, 1) for n, v in raw.items()}


def _worker_tiles(data: DataSet) -> dict[str, WorkerTile]:
    key = "tiles.worker_tiles"
    tiles: dict[str, WorkerTile] = {}
    for tile_id, halves in tb.mapping(key, data.value(key), nonempty=True).items():
        parsed: list[tuple[str, int]] = []
        pair = tb.items(f"{key}.{tile_id}", halves)
        if len(pair) != 2:
            raise tb.bad(f"{key}.{tile_id}", "two workers [[kind, number], [kind, number]]", pair)
        for i, half in enumerate(pair):
            worker = tb.items(f"{key}.{tile_id}[{i}]", half)
            if len(worker) != 2:
                raise tb.bad(f"{key}.{tile_id}[{i}]", "a worker [kind, number]", half)
            kind = tb.choice(f"{key}.{tile_id}[{i}][0]", worker[0], KINDS)
            parsed.append((kind, tb.whole(f"{key}.{tile_id}[{i}][1]", worker[1], 0, 99)))
        tiles[tile_id] = WorkerTile(tile_id, parsed[0][0], parsed[0][1], parsed[1][0], parsed[1][1])
    return dict(sorted(tiles.items()))


def _bonus_tiles(data: DataSet) -> dict[str, int]:
    found = tb.counts("tiles.bonus_tiles", data.value("tiles.bonus_tiles"), KINDS, high=99)
    return {kind: found.get(kind, 0) for kind in KINDS}


def read_tables(data: DataSet) -> Tables:
    """Check every data value the engine uses and return them typed; BadOptions if wrong."""
    # MIL-BOARD-01: the board is a triangle grid with numbered points and bush triangles.
    # MIL-COMP-01..03: component counts, the worker tiles and the bonus tiles come from data.
    geometry = parse_map(data.value("board.map"))
    bonus = _bonus_tiles(data)
    if sum(bonus.values()) != len(geometry.bushes):
        expected = f"one bonus tile per bush triangle of the map ({len(geometry.bushes)})"
        raise tb.bad("tiles.bonus_tiles", expected, sum(bonus.values()))
    draft_pool = _per_players(data, "setup.draft_pool")
    # Four or more tiles per player may not fit the 8 spaces without overlapping.
    take = tb.whole_at(data, "setup.draft_take", 1, 3)
    for players, pool in draft_pool.items():
        if pool < players * take:
            expected = f"at least {players} x {take} tiles for {players} players"
            raise tb.bad(f"setup.draft_pool.{players}", expected, pool)
    tables = Tables(
        start_coins=tb.whole_at(data, "setup.start_coins"),
        display_size=tb.whole_at(data, "setup.display_size", 1, 99),
        draft_pool=draft_pool,
        draft_take=take,
        moves_per_turn=tb.whole_at(data, "setup.moves_per_turn", 1, 99),
        worker_tile_cost=_cost(data, "prices.worker_tile"),
        buy_good_cost=_cost(data, "prices.buy_good"),
        sell_goods_per_coin=tb.whole_at(data, "prices.sell_goods_per_coin", 1, high=12),
        order_bonus_coins=tb.whole_at(data, "prices.order_bonus_coins"),
        costs={k: _cost(data, f"prices.{k}") for k in ("road", "house", "marketplace", "flour")},
        flour_coins=tb.whole_at(data, "prices.flour_coins"),
        end_vp=_per_players(data, "scoring.end_vp"),
        bonus_vp=tb.whole_at(data, "scoring.bonus_vp"),
        bonus_worker_weight=tb.whole_at(data, "scoring.bonus_worker_weight", 1),
        majority_win_vp=tb.whole_at(data, "scoring.majority_win_vp"),
        majority_tie_vp=tb.whole_at(data, "scoring.majority_tie_vp"),
        flour_numbers_scored=tb.whole_at(data, "scoring.flour_numbers_scored"),
        keep_max=tb.whole_at(data, "castle.keep_max"),
        cover_if_workers_over=tb.whole_at(data, "castle.cover_if_workers_over"),
        # A supply's or stock's count may be null: unlimited (reference/core/stock.py); the
        # bound 999 is there only against absurd sizes, and its error names null.
        cubes_per_good=_cubes(data),
        coins=tb.stock_at(data, "supply.coins"),
        pieces={p: tb.stock_at(data, f"supply.{p}") for p in PIECES},
        worker_tiles=_worker_tiles(data),
        bonus_tiles=bonus,
        geometry=geometry,
    )
    # MIL-COMP-02, MIL-SUPPLY-01: goods come only from the supply's cubes, so a cost asking
    # more of one good than the game has cubes of it can never be paid (no cubes at all: no
    # road, house, marketplace or flour, and so no game that ends by its points).
    most = {good: _dearest(tables, good) for good in GOODS}
    dearest = max(most.values())
    if dearest[0] == 0:  # no cost asks a good
        dearest = (1, "any good")
    # (Unlimited cubes pay any cost, an unlimited stock holds the start marketplace, and
    # unlimited coins pay every player's start coins.)
    if isinstance(data.value("supply.cubes_per_good"), Mapping):  # a count per good
        for good, cubes in tables.cubes_per_good.items():
            n, name = most[good]
            if cubes is not None and cubes < max(1, n):
                why = f" (the most of {good} a cost asks: {name})" if n >= 1 else ""
                raise tb.bad(f"supply.cubes_per_good.{good}", f"at least {max(1, n)}{why}", cubes)
    else:
        cubes = tables.cubes_per_good[GOODS[0]]  # one count for every good
        if cubes is not None and cubes < max(1, dearest[0]):
            expected = (
                f"at least {max(1, dearest[0])} (the most of one good a cost asks: {dearest[1]})"
            )
            raise tb.bad("supply.cubes_per_good", expected, cubes)
    if tables.pieces["marketplaces"] == 0:
        raise tb.bad("supply.marketplaces", "at least 1 (the start marketplace)", 0)
    if tables.coins is not None and tables.start_coins * 4 > tables.coins:
        expected = f"at most a quarter of supply.coins ({tables.coins})"
        raise tb.bad("setup.start_coins", expected, tables.start_coins)
    return tables


def _cubes(data: DataSet) -> dict[str, Stock]:
    """Each good's cubes: ``supply.cubes_per_good`` as one count (or null) for every good,
    or a mapping of the four goods to a count (or null) each."""
    key = "supply.cubes_per_good"
    value = data.value(key)
    if isinstance(value, Mapping):
        return tb.stocks(key, value, GOODS, exact=True)
    return dict.fromkeys(GOODS, tb.stock(key, value))


def _dearest(tables: Tables, good: str) -> tuple[int, str]:
    """The most of ``good`` one cost asks, and which (0 when none asks it)."""
    costs = (*tables.costs.items(), ("worker_tile", tables.worker_tile_cost))
    return max(((cost.get(good, 0), name) for name, cost in costs), default=(0, "none"))
