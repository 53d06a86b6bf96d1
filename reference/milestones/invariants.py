"""The engine's own soundness checks, run after every event: everything is conserved.

Most events change one player and the supply and leave the rest of the state untouched
(frozen values are shared between successive states by `attrs.evolve`), so
`InvariantChecker` keeps a memo of what it counted, by identity:

- the goods and coins each player holds (by the identity of the player's record): the
  supply must then hold exactly what the players do not, so after a move only the moving
  player is counted again and the supply compared with what it must hold (and not even
  that when the supply and the players' dict are the objects last counted: an end of turn);
- the checks over pieces, bonus tiles and worker tiles, made again only when a part they
  read is a new object, and then each part counted again only if it is new itself: the
  board's own checks (pieces on the map, nothing listed twice) when the board changed, a
  player's workers (as printed, covered, carrying a bonus tile) when that player's workers
  changed, the loose tiles (draw pile, display, draft pool, removed) when one of those
  changed, the workers out of play with any player's workers. A cover so counts one
  player's workers again, a draw only the loose tiles; what ties the parts together (each
  worker tile in one place, the bonus tiles by kind) is checked again from their counts.

The memo is dropped, so everything is counted from nothing, when the phase changes (the
game's end among them) and on every state when the rule set checks in full
(``full_checks``, on in the test suite).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, NamedTuple

from reference.milestones.board import edge
from reference.milestones.names import COIN, DRAFT, GOODS, ITEMS, KINDS, LEFT, OVER, PIECES, TURNS
from reference.milestones.state import MainBoard, PlayerState, State, Worker
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
"""The parts of the state besides the players' workers that the tile counts read."""
LOOSE_PLACES = operator.attrgetter("draw_pile", "display", "draft_pool", "removed_tiles")
"""Where a worker tile lies loose (not yet two workers on a player board)."""


def holdings(player: PlayerState) -> tuple[int, ...]:
    """A player's goods (in GOODS order) and coins."""
    return (*GOODS_OF(player.goods), player.coins)


class Crew(NamedTuple):
    """One player's workers as the piece, bonus-tile and worker-tile counts read them."""

    misprinted: list[str]
    """The failures of workers not as printed on their tile."""
    covers: int
    """Cover tiles lying on the workers."""
    bonus_kinds: tuple[str, ...]
    """The kind of each worker carrying a bonus tile."""
    halves: tuple[str, ...]
    """Each worker as "T07.left"."""


class BoardCount(NamedTuple):
    """The main board as the checks read it."""

    map_failures: list[str]
    """`board_failures`: pieces off the map."""
    listing_failures: list[str]
    """A road or a house listed twice, a flour sack without its marketplace."""
    placed: dict[str, int]
    """The pieces standing on it, by kind (cover tiles lie on workers: not here)."""
    bonus: dict[str, int]
    """The face-up bonus tiles on it, by kind."""


class Tally(NamedTuple):
    """A list of worker tiles (the loose ones) or of workers (on boards or out of play)."""

    size: int
    """How many are listed."""
    repeated: bool
    """One is listed twice."""
    tiles: set[str]
    """The worker tiles they are (or are halves of)."""
    unknown: bool
    """One of those tiles is not in the game."""


