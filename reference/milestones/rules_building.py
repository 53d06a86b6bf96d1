"""The Board of Works (roads, houses, marketplaces), the Mill (flour) and bonus tiles."""

from __future__ import annotations

from collections.abc import Iterable

from reference.core.errors import RuleViolation
from reference.milestones.board import edge
from reference.milestones.common import gain_capped, noted, pay, score, use_piece, with_player
from reference.milestones.events import (
    BuildHouse,
    BuildMarketplace,
    BuildRoad,
    ClaimBonus,
    DeliverFlour,
)
from reference.milestones.names import BOARD_OF_WORKS, COIN, MILL
from reference.milestones.rules_trading import require_at
from reference.milestones.state import MainBoard, PlayerState, State, evolve
from reference.milestones.tables import Tables


def road_points(board: MainBoard) -> set[str]:
    """Every point touched by a road piece."""
    points: set[str] = set()
    for e in board.roads:
        a, b = e.split("|")
        points.add(a)
        points.add(b)
    return points


def is_covered(board: MainBoard, point: str) -> bool:
    """A number is covered when a milestone or a marketplace stands on it."""
    return point in board.milestones or point in board.marketplaces


def eligible_spaces(player: PlayerState, kind: str) -> list[str]:
    """Spaces with an uncovered worker of `kind` carrying no bonus tile yet."""
    return [
        s
        for s, w in player.workers.items()
        if w is not None and w.kind == kind and not w.covered and not w.bonus
    ]


def claimable(state: State, name: str, triangles: Iterable[str]) -> tuple[str, ...]:
    """The triangles among these whose bonus tile the player can take now."""
    player = state.players[name]
    # MIL-BONUS-02: a bonus tile needs an uncovered worker of its kind without a bonus tile;
    # otherwise it stays on the board.
    return tuple(
        t
        for t in triangles
        if t in state.board.bonus_tiles and eligible_spaces(player, state.board.bonus_tiles[t])
    )


def check_road(tables: Tables, board: MainBoard, start: str, mid: str, end: str) -> str:
    """Check a road's placement; return the marketplace the road starts from."""
    geometry = tables.geometry
    # MIL-ROAD-06: a road is two road pieces on two adjacent edges of the map, start-mid-end.
    if not (geometry.is_edge(start, mid) and geometry.is_edge(mid, end)) or start == end:
        raise RuleViolation("MIL-ROAD-06", f"{start}-{mid}-{end} is not two adjacent map edges")
    # MIL-ROAD-01: a road starts at a marketplace or continues a road from its free end.
    if start in board.marketplaces:
        origin = start
    elif start in board.road_ends:
        origin = board.road_ends[start]
    else:
        raise RuleViolation(
            "MIL-ROAD-01", f"{start} is neither a marketplace nor a road's free end"
        )
    # MIL-ROAD-02: the milestone goes on an uncovered number.
    if geometry.values[mid] is None or is_covered(board, mid):
        raise RuleViolation("MIL-ROAD-02", f"the milestone needs an uncovered number, not {mid}")
    # MIL-ROAD-04: a road never leads back to the marketplace it started from.
    if end == origin:
        raise RuleViolation("MIL-ROAD-04", f"the road would lead back to its marketplace {end}")
    # MIL-ROAD-03: a road never joins another road (nor runs onto a marketplace).
    touched = road_points(board)
    if mid in touched or end in touched or end in board.marketplaces:
        raise RuleViolation("MIL-ROAD-03", f"the road {start}-{mid}-{end} would join another road")
    return origin


