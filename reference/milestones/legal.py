"""Every legal event of a position, in a stable order (must agree exactly with the handlers)."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import Any

from reference.core.game import CHANCE
from reference.core.stock import holds
from reference.milestones.board import edge
from reference.milestones.common import can_pay, uncovered
from reference.milestones.events import (
    BuildHouse,
    BuildMarketplace,
    BuildRoad,
    BuyGood,
    ClaimBonus,
    CoverWorker,
    DeliverFlour,
    DraftWorkerTile,
    DrawWorkerTile,
    EndTurn,
    HireWorkerTile,
    Move,
    ReturnToSupply,
    RevealBonusTile,
    SellGoods,
)
from reference.milestones.names import (
    BOARD_OF_WORKS,
    COIN,
    DRAFT,
    GOODS,
    ITEMS,
    KINDS,
    MILL,
    OVER,
    SETUP,
    TILE_SPACES,
    TRADING_HOUSE,
    TURNS,
    WORKER_SPACES,
)
from reference.milestones.rules_building import (
    eligible_spaces,
    flour_choices,
    is_covered,
    road_points,
)
from reference.milestones.rules_setup import draw_due, next_bush
from reference.milestones.rules_turn import step_limit
from reference.milestones.state import MainBoard, PlayerState, State
from reference.milestones.tables import Tables


def to_act(tables: Tables, state: State) -> str:
    """The player to act, CHANCE for a reveal or draw, or "" when the game is over."""
    if state.phase == OVER:
        return ""
    if state.phase == SETUP or state.refill_due:
        return CHANCE
    return state.current


def legal_events(tables: Tables, state: State) -> list[Any]:
    """Every legal event here, in a stable order."""
    if state.phase == OVER:
        return []
    if to_act(tables, state) == CHANCE:
        return [event for event, _ in _chance_outcomes(tables, state)]
    return player_events(tables, state)


def chance_outcomes(tables: Tables, state: State) -> list[tuple[Any, float]]:
    """Each chance outcome with its probability (empty when a player acts)."""
    if to_act(tables, state) != CHANCE:
        return []
    return _chance_outcomes(tables, state)


def _chance_outcomes(tables: Tables, state: State) -> list[tuple[Any, float]]:
    if state.phase == SETUP:
        bush = next_bush(tables, state)
        if bush is not None:
            total = sum(state.bonus_pool.values())
            return [
                (RevealBonusTile(bush, kind), state.bonus_pool[kind] / total)
                for kind in KINDS
                if state.bonus_pool.get(kind, 0) > 0
            ]
    if draw_due(tables, state) and state.draw_pile:
        p = 1 / len(state.draw_pile)
        return [(DrawWorkerTile(tile), p) for tile in state.draw_pile]
    return []


def player_events(tables: Tables, state: State) -> list[Any]:
    """Every legal action of the player to act."""
    name = state.current
    player = state.players[name]
    if state.phase == DRAFT:
        free = [
            s
            for i, s in enumerate(TILE_SPACES)
            if player.workers[s] is None and player.workers[WORKER_SPACES[i + 1]] is None
        ]
        return [DraftWorkerTile(name, t, s) for t in state.draft_pool for s in free]
    if state.phase != TURNS:
        return []
    if state.returns_due or state.cover_due:
        return castle_events(state, name, player)
    if state.pending_bonus:
        return [
            ClaimBonus(name, t, s)
            for t in state.pending_bonus
            for s in eligible_spaces(player, state.board.bonus_tiles[t])
        ]
    events: list[Any] = []
    if state.moves_made:
        if player.position == TRADING_HOUSE:
            events += trading_events(tables, state, name, player)
        elif player.position == BOARD_OF_WORKS:
            events += works_events(tables, state, name, player)
        elif player.position == MILL:
            events += mill_events(tables, state, name, player)
    if state.moves_made < tables.moves_per_turn:
        events += [Move(name, d) for d in range(1, step_limit(player.position) + 1)]
    else:
        events.append(EndTurn(name))
    return events


def castle_events(state: State, name: str, player: PlayerState) -> list[Any]:
    """The Castle tax still owed: give back a good or coin, cover a worker."""
    events: list[Any] = []
    if state.returns_due:
        events += [
            ReturnToSupply(name, item)
            for item in ITEMS
            if (player.coins if item == COIN else player.goods[item]) > 0
        ]
    if state.cover_due:
        events += [CoverWorker(name, s) for s, _ in uncovered(player.workers)]
    return events


def trading_events(tables: Tables, state: State, name: str, player: PlayerState) -> list[Any]:
    """Hire, buy and sell at the Trading House."""
    events: list[Any] = []
    if can_pay(player, tables.worker_tile_cost):
        events += [HireWorkerTile(name, t, s) for t in state.display for s in TILE_SPACES]
    if can_pay(player, tables.buy_good_cost):
        events += [BuyGood(name, g) for g in GOODS if holds(state.supply[g], 1)]
    if holds(state.supply[COIN], 1):
        held = [g for g in GOODS if player.goods[g] > 0]
        for combo in combinations_with_replacement(held, tables.sell_goods_per_coin):
            if all(player.goods[g] >= combo.count(g) for g in combo):
                events.append(SellGoods(name, combo))
    return events


def road_events(tables: Tables, board: MainBoard, name: str) -> list[Any]:
    """Every legal road placement."""
    geometry = tables.geometry
    touched = road_points(board)
    starts = list(board.marketplaces) + [e for e in board.road_ends if e not in board.marketplaces]
    events: list[Any] = []
    for start in starts:
        origin = start if start in board.marketplaces else board.road_ends[start]
        for mid in geometry.neighbours[start]:
            if geometry.values[mid] is None or is_covered(board, mid) or mid in touched:
                continue
            for end in geometry.neighbours[mid]:
                if end in (start, origin) or end in touched or end in board.marketplaces:
                    continue
                events.append(BuildRoad(name, start, mid, end))
    return events


def works_events(tables: Tables, state: State, name: str, player: PlayerState) -> list[Any]:
    """Roads, houses and marketplaces the player can pay for and place."""
    board = state.board
    supply = state.supply
    events: list[Any] = []
    if (
        can_pay(player, tables.costs["road"])
        and holds(supply["road_pieces"], 2)
        and holds(supply["milestones"], 1)
    ):
        events += road_events(tables, board, name)
    if can_pay(player, tables.costs["house"]) and holds(supply["houses"], 1):
        roads = set(board.roads)
        for tri, (a, b, c) in tables.geometry.triangles.items():
            if tri in board.houses:
                continue
            if {edge(a, b), edge(b, c), edge(a, c)} & roads:
                events.append(BuildHouse(name, tri))
    if can_pay(player, tables.costs["marketplace"]) and holds(supply["marketplaces"], 1):
        values = tables.geometry.values
        for p in sorted(road_points(board)):
            if values[p] is not None and not is_covered(board, p):
                events.append(BuildMarketplace(name, p))
    return events


def mill_events(tables: Tables, state: State, name: str, player: PlayerState) -> list[Any]:
    """Flour deliveries the player can pay for."""
    if not can_pay(player, tables.costs["flour"]) or not holds(state.supply["flour_sacks"], 1):
        return []
    events: list[Any] = []
    for market in state.board.marketplaces:
        if market in state.board.flour:
            continue
        choices = flour_choices(tables, state.board, market)
        want = min(tables.flour_numbers_scored, len(choices))
        for combo in combinations(choices, want):
            events.append(DeliverFlour(name, market, combo))
    return events
