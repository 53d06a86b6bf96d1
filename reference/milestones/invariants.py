"""The engine's own soundness checks, run after every event: everything is conserved.

``invariant_failures`` counts every law in full. The rule set checks through
``InvariantChecker``, which gives the same answer with two shortcuts, each kept because it
buys more than 5% of a validation's CPU (shortcuts for the supply's keys, the board's own
checks, the loose tiles and workers out of play and the piece stocks bought less and were
removed; the figures are in the commit that removed them).
Most events change one player and the supply and leave the rest of the state untouched
(frozen values are shared between successive states by ``attrs.evolve``), so the checker
keeps, by identity, what it read from each player's record:

- the worker tiles: each player's workers as last read (``Crew``, by the identity of the
  player's workers dict); the tile laws (the board's own checks, the bonus tiles, the
  worker tiles) are checked again only when a player's workers or a place those laws read
  (``TILE_PLACES``) is a new object, else their last answer stands;
- the goods and coins: each player's holdings (by the identity of the player's goods and
  their coins); the supply must then hold exactly the components less what the players
  hold (``supply_due``), one comparison; when it does not, the law is counted in full.

The pieces placed (main board, cover tiles on workers) are counted with the tile laws, from
the same parts; the pieces law itself is checked on every state.

A supply a profile makes unlimited (null: reference/core/stock.py) has no count to
conserve: its count must be null in the state exactly when the game's is, and only the
players' holdings of it are counted (none below zero), as Pillars does; ``supply_due`` is
then null at that item, so the goods-and-coins shortcut gives the full count's answer there
too.

Every other law is counted in full on every state. A contract test compares the checker
with ``invariant_failures`` after every event of seeded play-outs and on states broken in
each part the shortcuts key on (tests/contract/test_invariant_shortcuts.py).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, cast

from reference.core.stock import Stock
from reference.milestones.board import edge
from reference.milestones.names import COIN, DRAFT, GOODS, ITEMS, KINDS, LEFT, OVER, PIECES, TURNS
from reference.milestones.state import MainBoard, PlayerState, State, Worker
from reference.milestones.tables import Tables

SUPPLY_KEYS = frozenset((*ITEMS, *PIECES))
GOODS_OF = operator.itemgetter(*GOODS)
"""The counts of the goods, in GOODS order, from a supply or a player's goods."""
WEALTH_OF = operator.itemgetter(*GOODS, COIN)
"""The supply's goods (in GOODS order) and coins: what ``holdings`` counts for a player."""
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
"""The parts of the state besides the players' workers that the tile laws read."""


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


def invariant_failures(tables: Tables, state: State) -> list[str]:
    """Every broken invariant of the state (empty when sound), every law counted in full:
    the supply's keys (nothing else is counted without them), goods and coins, the tile
    laws, the pieces, the turn bookkeeping."""
    if state.supply.keys() != SUPPLY_KEYS:
        return [KEYS_FAILURE]
    crews = [crew_of(tables, p.workers) for p in state.players.values()]
    return [
        *wealth_failures(tables, state.supply, state.players),
        *tile_failures(tables, state, crews),
        *piece_failures(tables, placed_pieces(state.board, crews), state.supply),
        *turn_failures(tables, state),
    ]


KEYS_FAILURE = f"the supply must count exactly {', '.join(sorted(SUPPLY_KEYS))}"