def build_road(tables: Tables, state: State, event: BuildRoad) -> State:
    """Two road pieces with a milestone between them; scores the milestone's number."""
    require_at(state, event.player, BOARD_OF_WORKS, "building a road")
    board = state.board
    origin = check_road(tables, board, event.start, event.milestone, event.end)
    # MIL-BUILD-01: every piece is paid for at the Board of Works.
    state = pay(state, event.player, tables.costs["road"], "MIL-BUILD-01", "a road")
    state = noted(tables, "MIL-BUILD-01", state)
    state = use_piece(state, "road_pieces", 2, "a road")
    state = noted(tables, "MIL-BUILD-02", use_piece(state, "milestones", 1, "a road"))
    ends = {k: v for k, v in board.road_ends.items() if k != event.start}
    ends[event.end] = origin
    roads = (*board.roads, edge(event.start, event.milestone), edge(event.milestone, event.end))
    board = evolve(
        board, roads=roads, milestones=(*board.milestones, event.milestone), road_ends=ends
    )
    state = evolve(state, board=board)
    # MIL-ROAD-05: the road scores the number under its milestone.
    number = tables.geometry.values[event.milestone] or 0
    why = f"the milestone's {number}"
    state = score(tables, state, event.player, number, rule="MIL-ROAD-05", why=why)
    # MIL-BONUS-01: a milestone on a corner of a bush triangle earns its bonus tile.
    triangles = tables.geometry.point_triangles[event.milestone]
    return evolve(state, pending_bonus=claimable(state, event.player, triangles))


def build_house(tables: Tables, state: State, event: BuildHouse) -> State:
    """A house on a triangle beside a road; scores its uncovered corners."""
    require_at(state, event.player, BOARD_OF_WORKS, "building a house")
    corners = tables.geometry.triangles.get(event.triangle)
    board = state.board
    # MIL-HOUSE-01: a house stands on a triangle with a road on at least one of its sides.
    if corners is None:
        raise RuleViolation("MIL-HOUSE-01", f"{event.triangle} is not a triangle of the map")
    a, b, c = corners
    if not {edge(a, b), edge(b, c), edge(a, c)} & set(board.roads):
        raise RuleViolation("MIL-HOUSE-01", f"no road runs along a side of {event.triangle}")
    # MIL-HOUSE-02: one house per triangle.
    if event.triangle in board.houses:
        raise RuleViolation("MIL-HOUSE-02", f"{event.triangle} already has a house")
    state = pay(state, event.player, tables.costs["house"], "MIL-BUILD-01", "a house")
    state = noted(tables, "MIL-BUILD-01", state)
    state = noted(tables, "MIL-BUILD-02", use_piece(state, "houses", 1, "a house"))
    state = evolve(state, board=evolve(board, houses=(*board.houses, event.triangle)))
    # MIL-HOUSE-03: a house scores the uncovered numbers at its three corners.
    values = tables.geometry.values
    points = sum(values[p] or 0 for p in corners if not is_covered(board, p))
    why = f"{points}: its uncovered corners"
    state = score(tables, state, event.player, points, rule="MIL-HOUSE-03", why=why)
    # MIL-BONUS-01: a house on a bush triangle earns its bonus tile.
    return evolve(state, pending_bonus=claimable(state, event.player, (event.triangle,)))


def build_marketplace(tables: Tables, state: State, event: BuildMarketplace) -> State:
    """A marketplace on an uncovered number on a road or at its end; scores that number."""
    require_at(state, event.player, BOARD_OF_WORKS, "building a marketplace")
    board = state.board
    value = tables.geometry.values.get(event.point)
    # MIL-MARKET-01: a marketplace goes on an uncovered number on a road or at a road's end.
    if value is None or is_covered(board, event.point):
        raise RuleViolation("MIL-MARKET-01", f"{event.point} is not an uncovered number")
    if event.point not in road_points(board):
        raise RuleViolation("MIL-MARKET-01", f"{event.point} is not on a road")
    state = pay(state, event.player, tables.costs["marketplace"], "MIL-BUILD-01", "a marketplace")
    state = noted(tables, "MIL-BUILD-01", state)
    state = noted(tables, "MIL-BUILD-02", use_piece(state, "marketplaces", 1, "a marketplace"))
    ends = {k: v for k, v in board.road_ends.items() if k != event.point}
    board = evolve(board, marketplaces=(*board.marketplaces, event.point), road_ends=ends)
    # MIL-MARKET-02: a marketplace scores the number it covers.
    state = evolve(state, board=board)
    return score(tables, state, event.player, value, rule="MIL-MARKET-02", why=f"{value}")


