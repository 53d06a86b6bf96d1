"""The engine's own soundness checks, run after every event: everything is conserved."""

from __future__ import annotations

from reference.milestones.names import COIN, DRAFT, GOODS, KINDS, LEFT, OVER, RIGHT, TURNS
from reference.milestones.state import State
from reference.milestones.tables import Tables


def invariant_failures(tables: Tables, state: State) -> list[str]:
    """Every broken invariant of the state (empty when sound)."""
    failures: list[str] = []
    players = state.players.values()
    # Goods cubes and coins: players plus supply hold every component.
    for good in GOODS:
        total = state.supply[good] + sum(p.goods[good] for p in players)
        if total != tables.cubes_per_good or state.supply[good] < 0:
            failures.append(f"{good}: {total} cubes in play, the game has {tables.cubes_per_good}")
    coins = state.supply[COIN] + sum(p.coins for p in players)
    if coins != tables.coins or state.supply[COIN] < 0:
        failures.append(f"coins: {coins} in play, the game has {tables.coins}")
    # Pieces on the main board plus the supply.
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
    on_boards: dict[str, list[str]] = {}
    for p in players:
        for worker in p.workers.values():
            if worker is None:
                continue
            placed["cover_tiles"] += worker.covered
            if worker.bonus:
                bonus_on_workers.append(worker.kind)
            on_boards.setdefault(worker.tile, []).append(worker.half)
    for piece, n in placed.items():
        if n + state.supply[piece] != tables.pieces[piece] or state.supply[piece] < 0:
            failures.append(f"{piece}: {n} placed + {state.supply[piece]} in supply")
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
    # Worker tiles: each lies in exactly one place, or its halves on boards / out of play.
    for half in state.discarded_workers:
        tile, _, side = half.partition(".")
        on_boards.setdefault(tile, []).append(side)
    loose = state.draw_pile + state.display + state.draft_pool + state.removed_tiles
    if len(loose) != len(set(loose)):
        failures.append("a worker tile lies in two places")
    for tile in tables.worker_tiles:
        halves = sorted(on_boards.get(tile, []))
        if tile in loose:
            if halves:
                failures.append(f"worker tile {tile} is both loose and on a player board")
        elif halves != [LEFT, RIGHT]:
            failures.append(f"worker tile {tile}: halves {halves} accounted for")
    if len(loose) + len(on_boards) != len(tables.worker_tiles):
        failures.append("worker tiles appear that the game does not have")
    # Turn bookkeeping.
    if state.phase in (DRAFT, TURNS) and state.current not in state.players:
        failures.append(f"the player to act {state.current!r} is not in the game")
    if state.moves_made > tables.moves_per_turn:
        failures.append(f"{state.moves_made} moves made in one turn")
    if state.phase == OVER and (state.returns_due or state.cover_due or state.pending_bonus):
        failures.append("the game ended with a Castle tax or a bonus claim open")
    return failures