class InvariantChecker:
    """``invariant_failures`` for one rule set, with the shortcuts described above (one
    per rule set: its tables are the ones counted against)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self._components = (*(tables.cubes_per_good[good] for good in GOODS), tables.coins)
        """Every good's cubes and the coins, in WEALTH_OF order."""
        self._players: dict[str, PlayerState] | None = None
        """The players' dict last read (a state sharing it has the same records)."""
        self._records: list[PlayerState] = []
        """The players' records last read, in seat order."""
        self._crews: list[Crew] = []
        """Their workers as ``crew_of`` reads them, in the same order."""
        self._wealth: list[tuple[int, ...]] = []
        """Their ``holdings``, in the same order."""
        self._supply_due: tuple[Stock, ...] | None = None
        """What the supply must hold (WEALTH_OF order): the components less the players'
        holdings (null for an unlimited supply); None when that is below zero somewhere
        (the full count then reports)."""
        self._places: tuple[Any, ...] = ()
        """``TILE_PLACES`` of the last state whose tile laws were checked."""
        self._tiles: list[str] = []
        """The tile laws' failures there (``tile_failures``)."""
        self._placed: tuple[int, ...] = ()
        """The pieces placed there (``placed_pieces``)."""

    def __call__(self, state: State) -> list[str]:
        """Every broken invariant of the state (empty when sound), as
        ``invariant_failures`` finds them."""
        tables, supply = self.tables, state.supply
        if supply.keys() != SUPPLY_KEYS:
            return [KEYS_FAILURE]
        crews_changed = self._read_players(state.players)
        # Goods cubes and coins: the supply holds what it must (sound), or the full count
        # says which good or the coins are off.
        due = self._supply_due
        if due is not None and WEALTH_OF(supply) == due:
            failures: list[str] = []
        else:
            failures = wealth_failures(tables, supply, state.players)
        # The tile laws: checked again when a part they are read from is a new object.
        places = TILE_PLACES(state)
        if crews_changed or places != self._places:
            self._tiles = tile_failures(tables, state, self._crews)
            self._places = places
            self._placed = placed_pieces(state.board, self._crews)
        failures += self._tiles
        failures += piece_failures(tables, self._placed, supply)
        failures += turn_failures(tables, state)
        return failures

    def _read_players(self, players: dict[str, PlayerState]) -> bool:
        """Bring the crews and holdings up to date, reading only the records that changed
        (none when the state shares the players' dict with the last one); whether any
        player's crew changed."""
        if players is self._players:
            return False
        self._players = players
        records = list(players.values())
        if len(records) != len(self._records):
            self._records = records
            self._crews = [crew_of(self.tables, p.workers) for p in records]
            self._wealth = [holdings(p) for p in records]
            self._supply_due = supply_due(self._components, self._wealth)
            return True
        crews_changed = wealth_changed = False
        for i, (new, old) in enumerate(zip(records, self._records, strict=True)):
            if new is old:
                continue
            if new.workers is not old.workers:
                self._crews[i] = crew_of(self.tables, new.workers)
                crews_changed = True
            if new.goods is not old.goods or new.coins != old.coins:
                self._wealth[i] = holdings(new)
                wealth_changed = True
        if wealth_changed:
            self._supply_due = supply_due(self._components, self._wealth)
        self._records = records
        return crews_changed


def holdings(player: PlayerState) -> tuple[int, ...]:
    """A player's goods (in GOODS order) and coins."""
    return (*GOODS_OF(player.goods), player.coins)


def supply_due(
    components: tuple[Stock, ...], wealth: Sequence[tuple[int, ...]]
) -> tuple[Stock, ...] | None:
    """What the supply must hold of each good and of the coins, given what every player
    holds (null: an unlimited supply, which the players hold none below zero of); None if
    the players hold more than the game has of something."""
    if None in components:  # a profile made a supply unlimited
        return _unlimited_due(components, wealth)
    due = cast(tuple[int, ...], components)  # every supply limited
    for held in wealth:
        due = tuple(map(operator.sub, due, held))
    return due if min(due) >= 0 else None


def _unlimited_due(
    components: tuple[Stock, ...], wealth: Sequence[tuple[int, ...]]
) -> tuple[Stock, ...] | None:
    """``supply_due`` when some supply is unlimited: null there (the players holding none
    below zero of it), the components less the holdings elsewhere."""
    due: list[Stock] = []
    for i, in_game in enumerate(components):
        held = [h[i] for h in wealth]
        if in_game is None:
            if min(held, default=0) < 0:
                return None
            due.append(None)
        elif in_game - sum(held) < 0:
            return None
        else:
            due.append(in_game - sum(held))
    return tuple(due)


def wealth_failures(
    tables: Tables, supply: Mapping[str, Stock], players: dict[str, PlayerState]
) -> list[str]:
    """Goods cubes and coins: players plus supply hold every component, and the supply
    holds none below zero (an unlimited supply: see ``_unlimited_wealth_failures``)."""
    stone, wood, sand, grain, coins = (supply[item] for item in ITEMS)
    if (
        stone is None
        or wood is None
        or sand is None
        or grain is None
        or coins is None
        or None in tables.cubes_per_good.values()
        or tables.coins is None
    ):  # a profile made a supply unlimited (or the state claims one is)
        return _unlimited_wealth_failures(tables, supply, players)
    left, coins_left = (stone, wood, sand, grain), coins
    for p in players.values():
        goods = p.goods
        stone += goods["stone"]
        wood += goods["wood"]
        sand += goods["sand"]
        grain += goods["grain"]
        coins += p.coins
    failures: list[str] = []
    for good, total, stock in zip(GOODS, (stone, wood, sand, grain), left, strict=True):
        cubes = tables.cubes_per_good[good]
        if total != cubes or stock < 0:
            failures.append(f"{good}: {total} cubes in play, the game has {cubes}")
    if coins != tables.coins or coins_left < 0:
        failures.append(f"coins: {coins} in play, the game has {tables.coins}")
    return failures


