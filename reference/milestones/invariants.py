"""The engine's own soundness checks, run after every event: everything is conserved.

The checks over pieces, bonus tiles and worker tiles only depend on parts of the state that
most events leave untouched (a move or a purchase does not change the main board or the
workers). `InvariantChecker` remembers the last such parts by identity (frozen values are
shared between successive states by `attrs.evolve`) and recomputes only when one changed,
and always when the phase changes (the game's end among them) or the rule set checks in
full (``full_checks``).
"""

from __future__ import annotations

import operator
from typing import Any

from reference.milestones.board import edge
from reference.milestones.names import COIN, DRAFT, GOODS, ITEMS, KINDS, LEFT, OVER, PIECES, TURNS
from reference.milestones.state import MainBoard, State
from reference.milestones.tables import Tables

SUPPLY_KEYS = frozenset((*ITEMS, *PIECES))
GOODS_OF = operator.itemgetter(*GOODS)
"""The counts of the goods, in GOODS order, from a supply or a player's goods."""
PIECES_OF = operator.itemgetter(*PIECES)
"""The piece stocks of the supply, in PIECES order."""


class InvariantChecker:
    """`invariant_failures` for one rule set, with the memo described above."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self._key: tuple[Any, ...] = ()
        self._placed: dict[str, int] = {}
        self._failures: list[str] = []
        self._stocks: tuple[int, ...] | None = None
        self._piece_failures: list[str] = []
        self._stage = ""

    def __call__(self, state: State, full: bool = False) -> list[str]:
        """Every broken invariant of the state (empty when sound); ``full``: nothing is taken
        from the memo. The memo is also dropped when the phase changes (``stage_of``)."""
        tables = self.tables
        stage = stage_of(state)
        if full or stage != self._stage:
            self._key = ()
            self._stage = stage
        failures: list[str] = []
        if state.supply.keys() != SUPPLY_KEYS:
            return [f"the supply must count exactly {', '.join(sorted(SUPPLY_KEYS))}"]
        players = state.players.values()
        # Goods cubes and coins: players plus supply hold every component (one pass over
        # the players, each good's count read in GOODS order).
        supply = state.supply
        totals = list(GOODS_OF(supply))
        coins = supply[COIN]
        for p in players:
            totals = list(map(operator.add, totals, GOODS_OF(p.goods)))
            coins += p.coins
        for good, total in zip(GOODS, totals, strict=True):
            if total != tables.cubes_per_good or supply[good] < 0:
                failures.append(
                    f"{good}: {total} cubes in play, the game has {tables.cubes_per_good}"
                )
        if coins != tables.coins or supply[COIN] < 0:
            failures.append(f"coins: {coins} in play, the game has {tables.coins}")
        key = (
            state.board,
            state.draw_pile,
            state.display,
            state.draft_pool,
            state.removed_tiles,
            state.discarded_workers,
            state.discarded_bonus,
            state.bonus_pool,
            *(p.workers for p in players),
        )
        if len(key) != len(self._key) or not all(map(operator.is_, key, self._key)):
            self._placed, self._failures = placed_and_tiles(tables, state)
            self._key = key
            self._stocks = None
        failures += self._failures
        # Pieces on the main board (and cover tiles on workers) plus the supply: recounted
        # when the pieces placed (above) or the supply's piece stocks changed.
        stocks = PIECES_OF(supply)
        if stocks != self._stocks:
            self._piece_failures = piece_failures(tables, self._placed, supply)
            self._stocks = stocks
        failures += self._piece_failures
        # Turn bookkeeping.
        if state.phase in (DRAFT, TURNS) and state.current not in state.players:
            failures.append(f"the player to act {state.current!r} is not in the game")
        if state.moves_made > tables.moves_per_turn:
            failures.append(f"{state.moves_made} moves made in one turn")
        if state.phase == OVER and (state.returns_due or state.cover_due or state.pending_bonus):
            failures.append("the game ended with a Castle tax or a bonus claim open")
        return failures


def piece_failures(tables: Tables, placed: dict[str, int], supply: dict[str, int]) -> list[str]:
    """Each kind of piece: the pieces placed plus the supply's stock make the game's count."""
    failures: list[str] = []
    for piece, n in placed.items():
        if n + supply[piece] != tables.pieces[piece] or supply[piece] < 0:
            failures.append(f"{piece}: {n} placed + {supply[piece]} in supply")
    return failures


def stage_of(state: State) -> str:
    """The phase of play: the memo is dropped, so everything is checked in full, when it
    changes (the draft, the turns, the game's end). Every round of turns would be stricter,
    at about a third of the engine's time; the test suite checks every state in full
    (``full_checks``)."""
    return state.phase


def placed_and_tiles(tables: Tables, state: State) -> tuple[dict[str, int], list[str]]:
    """Pieces in play by kind, and the failures of the bonus-tile and worker-tile counts."""
    failures: list[str] = []
    board = state.board
    placed = {
        "road_pieces": len(board.roads),
        "milestones": len(board.milestones),
        "houses": len(board.houses),
        "marketplaces": len(board.marketplaces),
        "flour_sacks": len(board.flour),
        "cover_tiles": 0,
    }
    failures += board_failures(tables, board)
    bonus_on_workers: list[str] = []
    halves = list(state.discarded_workers)
    for p in state.players.values():
        for worker in p.workers.values():
            if worker is None:
                continue
            tile = tables.worker_tiles.get(worker.tile)
            printed = (
                None
                if tile is None
                else (tile.left_kind, tile.left_number)
                if worker.half == LEFT
                else (tile.right_kind, tile.right_number)
            )
            if printed != (worker.kind, worker.number):
                failures.append(f"worker {worker.tile}.{worker.half} is not as printed: {printed}")
            placed["cover_tiles"] += worker.covered
            if worker.bonus:
                bonus_on_workers.append(worker.kind)
            halves.append(f"{worker.tile}.{worker.half}")
    if len(set(board.roads)) != len(board.roads) or len(set(board.houses)) != len(board.houses):
        failures.append("a road edge or a house triangle is listed twice")
    if not set(board.flour) <= set(board.marketplaces):
        failures.append("a flour sack lies where no marketplace stands")
    # Bonus tiles: face down, on the board, on workers or out of play, by kind.
    for kind in KINDS:
        n = (
            state.bonus_pool.get(kind, 0)
            + sum(1 for k in board.bonus_tiles.values() if k == kind)
            + bonus_on_workers.count(kind)
            + state.discarded_bonus.count(kind)
        )
        if n != tables.bonus_tiles[kind]:
            failures.append(f"{kind} bonus tiles: {n}, the game has {tables.bonus_tiles[kind]}")
    # Worker tiles: each lies in exactly one loose place, or both its workers are on player
    # boards or out of play. Halves are unique, none belongs to a loose tile, and there are
    # exactly two per tile that is not loose, so every such tile is fully accounted for.
    loose = state.draw_pile + state.display + state.draft_pool + state.removed_tiles
    loose_set = set(loose)
    half_tiles = {h.partition(".")[0] for h in halves}
    if len(loose_set) != len(loose) or len(set(halves)) != len(halves):
        failures.append("a worker tile or a worker lies in two places")
    if half_tiles & loose_set:
        failures.append("a worker tile is both loose and on a player board")
    if not (loose_set | half_tiles) <= tables.worker_tiles.keys():
        failures.append("worker tiles appear that the game does not have")
    if len(halves) != 2 * (len(tables.worker_tiles) - len(loose_set)):
        failures.append(f"{len(halves)} workers on boards or out of play, {len(loose)} tiles loose")
    return placed, failures


def board_failures(tables: Tables, board: MainBoard) -> list[str]:
    """Pieces on the main board must stand on points, edges and triangles of the map."""
    geometry = tables.geometry
    failures: list[str] = []
    points = (*board.milestones, *board.marketplaces, *board.road_ends, *board.road_ends.values())
    if any(p not in geometry.values for p in points):
        failures.append("a piece stands on a point the map does not have")
    for e in board.roads:
        a, _, b = e.partition("|")
        if not geometry.is_edge(a, b) or edge(a, b) != e:
            failures.append(f"road {e!r} is not an edge of the map")
    if any(t not in geometry.triangles for t in board.houses):
        failures.append("a house stands on a triangle the map does not have")
    if any(t not in geometry.bushes or k not in KINDS for t, k in board.bonus_tiles.items()):
        failures.append("a bonus tile lies off the bush triangles")
    for pieces in (board.milestones, board.marketplaces, board.flour):
        if len(set(pieces)) != len(pieces):
            failures.append("two pieces of one kind stand on the same place")
    if set(board.milestones) & set(board.marketplaces):
        failures.append("a point holds both a milestone and a marketplace")
    if geometry.start not in board.marketplaces:
        failures.append("the start marketplace is missing")
    return failures
