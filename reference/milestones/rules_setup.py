"""Setup: start marketplace, bonus-tile reveal, display, draft pool and the draft."""

from __future__ import annotations

from collections.abc import Sequence

from reference.core.errors import BadOptions, RuleViolation
from reference.core.state import taken
from reference.core.stock import Stock, take
from reference.milestones.common import noted, with_player
from reference.milestones.events import DraftWorkerTile, DrawWorkerTile, RevealBonusTile
from reference.milestones.names import (
    CASTLE,
    COIN,
    DRAFT,
    LEFT,
    PIECES,
    RIGHT,
    SETUP,
    TILE_SPACES,
    TURNS,
    WORKER_SPACES,
)
from reference.milestones.state import (
    MainBoard,
    PlayerState,
    State,
    Worker,
    evolve,
    no_goods,
    no_workers,
)
from reference.milestones.tables import Tables


def new_game(tables: Tables, players: Sequence[str]) -> State:
    """The position before the first chance event: everything in the supply and the boxes."""
    n = len(players)
    needed = tables.display_size + tables.draft_pool[n]
    if len(tables.worker_tiles) < needed:
        raise BadOptions(
            f"data tiles.worker_tiles: {len(tables.worker_tiles)} tiles, but setup for {n} "
            f"players needs {needed}"
        )
    # MIL-SETUP-03: every player starts with the pawn on the Castle, 0 points and one coin.
    board_players = {
        name: PlayerState(
            position=CASTLE, coins=tables.start_coins, goods=no_goods(), vp=0, workers=no_workers()
        )
        for name in players
    }
    # MIL-COMP-02, MIL-BUILD-02: the supply holds every component (an unlimited one stays
    # unlimited: reference/core/stock.py).
    supply: dict[str, Stock] = dict(tables.cubes_per_good)
    supply[COIN] = take(tables.coins, n * tables.start_coins)[1]
    for piece in PIECES:
        supply[piece] = tables.pieces[piece]
    # MIL-SETUP-01: the start marketplace stands on the market tent.
    supply["marketplaces"] = take(supply["marketplaces"], 1)[1]
    board = MainBoard(marketplaces=(tables.geometry.start,))
    return State(
        phase=SETUP,
        players=board_players,
        current="",
        board=board,
        supply=supply,
        bonus_pool=dict(tables.bonus_tiles),
        draw_pile=tuple(tables.worker_tiles),
        display=(),
        draft_pool=(),
    )


def next_bush(tables: Tables, state: State) -> str | None:
    """The bush triangle whose bonus tile is revealed next, or None when all lie face up."""
    revealed = sum(tables.bonus_tiles.values()) - sum(state.bonus_pool.values())
    if revealed >= len(tables.geometry.bushes):
        return None
    return tables.geometry.bushes[revealed]


def reveal_bonus_tile(tables: Tables, state: State, event: RevealBonusTile) -> State:
    """A bonus tile is turned face up on the next bush triangle."""
    bush = next_bush(tables, state)
    # MIL-SETUP-02: the bonus tiles lie face up on the bush triangles, one each, at setup.
    if state.phase != SETUP or bush is None:
        raise RuleViolation("MIL-SETUP-02", "every bush triangle already has its bonus tile")
    if event.triangle != bush:
        raise RuleViolation("MIL-SETUP-02", f"the next bush triangle to reveal is {bush}")
    if state.bonus_pool.get(event.kind, 0) <= 0:
        raise RuleViolation("MIL-SETUP-02", f"no face-down {event.kind} bonus tile is left")
    pool = taken(state.bonus_pool, {event.kind: 1})
    tiles = dict(state.board.bonus_tiles)
    tiles[bush] = event.kind
    board = evolve(state.board, bonus_tiles=tiles)
    return evolve(state, bonus_pool=pool, board=board)


def draw_due(tables: Tables, state: State) -> bool:
    """Whether the next chance event is a worker-tile draw."""
    if state.phase == SETUP:
        return next_bush(tables, state) is None
    return state.refill_due