def _unlimited_wealth_failures(
    tables: Tables, supply: Mapping[str, Stock], players: dict[str, PlayerState]
) -> list[str]:
    """``wealth_failures`` when some supply is unlimited: an item is unlimited in the
    supply exactly when the game's is (reference/core/stock.py); a limited item is counted
    and conserved as ever, of an unlimited one only the players' holdings are counted, none
    below zero."""
    failures: list[str] = []
    for item in ITEMS:
        in_game = tables.coins if item == COIN else tables.cubes_per_good[item]
        left = supply[item]
        label = "coins" if item == COIN else item
        held = [p.coins if item == COIN else p.goods[item] for p in players.values()]
        if (left is None) != (in_game is None):
            failures.append(f"{label}: the supply is unlimited only when the game's is")
        elif left is None or in_game is None:
            if min(held, default=0) < 0:
                failures.append(f"{label}: a player holds fewer than none")
        elif left + sum(held) != in_game or left < 0:
            total = left + sum(held)
            cubes = "" if item == COIN else " cubes"
            failures.append(f"{label}: {total}{cubes} in play, the game has {in_game}")
    return failures


def tile_failures(tables: Tables, state: State, crews: Sequence[Crew]) -> list[str]:
    """The tile laws: pieces on the map and listed once (the board's own checks), workers
    as printed, the bonus tiles by kind, each worker tile in exactly one place."""
    board = state.board
    failures = board_failures(tables, board)
    for crew in crews:
        failures += crew.misprinted
    failures += listing_failures(board)
    failures += bonus_failures(tables, state, crews)
    failures += worker_tile_failures(tables, state, crews)
    return failures


def placed_pieces(board: MainBoard, crews: Sequence[Crew]) -> tuple[int, ...]:
    """The pieces placed, in PIECES order: on the main board, and the cover tiles lying on
    workers."""
    return (
        len(board.roads),
        len(board.milestones),
        len(board.houses),
        len(board.marketplaces),
        len(board.flour),
        sum(crew.covers for crew in crews),
    )


def piece_failures(
    tables: Tables, placed: tuple[int, ...], supply: Mapping[str, Stock]
) -> list[str]:
    """Each kind of piece: the pieces placed plus the supply's stock make the game's count,
    the stock none below zero; an unlimited stock (null) is null exactly when the game's
    is, and has no count to make."""
    failures: list[str] = []
    for piece, n in zip(PIECES, placed, strict=True):
        stock, in_game = supply[piece], tables.pieces[piece]
        if stock is None or in_game is None:
            if (stock is None) != (in_game is None):
                failures.append(f"{piece}: the supply is unlimited only when the game's is")
        elif n + stock != in_game or stock < 0:
            failures.append(f"{piece}: {n} placed + {stock} in supply")
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


def listing_failures(board: MainBoard) -> list[str]:
    """Nothing listed twice on the main board; a flour sack only on a marketplace."""
    failures: list[str] = []
    if len(set(board.roads)) != len(board.roads) or len(set(board.houses)) != len(board.houses):
        failures.append("a road edge or a house triangle is listed twice")
    if not set(board.flour) <= set(board.marketplaces):
        failures.append("a flour sack lies where no marketplace stands")
    return failures


def bonus_failures(tables: Tables, state: State, crews: Sequence[Crew]) -> list[str]:
    """Bonus tiles: face down, on the board, on workers or out of play, by kind."""
    failures: list[str] = []
    on_board = list(state.board.bonus_tiles.values())
    on_workers = [kind for crew in crews for kind in crew.bonus_kinds]
    for kind in KINDS:
        n = (
            state.bonus_pool.get(kind, 0)
            + on_board.count(kind)
            + on_workers.count(kind)
            + state.discarded_bonus.count(kind)
        )
        if n != tables.bonus_tiles[kind]:
            failures.append(f"{kind} bonus tiles: {n}, the game has {tables.bonus_tiles[kind]}")
    return failures


def worker_tile_failures(tables: Tables, state: State, crews: Sequence[Crew]) -> list[str]:
    """Worker tiles: each lies in exactly one loose place (draw pile, display, draft pool,
    removed), or both its workers are on player boards or out of play. The workers are
    unique, none belongs to a loose tile, and there are exactly two per tile that is not
    loose, so every such tile is fully accounted for."""
    loose = [*state.draw_pile, *state.display, *state.draft_pool, *state.removed_tiles]
    halves = list(state.discarded_workers)
    for crew in crews:
        halves += crew.halves
    loose_tiles = set(loose)
    halves_tiles = {h.partition(".")[0] for h in halves}
    known = tables.worker_tiles.keys()
    failures: list[str] = []
    if len(loose_tiles) != len(loose) or len(set(halves)) != len(halves):
        failures.append("a worker tile or a worker lies in two places")
    if not halves_tiles.isdisjoint(loose_tiles):
        failures.append("a worker tile is both loose and on a player board")
    if not loose_tiles <= known or not halves_tiles <= known:
        failures.append("worker tiles appear that the game does not have")
    if len(halves) != 2 * (len(tables.worker_tiles) - len(loose_tiles)):
        failures.append(f"{len(halves)} workers on boards or out of play, {len(loose)} tiles loose")
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
