"""Shared test position builders for Milestones: the digest's fixture map T1 and explicit tiles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from reference.core.game import step
from reference.milestones import make
from reference.milestones.engine import MilestonesGame
from reference.milestones.events import DraftWorkerTile, DrawWorkerTile, RevealBonusTile
from reference.milestones.state import State

T1_MAP = {
    "rows": ["M 2 3 1 4", "1 5 2 3 1", "4 2 5 1 3"],
    "bushes": ["U1,0", "D2,1"],
}
"""Digest section 9 fixture map T1; bush U1,0 gets a lumberjack bonus, D2,1 a quarryman."""

TILES = {
    "T01": [["lumberjack", 2], ["quarryman", 3]],
    "T02": [["lumberjack", 5], ["sand_worker", 6]],
    "T03": [["coiner", 1], ["grain_grower", 4]],
    "T04": [["grain_grower", 1], ["grain_grower", 2]],
    "T05": [["sand_worker", 3], ["quarryman", 4]],
    "T06": [["coiner", 2], ["coiner", 3]],
    "T07": [["quarryman", 5], ["lumberjack", 6]],
    "T08": [["sand_worker", 7], ["grain_grower", 8]],
    "T09": [["coiner", 4], ["quarryman", 5]],
    "T10": [["lumberjack", 6], ["sand_worker", 7]],
    "T11": [["grain_grower", 3], ["coiner", 6]],
    "T12": [["quarryman", 7], ["lumberjack", 8]],
    "T13": [["sand_worker", 1], ["grain_grower", 2]],
    "T14": [["coiner", 7], ["lumberjack", 8]],
}

PROFILE: dict[str, Any] = {
    "board.map": T1_MAP,
    "tiles.bonus_tiles": {"lumberjack": 1, "quarryman": 1},
    "tiles.worker_tiles": TILES,
    "prices.road": {"stone": 1, "sand": 1},
    "prices.house": {"wood": 1, "stone": 1, "sand": 1},
    "prices.marketplace": {"wood": 1, "stone": 2},
    "prices.flour": {"grain": 1},
    "scoring.end_vp": {2: 40, 3: 35, 4: 30},
}


def t1_game(**options: Any) -> MilestonesGame:
    """The game on map T1 with the fixture tiles and explicit costs."""
    return make({"profile": PROFILE, **options})


def set_up(
    game: MilestonesGame,
    players: Sequence[str],
    display: Sequence[str],
    pool: Sequence[str],
    picks: Sequence[tuple[str, str]],
    bonus: Sequence[str] = ("lumberjack", "quarryman"),
) -> State:
    """Play the setup: reveal `bonus` in bush order, draw `display` then `pool`, then draft
    `picks` as (tile, space) in draft order."""
    state = game.new_game(players)
    for bush, kind in zip(game.tables.geometry.bushes, bonus, strict=True):
        state = step(game, state, RevealBonusTile(bush, kind))
    for tile in (*display, *pool):
        state = step(game, state, DrawWorkerTile(tile))
    for tile, space in picks:
        state = step(game, state, DraftWorkerTile(game.to_act(state), tile, space))
    return state


def standard(game: MilestonesGame | None = None) -> tuple[MilestonesGame, State]:
    """Two players a and b on T1: a has W1=LJ2 W2=QM3 W3=LJ5 W4=SW6, b has GG1 GG2 SW3 QM4."""
    game = game or t1_game()
    state = set_up(
        game,
        ("a", "b"),
        display=("T06", "T07", "T08", "T09", "T10"),
        pool=("T01", "T02", "T03", "T04", "T05"),
        picks=(("T04", "W1"), ("T05", "W3"), ("T01", "W1"), ("T02", "W3")),
    )
    return game, state


def give(state: State, name: str, **items: int) -> State:
    """Move goods/coins from the supply to a player (keeps everything conserved)."""
    player = state.players[name]
    supply = dict(state.supply)
    goods = dict(player.goods)
    coins = player.coins
    for item, n in items.items():
        if item == "coin":
            coins += n
        else:
            goods[item] += n
        supply[item] -= n
    players = dict(state.players)
    players[name] = attrs.evolve(player, goods=goods, coins=coins)
    return attrs.evolve(state, players=players, supply=supply)


def at(state: State, name: str, position: str, moves_made: int = 1) -> State:
    """Put the player's pawn on `position` having made `moves_made` moves this turn."""
    players = dict(state.players)
    players[name] = attrs.evolve(players[name], position=position)
    return attrs.evolve(state, players=players, current=name, moves_made=moves_made)