class InvariantChecker:
    """`invariant_failures` for one rule set, with the memo described above."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self._components = (*(tables.cubes_per_good for _ in GOODS), tables.coins)
        """Every good's cubes and the coins, in WEALTH_OF order."""
        self._stage = ""
        self._supply: dict[str, int] | None = None
        """The supply last counted (its keys are the supply's, checked)."""
        self._wealth_failures: list[str] = []
        """The goods and coins failures of that supply and the players counted."""
        self._roster: dict[str, PlayerState] | None = None
        """The players' dict last counted (a state that shares it changed no player)."""
        self._players: tuple[PlayerState, ...] = ()
        """The players' records last counted, in seat order."""
        self._wealth: list[tuple[int, ...]] = []
        """Their `holdings`, in the same order."""
        self._crews: list[Crew] = []
        """Their workers as `crew_of` reads them, in the same order."""
        self._supply_due: tuple[int, ...] | None = None
        """What the supply must hold (WEALTH_OF order): the components less the players'
        holdings; None when that is below zero somewhere (the full count then reports)."""
        self._places: tuple[Any, ...] = ()
        self._board: MainBoard | None = None
        self._board_count = BoardCount([], [], {}, {})
        self._loose_places: tuple[tuple[str, ...], ...] = ()
        self._loose = Tally(0, False, set(), False)
        self._discarded: tuple[str, ...] | None = None
        self._halves = Tally(0, False, set(), False)
        self._placed: dict[str, int] = {}
        self._failures: list[str] = []
        self._stocks: tuple[int, ...] | None = None
        self._piece_failures: list[str] = []

    def forget(self) -> None:
        """Drop the memo: the next state is counted from nothing."""
        self._supply = None
        self._roster = None
        self._players = ()
        self._wealth = []
        self._crews = []
        self._supply_due = None
        self._places = ()
        self._board = None
        self._loose_places = ()
        self._discarded = None
        self._stocks = None

    def __call__(self, state: State, full: bool = False) -> list[str]:
        """Every broken invariant of the state (empty when sound); ``full``: nothing is taken
        from the memo. The memo is also dropped when the phase changes (``stage_of``)."""
        stage = stage_of(state)
        if full or stage != self._stage:
            self.forget()
            self._stage = stage
        supply = state.supply
        new_supply = supply is not self._supply
        if new_supply and supply.keys() != SUPPLY_KEYS:
            self._supply = None
            return [f"the supply must count exactly {', '.join(sorted(SUPPLY_KEYS))}"]
        new_roster = state.players is not self._roster
        workers_changed = self._count_players(state.players)
        # Goods cubes and coins: players plus supply hold every component. The supply holds
        # what it must (and nobody holds more than there is): sound; otherwise the full
        # count says which good or the coins are off. The same supply and players' dict as
        # the last state: the same verdict.
        if new_supply or new_roster:
            self._supply = supply
            due = self._supply_due
            self._wealth_failures = (
                []
                if due is not None and WEALTH_OF(supply) == due
                else wealth_failures(self.tables, supply, self._players)
            )
        failures = list(self._wealth_failures)
        # Pieces, bonus tiles and worker tiles: checked again when a part they are read
        # from is no longer the same object.
        places = TILE_PLACES(state)
        if workers_changed or places != self._places:
            self._failures = self._tile_failures(state, workers_changed)
            self._places = places
            self._stocks = None
        failures += self._failures
        # Pieces on the main board (and cover tiles on workers) plus the supply: recounted
        # when the pieces placed (above) or the supply's piece stocks changed (only a new
        # supply can hold other stocks).
        if new_supply or self._stocks is None:
            stocks = PIECES_OF(supply)
            if stocks != self._stocks:
                self._piece_failures = piece_failures(self.tables, self._placed, supply)
                self._stocks = stocks
        failures += self._piece_failures
        failures += turn_failures(self.tables, state)
        return failures

    def _count_players(self, roster: dict[str, PlayerState]) -> bool:
        """Bring the players' holdings, what the supply must hold and the players' crews up
        to date (counting only the records that changed, none when the state shares the
        players' dict with the last one); whether any player's workers changed."""
        if roster is self._roster:
            return False
        self._roster = roster
        players = tuple(roster.values())
        seen = self._players
        if len(players) != len(seen):
            self._players = players
            self._wealth = [holdings(p) for p in players]
            self._supply_due = supply_due(self._components, self._wealth)
            self._crews = [crew_of(self.tables, p.workers) for p in players]
            return True
        workers_changed = False
        for i, (new, old) in enumerate(zip(players, seen, strict=True)):
            if new is old:
                continue
            if new.workers is not old.workers:
                workers_changed = True
                self._crews[i] = crew_of(self.tables, new.workers)
            if new.goods is not old.goods or new.coins != old.coins:
                self._wealth[i] = holdings(new)
                self._supply_due = supply_due(self._components, self._wealth)
        self._players = players
        return workers_changed

    def _tile_failures(self, state: State, workers_changed: bool) -> list[str]:
        """The failures of the board, bonus-tile and worker-tile counts, and the pieces
        placed (kept for `piece_failures`). Each part is counted again only when what it
        reads is a new object (the players' crews are already up to date); what ties the
        parts together is checked from their counts."""
        tables = self.tables
        board = state.board
        if board is not self._board:
            self._board = board
            self._board_count = count_board(tables, board)
        loose = LOOSE_PLACES(state)
        if loose != self._loose_places:
            self._loose_places = loose
            self._loose = loose_tally(tables, loose)
        if workers_changed or state.discarded_workers is not self._discarded:
            self._discarded = state.discarded_workers
            self._halves = halves_tally(tables, state.discarded_workers, self._crews)
        crews = self._crews
        board_count = self._board_count
        self._placed = {**board_count.placed, "cover_tiles": sum(c.covers for c in crews)}
        failures = list(board_count.map_failures)
        for crew in crews:
            failures += crew.misprinted
        failures += board_count.listing_failures
        failures += bonus_failures(tables, state, board_count.bonus, crews)
        failures += worker_tile_failures(tables, self._loose, self._halves)
        return failures


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