def flour_choices(tables: Tables, board: MainBoard, marketplace: str) -> list[str]:
    """The uncovered numbered neighbours of a marketplace, in map order."""
    values = tables.geometry.values
    return [
        p
        for p in tables.geometry.neighbours[marketplace]
        if values[p] is not None and not is_covered(board, p)
    ]


def deliver_flour(tables: Tables, state: State, event: DeliverFlour) -> State:
    """A flour sack on a marketplace: two adjacent uncovered numbers and a coin."""
    require_at(state, event.player, MILL, "delivering flour")
    board = state.board
    # MIL-MILL-02: flour goes to a marketplace that has no flour sack yet.
    if event.marketplace not in board.marketplaces:
        raise RuleViolation("MIL-MILL-02", f"{event.marketplace} has no marketplace")
    if event.marketplace in board.flour:
        raise RuleViolation("MIL-MILL-02", f"the marketplace {event.marketplace} has its sack")
    # MIL-MILL-03: it scores two uncovered neighbouring numbers of the player's choice (all of
    # them if fewer are uncovered).
    choices = flour_choices(tables, board, event.marketplace)
    want = min(tables.flour_numbers_scored, len(choices))
    numbers = event.numbers
    if len(set(numbers)) != len(numbers) or len(numbers) != want:
        raise RuleViolation("MIL-MILL-03", f"choose {want} different uncovered neighbours")
    if any(p not in choices for p in numbers):
        raise RuleViolation("MIL-MILL-03", f"score only uncovered neighbours: {choices}")
    # MIL-MILL-01: each flour sack costs grain.
    state = pay(state, event.player, tables.costs["flour"], "MIL-MILL-01", "a flour sack")
    state = noted(tables, "MIL-MILL-01", state)
    state = noted(tables, "MIL-BUILD-02", use_piece(state, "flour_sacks", 1, "flour"))
    board = evolve(board, flour=(*board.flour, event.marketplace))
    state = evolve(state, board=board)
    points = sum(tables.geometry.values[p] or 0 for p in numbers)
    state = score(tables, state, event.player, points, rule="MIL-MILL-03", why="two numbers")
    # MIL-MILL-03: each delivery also earns a coin.
    return gain_capped(state, event.player, COIN, tables.flour_coins, tables, rule="MIL-MILL-03")


def claim_bonus(tables: Tables, state: State, event: ClaimBonus) -> State:
    """Lay an earned bonus tile on a matching worker: +1 point, the worker doubles."""
    # MIL-BONUS-04: only a bonus tile just earned by a milestone or house is claimed.
    if event.triangle not in state.pending_bonus:
        raise RuleViolation("MIL-BONUS-04", f"no bonus tile on {event.triangle} is being claimed")
    kind = state.board.bonus_tiles[event.triangle]
    player = state.players[event.player]
    # MIL-BONUS-02: the tile goes on an uncovered worker of its kind without a bonus tile.
    if event.space not in eligible_spaces(player, kind):
        raise RuleViolation(
            "MIL-BONUS-02", f"{event.space} has no uncovered {kind} without a bonus"
        )
    workers = dict(player.workers)
    worker = workers[event.space]
    if worker is not None:
        workers[event.space] = evolve(worker, bonus=True)
    state = with_player(state, event.player, evolve(player, workers=workers))
    state = noted(tables, "MIL-BONUS-02", state)
    tiles = {t: k for t, k in state.board.bonus_tiles.items() if t != event.triangle}
    state = evolve(state, board=evolve(state.board, bonus_tiles=tiles))
    rest = [t for t in state.pending_bonus if t != event.triangle]
    state = evolve(state, pending_bonus=claimable(state, event.player, rest))
    # MIL-BONUS-03: a claimed bonus tile scores one point.
    return score(tables, state, event.player, tables.bonus_vp, rule="MIL-BONUS-03")
