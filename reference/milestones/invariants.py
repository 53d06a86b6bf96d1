"""The engine's own soundness checks, run after every event: everything is conserved.

Most events change one player and the supply and leave the rest of the state untouched
(frozen values are shared between successive states by `attrs.evolve`), so
`InvariantChecker` keeps a memo of what it counted, by identity:

- the goods and coins each player holds (by the identity of the player's record): the
  supply must then hold exactly what the players do not, so after a move only the moving
  player is counted again and the supply compared with what it must hold;
- the checks over pieces, bonus tiles and worker tiles (by the identity of the board, the
  tile places and each player's workers), recomputed only when one of them changed, and
  the board's own checks (pieces on the map) only when the board changed.

The memo is dropped, so everything is counted from nothing, when the phase changes (the
game's end among them) and on every state when the rule set checks in full
(``full_checks``, on in the test suite).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from reference.milestones.board import edge
from reference.milestones.names import COIN, DRAFT, GOODS, ITEMS, KINDS, LEFT, OVER, PIECES, TURNS
from reference.milestones.state import MainBoard, PlayerState, State
from reference.milestones.tables import Tables

SUPPLY_KEYS = frozenset((*ITEMS, *PIECES))
GOODS_OF = operator.itemgetter(*GOODS)
"""The counts of the goods, in GOODS order, from a supply or a player's goods."""
WEALTH_OF = operator.itemgetter(*GOODS, COIN)
"""The supply's goods (in GOODS order) and coins: what `holdings` counts for a player."""
PIECES_OF = operator.itemgetter(*PIECES)
"""The piece stocks of the supply, in PIECES order."""
TILE_PLACES = operator.attrgetter(
    "board",
    "draw_pile",
    "display",
    "draft_pool",
    "removed_tiles",
    "discarded_workers",
    "discarded_bonus",
    "bonus_pool",
)
"""The parts of the state besides the players' workers that `placed_and_tiles` reads."""


def holdings(player: PlayerState) -> tuple[int, ...]:
    """A player's goods (in GOODS order) and coins."""
    return (*GOODS_OF(player.goods), player.coins)


class InvariantChecker:
    """`invariant_failures` for one rule set, with the memo described above."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self._components = (*(tables.cubes_per_good for _ in GOODS), tables.coins)
        """Every good's cubes and the coins, in WEALTH_OF order."""
        self._stage = ""
        self._players: tuple[PlayerState, ...] = ()
        """The players' records last counted, in seat order."""
        self._wealth: list[tuple[int, ...]] = []
        """Their `holdings`, in the same order."""
        self._supply_due: tuple[int, ...] | None = None
        """What the supply must hold (WEALTH_OF order): the components less the players'
        holdings; None when that is below zero somewhere (the full count then reports)."""
        self._places: tuple[Any, ...] = ()
        self._board: MainBoard | None = None
        self._board_failures: list[str] = []
        self._placed: dict[str, int] = {}
        self._failures: list[str] = []
        self._stocks: tuple[int, ...] | None = None
        self._piece_failures: list[str] = []

    def forget(self) -> None:
        """Drop the memo: the next state is counted from nothing."""
        self._players = ()
        self._wealth = []
        self._supply_due = None
        self._places = ()
        self._board = None
        self._stocks = None

    def __call__(self, state: State, full: bool = False) -> list[str]:
        """Every broken invariant of the state (empty when sound); ``full``: nothing is taken
        from the memo. The memo is also dropped when the phase changes (``stage_of``)."""
        stage = stage_of(state)
        if full or stage != self._stage:
            self.forget()
            self._stage = stage
        supply = state.supply
        if supply.keys() != SUPPLY_KEYS:
            return [f"the supply must count exactly {', '.join(sorted(SUPPLY_KEYS))}"]
        players = tuple(state.players.values())
        workers_changed = self._count_players(players)
        # Goods cubes and coins: players plus supply hold every component. The supply holds
        # what it must (and nobody holds more than there is): sound; otherwise the full
        # count says which good or the coins are off.
        failures: list[str] = []
        if self._supply_due is None or WEALTH_OF(supply) != self._supply_due:
            failures += wealth_failures(self.tables, supply, players)
        # Pieces, bonus tiles and worker tiles: counted again when a part they are read
        # from is no longer the same object.
        places = TILE_PLACES(state)
        if workers_changed or places != self._places:
            if state.board is not self._board:
                self._board = state.board
                self._board_failures = board_failures(self.tables, state.board)
            self._placed, self._failures = placed_and_tiles(self.tables, state)
            self._failures[:0] = self._board_failures
            self._places = places
            self._stocks = None
        failures += self._failures
        # Pieces on the main board (and cover tiles on workers) plus the supply: recounted
        # when the pieces placed (above) or the supply's piece stocks changed.
        stocks = PIECES_OF(supply)
        if stocks != self._stocks:
            self._piece_failures = piece_failures(self.tables, self._placed, supply)
            self._stocks = stocks
        failures += self._piece_failures
        failures += turn_failures(self.tables, state)
        return failures

    def _count_players(self, players: tuple[PlayerState, ...]) -> bool:
        """Bring the players' holdings and what the supply must hold up to date (counting
        only the records that changed); whether any player's workers changed."""
        seen = self._players
        if len(players) != len(seen):
            self._players = players
            self._wealth = [holdings(p) for p in players]
            self._supply_due = supply_due(self._components, self._wealth)
            return True
        workers_changed = False
        for i, (new, old) in enumerate(zip(players, seen, strict=True)):
            if new is old:
                continue
            if new.workers is not old.workers:
                workers_changed = True
            if new.goods is not old.goods or new.coins != old.coins:
                self._wealth[i] = holdings(new)
                self._supply_due = supply_due(self._components, self._wealth)
        self._players = players
        return workers_changed


def supply_due(
    components: tuple[int, ...], wealth: Sequence[tuple[int, ...]]
) -> tuple[int, ...] | None:
    """What the supply must hold of each good and of the coins, given what every player
    holds; None if the players hold more than the game has of something."""
    due = components
    for held in wealth:
        due = tuple(map(operator.sub, due, held))
    return due if min(due) >= 0 else None


def wealth_failures(
    tables: Tables, supply: dict[str, int], players: Sequence[PlayerState]
) -> list[str]:
    """Goods cubes and coins: players plus supply hold every component (one pass over the
    players, each good's count read in GOODS order), and the supply holds none below zero."""
    failures: list[str] = []
    totals = list(GOODS_OF(supply))
    coins = supply[COIN]
    for p in players:
        totals = list(map(operator.add, totals, GOODS_OF(p.goods)))
        coins += p.coins
    for good, total in zip(GOODS, totals, strict=True):
        if total != tables.cubes_per_good or supply[good] < 0:
            failures.append(f"{good}: {total} cubes in play, the game has {tables.cubes_per_good}")
    if coins != tables.coins or supply[COIN] < 0:
        failures.append(f"coins: {coins} in play, the game has {tables.coins}")
    return failures


def turn_failures(tables: Tables, state: State) -> list[str]:
    """Turn bookkeeping: a player to act who is in the game, at most two moves a turn, and
    no Castle tax or bonus claim left open at the end."""
    failures: list[str] = []
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
    """Pieces in play by kind, and the failures of the bonus-tile and worker-tile counts
    (the board's own checks are `board_failures`, made only when the board changed)."""
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