def crew_of(tables: Tables, workers: dict[str, Worker | None]) -> Crew:
    """One player's workers as the counts read them: each as printed on its tile (else a
    failure), the cover tiles and bonus tiles on them, each worker's name."""
    misprinted: list[str] = []
    covers = 0
    bonus_kinds: list[str] = []
    halves: list[str] = []
    for worker in workers.values():
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
            misprinted.append(f"worker {worker.tile}.{worker.half} is not as printed: {printed}")
        covers += worker.covered
        if worker.bonus:
            bonus_kinds.append(worker.kind)
        halves.append(f"{worker.tile}.{worker.half}")
    return Crew(misprinted, covers, tuple(bonus_kinds), tuple(halves))


def count_board(tables: Tables, board: MainBoard) -> BoardCount:
    """The main board's own checks, its pieces by kind and its bonus tiles by kind."""
    listing: list[str] = []
    if len(set(board.roads)) != len(board.roads) or len(set(board.houses)) != len(board.houses):
        listing.append("a road edge or a house triangle is listed twice")
    if not set(board.flour) <= set(board.marketplaces):
        listing.append("a flour sack lies where no marketplace stands")
    placed = {
        "road_pieces": len(board.roads),
        "milestones": len(board.milestones),
        "houses": len(board.houses),
        "marketplaces": len(board.marketplaces),
        "flour_sacks": len(board.flour),
    }
    bonus = dict.fromkeys(KINDS, 0)
    for kind in board.bonus_tiles.values():
        if kind in bonus:
            bonus[kind] += 1
    return BoardCount(board_failures(tables, board), listing, placed, bonus)


def bonus_failures(
    tables: Tables, state: State, on_board: dict[str, int], crews: Sequence[Crew]
) -> list[str]:
    """Bonus tiles: face down, on the board, on workers or out of play, by kind."""
    failures: list[str] = []
    on_workers = [kind for crew in crews for kind in crew.bonus_kinds]
    for kind in KINDS:
        n = (
            state.bonus_pool.get(kind, 0)
            + on_board[kind]
            + on_workers.count(kind)
            + state.discarded_bonus.count(kind)
        )
        if n != tables.bonus_tiles[kind]:
            failures.append(f"{kind} bonus tiles: {n}, the game has {tables.bonus_tiles[kind]}")
    return failures


def loose_tally(tables: Tables, places: Sequence[tuple[str, ...]]) -> Tally:
    """The loose worker tiles: draw pile, display, draft pool and removed tiles."""
    loose = [tile for place in places for tile in place]
    tiles = set(loose)
    return Tally(
        len(loose), len(tiles) != len(loose), tiles, not tiles <= tables.worker_tiles.keys()
    )


def halves_tally(tables: Tables, discarded: tuple[str, ...], crews: Sequence[Crew]) -> Tally:
    """The workers on player boards and out of play, and the worker tiles they are halves of."""
    halves = list(discarded)
    for crew in crews:
        halves += crew.halves
    tiles = {h.partition(".")[0] for h in halves}
    return Tally(
        len(halves), len(set(halves)) != len(halves), tiles, not tiles <= tables.worker_tiles.keys()
    )


def worker_tile_failures(tables: Tables, loose: Tally, halves: Tally) -> list[str]:
    """Worker tiles: each lies in exactly one loose place, or both its workers are on player
    boards or out of play. Halves are unique, none belongs to a loose tile, and there are
    exactly two per tile that is not loose, so every such tile is fully accounted for."""
    failures: list[str] = []
    if loose.repeated or halves.repeated:
        failures.append("a worker tile or a worker lies in two places")
    if not halves.tiles.isdisjoint(loose.tiles):
        failures.append("a worker tile is both loose and on a player board")
    if loose.unknown or halves.unknown:
        failures.append("worker tiles appear that the game does not have")
    if halves.size != 2 * (len(tables.worker_tiles) - len(loose.tiles)):
        failures.append(f"{halves.size} workers on boards or out of play, {loose.size} tiles loose")
    return failures


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
