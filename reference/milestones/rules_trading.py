"""The Trading House: hire worker tiles, buy goods, sell goods."""

from __future__ import annotations

from reference.core.errors import RuleViolation
from reference.core.stock import holds, put_back
from reference.milestones.common import noted, pay, require_turn, transfer, with_player
from reference.milestones.events import BuyGood, HireWorkerTile, SellGoods
from reference.milestones.names import COIN, GOODS, TILE_SPACES, TRADING_HOUSE, WORKER_SPACES
from reference.milestones.rules_setup import place_tile
from reference.milestones.state import State, evolve
from reference.milestones.tables import Tables


def require_at(state: State, name: str, space: str, what: str) -> None:
    """The action belongs to `space`: the pawn must have landed there this turn."""
    require_turn(state, name)
    # MIL-MOVE-03: a building is used only by the pawn that landed on it this turn.
    if state.players[name].position != space or state.moves_made == 0:
        raise RuleViolation("MIL-MOVE-03", f"{what} needs {name}'s pawn to have landed on {space}")


def hire_worker_tile(tables: Tables, state: State, event: HireWorkerTile) -> State:
    """Pay for a tile from the display and lay it on two adjacent worker spaces."""
    require_at(state, event.player, TRADING_HOUSE, "hiring")
    # MIL-TRADE-02: a worker tile is hired from the display for two coins.
    if event.tile not in state.display:
        raise RuleViolation("MIL-TRADE-02", f"worker tile {event.tile} is not in the display")
    # MIL-TRADE-03: the tile lies on two adjacent worker spaces, over whatever lies there.
    if event.space not in TILE_SPACES:
        raise RuleViolation("MIL-TRADE-03", f"a tile's left half lies on W1..W7, not {event.space}")
    state = pay(state, event.player, tables.worker_tile_cost, "MIL-TRADE-02", "a worker tile")
    state = noted(tables, "MIL-TRADE-02", state)
    player = state.players[event.player]
    i = WORKER_SPACES.index(event.space)
    discarded = list(state.discarded_workers)
    bonus = list(state.discarded_bonus)
    covers = 0
    for space in (event.space, WORKER_SPACES[i + 1]):
        old = player.workers[space]
        if old is None:
            continue
        # MIL-BONUS-05: a built-over worker leaves play with its bonus tile.
        # MIL-TRADE-08: the cover tile of a built-over worker goes back to the supply.
        discarded.append(f"{old.tile}.{old.half}")
        if old.bonus:
            bonus.append(old.kind)
        if old.covered:
            covers += 1
    player = place_tile(tables, player, event.tile, event.space)
    display = tuple(t for t in state.display if t != event.tile)
    if tables.recorder is not None:
        laid = with_player(evolve(state, display=display), event.player, player)
        laid = noted(tables, "MIL-TRADE-03", laid)
        gone = {"discarded_workers": tuple(discarded), "discarded_bonus": tuple(bonus)}
        noted(tables, "MIL-BONUS-05", evolve(laid, **gone))
    supply = {**state.supply, "cover_tiles": put_back(state.supply["cover_tiles"], covers)}
    state = evolve(
        state,
        display=display,
        discarded_workers=tuple(discarded),
        discarded_bonus=tuple(bonus),
        supply=supply,
        hired=True,
    )
    state = with_player(state, event.player, player)
    if covers:
        state = noted(tables, "MIL-TRADE-08", state, ("supply.cover_tiles",), f"{covers} back")
    # MIL-END-02: taking the last worker tile (display and pile empty) triggers the end.
    if not display and not state.draw_pile and state.end_trigger is None:
        state = noted(tables, "MIL-END-02", evolve(state, end_trigger=event.player))
    return state


def buy_good(tables: Tables, state: State, event: BuyGood) -> State:
    """Buy one good from the supply for coins."""
    require_at(state, event.player, TRADING_HOUSE, "buying goods")
    # MIL-TRADE-05: one good of any kind costs two coins.
    if event.good not in GOODS:
        raise RuleViolation("MIL-TRADE-05", f"{event.good!r} is not a good ({', '.join(GOODS)})")
    # MIL-SUPPLY-01: nobody takes what the supply no longer holds (an unlimited supply
    # always holds it).
    if not holds(state.supply[event.good], 1):
        raise RuleViolation("MIL-SUPPLY-01", f"no {event.good} is left in the supply")
    state = pay(state, event.player, tables.buy_good_cost, "MIL-TRADE-05", f"one {event.good}")
    return transfer(state, event.player, {event.good: 1}, to_player=True)[0]


def sell_goods(tables: Tables, state: State, event: SellGoods) -> State:
    """Sell goods (as many as the rate) for one coin."""
    require_at(state, event.player, TRADING_HOUSE, "selling goods")
    rate = tables.sell_goods_per_coin
    # MIL-TRADE-06: goods are sold at the rate (two goods for one coin) to the supply.
    if len(event.goods) != rate or any(g not in GOODS for g in event.goods):
        raise RuleViolation("MIL-TRADE-06", f"one coin is paid for exactly {rate} goods cubes")
    sold = {g: event.goods.count(g) for g in GOODS if g in event.goods}
    state = pay(state, event.player, sold, "MIL-TRADE-06", "selling")
    # MIL-SUPPLY-01: nobody takes what the supply no longer holds (an unlimited supply
    # always holds it).
    if not holds(state.supply[COIN], 1):
        raise RuleViolation("MIL-SUPPLY-01", "no coin is left in the supply")
    return transfer(state, event.player, {COIN: 1}, to_player=True)[0]