def draw_worker_tile(tables: Tables, state: State, event: DrawWorkerTile) -> State:
    """A tile from the face-down pile goes to the display (or, at setup, the draft pool)."""
    # MIL-SETUP-04: tiles come from the face-down pile, and only when a draw is due.
    if not draw_due(tables, state):
        raise RuleViolation("MIL-SETUP-04", "no worker tile is to be drawn now")
    if event.tile not in state.draw_pile:
        raise RuleViolation("MIL-SETUP-04", f"worker tile {event.tile} is not in the draw pile")
    pile = tuple(t for t in state.draw_pile if t != event.tile)
    if state.phase == TURNS:
        # MIL-TRADE-04: after the visit the display is refilled to its size from the pile.
        display = (*state.display, event.tile)
        done = len(display) >= tables.display_size or not pile
        return evolve(state, draw_pile=pile, display=display, refill_due=not done)
    if len(state.display) < tables.display_size:
        return evolve(state, draw_pile=pile, display=(*state.display, event.tile))
    pool = (*state.draft_pool, event.tile)
    state = evolve(state, draw_pile=pile, draft_pool=pool)
    if len(pool) >= tables.draft_pool[len(state.players)]:
        seats = list(state.players)
        state = evolve(state, phase=DRAFT, current=seats[-1])
    return state


def place_tile(tables: Tables, player: PlayerState, tile_id: str, space: str) -> PlayerState:
    """The player board with tile `tile_id` laid on `space` and the space to its right."""
    tile = tables.worker_tiles[tile_id]
    workers = dict(player.workers)
    i = WORKER_SPACES.index(space)
    workers[space] = Worker(tile.left_kind, tile.left_number, tile_id, LEFT)
    workers[WORKER_SPACES[i + 1]] = Worker(tile.right_kind, tile.right_number, tile_id, RIGHT)
    return evolve(player, workers=workers)


def drafter(tables: Tables, players: Sequence[str], picks: int) -> str:
    """Who makes draft pick number `picks`: from the start player's right, anticlockwise."""
    return players[len(players) - 1 - picks // tables.draft_take]


def draft_worker_tile(tables: Tables, state: State, event: DraftWorkerTile) -> State:
    """Take a tile from the draft pool and lay it on the player board."""
    # MIL-SETUP-05: in the draft each player takes two tiles from the pool, start player last.
    if state.phase != DRAFT:
        raise RuleViolation("MIL-SETUP-05", "worker tiles are drafted only during setup")
    if event.tile not in state.draft_pool:
        raise RuleViolation("MIL-SETUP-05", f"worker tile {event.tile} is not in the draft pool")
    player = state.players[event.player]
    # MIL-SETUP-06: a drafted tile lies on two adjacent empty worker spaces.
    if event.space not in TILE_SPACES:
        raise RuleViolation("MIL-SETUP-06", f"a tile's left half lies on W1..W7, not {event.space}")
    right = WORKER_SPACES[WORKER_SPACES.index(event.space) + 1]
    if player.workers[event.space] is not None or player.workers[right] is not None:
        raise RuleViolation("MIL-SETUP-06", f"{event.space} and {right} must both be empty")
    state = with_player(state, event.player, place_tile(tables, player, event.tile, event.space))
    pool = tuple(t for t in state.draft_pool if t != event.tile)
    picks = state.picks + 1
    seats = list(state.players)
    if picks < len(seats) * tables.draft_take:
        current = drafter(tables, seats, picks)
        return evolve(state, draft_pool=pool, picks=picks, current=current)
    # MIL-SETUP-07: the tile left over from the draft goes out of the game.
    done = evolve(
        state,
        draft_pool=(),
        removed_tiles=(*state.removed_tiles, *pool),
        picks=picks,
        phase=TURNS,
        current=seats[0],
        moves_made=0,
    )
    if tables.recorder is not None:
        # The last pick (MIL-SETUP-05), then the leftover tile leaves the game.
        noted(
            tables, "MIL-SETUP-05", evolve(done, draft_pool=pool, removed_tiles=state.removed_tiles)
        )
        why = f"{', '.join(pool)} left over: out of the game"
        noted(tables, "MIL-SETUP-07", done, ("draft_pool", "removed_tiles"), why)
    return done
