"""The data tables in force, read from `game.data` and checked once when the game is made."""

from __future__ import annotations

import attrs

from reference.core.datafile import DataSet
from reference.core.errors import BadOptions
from reference.milestones.board import MapGeometry, parse_map
from reference.milestones.names import ITEMS, KINDS, PIECES


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
    cubes_per_good: int
    coins: int
    pieces: dict[str, int]
    worker_tiles: dict[str, WorkerTile]
    bonus_tiles: dict[str, int]
    geometry: MapGeometry


def _count(data: DataSet, key: str, low: int = 0, high: int | None = None) -> int:
    value = data.value(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise BadOptions(f"data {key}: expected a whole number >= {low}, got {value!r}")
    if high is not None and value > high:
        raise BadOptions(f"data {key}: {value} is more than {high}")
    return value


def _cost(data: DataSet, key: str) -> dict[str, int]:
    value = data.value(key)
    if not isinstance(value, dict) or not value:
        raise BadOptions(f"data {key}: expected a mapping like {{stone: 1, sand: 1}}")
    cost: dict[str, int] = {}
    for item, n in value.items():
        if item not in ITEMS or isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise BadOptions(f"data {key}: {item!r}: {n!r} is not a count of {', '.join(ITEMS)}")
        if n:
            cost[item] = n
    return cost


def _per_players(data: DataSet, key: str) -> dict[int, int]:
    value = data.value(key)
    if not isinstance(value, dict):
        raise BadOptions(f"data {key}: expected a mapping from player count 2, 3, 4 to a number")
    out: dict[int, int] = {}
    for k, v in value.items():
        try:
            players = int(k)
        except (TypeError, ValueError):
            raise BadOptions(f"data {key}: key {k!r} is not a player count") from None
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise BadOptions(f"data {key}: value for {k} must be a whole number >= 1")
        out[players] = v
    if set(out) != {2, 3, 4}:
        raise BadOptions(f"data {key}: needs exactly the player counts 2, 3 and 4")
    return out


def _worker_tiles(data: DataSet) -> dict[str, WorkerTile]:
    value = data.value("tiles.worker_tiles")
    bad = "data tiles.worker_tiles: expected {id: [[kind, number], [kind, number]], ...}"
    if not isinstance(value, dict) or not value:
        raise BadOptions(bad)
    tiles: dict[str, WorkerTile] = {}
    for tile_id, halves in value.items():
        if not isinstance(halves, list) or len(halves) != 2:
            raise BadOptions(f"{bad}; tile {tile_id!r} is not two workers")
        parsed: list[tuple[str, int]] = []
        for half in halves:
            if (
                not isinstance(half, list)
                or len(half) != 2
                or half[0] not in KINDS
                or isinstance(half[1], bool)
                or not isinstance(half[1], int)
                or half[1] < 0
            ):
                raise BadOptions(f"{bad}; tile {tile_id!r} has a bad worker {half!r}")
            parsed.append((half[0], half[1]))
        name = str(tile_id)
        tiles[name] = WorkerTile(name, parsed[0][0], parsed[0][1], parsed[1][0], parsed[1][1])
    return dict(sorted(tiles.items()))


def _bonus_tiles(data: DataSet) -> dict[str, int]:
    value = data.value("tiles.bonus_tiles")
    if not isinstance(value, dict) or any(k not in KINDS for k in value):
        raise BadOptions(f"data tiles.bonus_tiles: expected a mapping from {', '.join(KINDS)}")
    out: dict[str, int] = {}
    for kind in KINDS:
        n = value.get(kind, 0)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise BadOptions(f"data tiles.bonus_tiles: {kind}: {n!r} is not a count")
        out[kind] = n
    return out


def read_tables(data: DataSet) -> Tables:
    """Check every data value the engine uses and return them typed; BadOptions if wrong."""
    # MIL-BOARD-01: the board is a triangle grid with numbered points and bush triangles.
    # MIL-COMP-01..03: component counts, the worker tiles and the bonus tiles come from data.
    geometry = parse_map(data.value("board.map"))
    bonus = _bonus_tiles(data)
    if sum(bonus.values()) != len(geometry.bushes):
        raise BadOptions(
            f"data tiles.bonus_tiles: {sum(bonus.values())} bonus tiles but the map has "
            f"{len(geometry.bushes)} bush triangles; the two must match"
        )
    draft_pool = _per_players(data, "setup.draft_pool")
    take = _count(data, "setup.draft_take", 1)
    if take > 3:
        # Four or more tiles per player may not fit the 8 spaces without overlapping.
        raise BadOptions("data setup.draft_take: at most 3 tiles fit every way on 8 spaces")
    for players, pool in draft_pool.items():
        if pool < players * take:
            raise BadOptions(f"data setup.draft_pool: {pool} tiles cannot give {players} x {take}")
    tables = Tables(
        start_coins=_count(data, "setup.start_coins"),
        display_size=_count(data, "setup.display_size", 1),
        draft_pool=draft_pool,
        draft_take=take,
        moves_per_turn=_count(data, "setup.moves_per_turn", 1),
        worker_tile_cost=_cost(data, "prices.worker_tile"),
        buy_good_cost=_cost(data, "prices.buy_good"),
        sell_goods_per_coin=_count(data, "prices.sell_goods_per_coin", 1, high=12),
        order_bonus_coins=_count(data, "prices.order_bonus_coins"),
        costs={k: _cost(data, f"prices.{k}") for k in ("road", "house", "marketplace", "flour")},
        flour_coins=_count(data, "prices.flour_coins"),
        end_vp=_per_players(data, "scoring.end_vp"),
        bonus_vp=_count(data, "scoring.bonus_vp"),
        bonus_worker_weight=_count(data, "scoring.bonus_worker_weight", 1),
        majority_win_vp=_count(data, "scoring.majority_win_vp"),
        majority_tie_vp=_count(data, "scoring.majority_tie_vp"),
        flour_numbers_scored=_count(data, "scoring.flour_numbers_scored"),
        keep_max=_count(data, "castle.keep_max"),
        cover_if_workers_over=_count(data, "castle.cover_if_workers_over"),
        cubes_per_good=_count(data, "supply.cubes_per_good"),
        coins=_count(data, "supply.coins"),
        pieces={p: _count(data, f"supply.{p}") for p in PIECES},
        worker_tiles=_worker_tiles(data),
        bonus_tiles=bonus,
        geometry=geometry,
    )
    if tables.pieces["marketplaces"] < 1:
        raise BadOptions("data supply.marketplaces: the start marketplace needs at least 1")
    if tables.start_coins * 4 > tables.coins:
        raise BadOptions("data setup.start_coins: the coin supply cannot pay every player")
    return tables
