"""The turn: two clockwise pawn moves, production, the Castle tax, the end of the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.core.errors import RuleViolation
from reference.core.state import added, next_seat, taken
from reference.core.stock import Stock, holds, put_back, take
from reference.milestones.common import noted, require_turn, uncovered, with_player
from reference.milestones.events import CoverWorker, EndTurn, Move, ReturnToSupply
from reference.milestones.names import (
    CASTLE,
    COIN,
    ITEMS,
    KINDS,
    LOOP,
    LOOP_INDEX,
    OVER,
    PRODUCT,
    TRADING_HOUSE,
)
from reference.milestones.state import PlayerState, State, evolve
from reference.milestones.tables import Tables

CASTLE_INDEX = LOOP_INDEX[CASTLE]


def step_limit(position: str) -> int:
    """The longest legal move from `position`: up to the Castle, never past it."""
    i = LOOP_INDEX[position]
    # MIL-MOVE-02: from the Castle at most once round to the Mill; elsewhere up to the Castle.
    return CASTLE_INDEX if i == CASTLE_INDEX else CASTLE_INDEX - i


def production(tables: Tables, player: PlayerState, start: int, steps: int) -> tuple[str, int]:
    """The good and amount a move of `steps` from loop index `start` produces (or ("", 0))."""
    landing = LOOP[(start + steps) % len(LOOP)]
    worker = player.workers.get(landing)
    if worker is None or worker.covered:
        return "", 0
    # MIL-PROD-01: the landing worker produces, and so does every uncovered worker of the
    # same kind passed in this move (the space the move started on does not count).
    # MIL-PROD-02: a worker carrying a bonus tile produces double.
    amount = 0
    for k in range(1, steps + 1):
        other = player.workers.get(LOOP[(start + k) % len(LOOP)])
        if other is not None and not other.covered and other.kind == worker.kind:
            amount += tables.bonus_worker_weight if other.bonus else 1
    return PRODUCT[worker.kind], amount


def order_bonus(player: PlayerState) -> bool:
    """Whether the uncovered workers' numbers never fall from left to right (at least one)."""
    numbers = [w.number for _, w in uncovered(player.workers)]
    return bool(numbers) and all(a <= b for a, b in zip(numbers, numbers[1:], strict=False))


def leave_space(tables: Tables, state: State) -> dict[str, Any]:
    """The state's changes when the pawn leaves its space (none, or the display refill)."""
    if not state.hired:
        return {}
    # MIL-TRADE-04: the display is refilled only when the player is done at the Trading House.
    due = len(state.display) < tables.display_size and bool(state.draw_pile)
    return {"hired": False, "refill_due": due}


def move(tables: Tables, state: State, event: Move) -> State:
    """Move the pawn clockwise and resolve the space it lands on."""
    require_turn(state, event.player)
    # MIL-TURN-02: a turn is exactly two moves of the pawn.
    if state.moves_made >= tables.moves_per_turn:
        raise RuleViolation("MIL-TURN-02", f"{event.player} has made both moves of this turn")
    player = state.players[event.player]
    # MIL-MOVE-01: a move goes clockwise by one space or more.
    if event.steps < 1:
        raise RuleViolation("MIL-MOVE-01", "a move goes at least one space clockwise")
    limit = step_limit(player.position)
    if event.steps > limit:
        raise RuleViolation(
            "MIL-MOVE-02",
            f"the pawn never passes the Castle: from {player.position} at most {limit}",
        )
    changes = leave_space(tables, state)
    start = LOOP_INDEX[player.position]
    landing = LOOP[(start + event.steps) % len(LOOP)]
    good, amount = production(tables, player, start, event.steps)
    rule = "MIL-PROD-01"
    if landing == TRADING_HOUSE and order_bonus(player):
        # MIL-TRADE-01: workers in non-falling number order give a coin on arrival.
        good, amount, rule = COIN, tables.order_bonus_coins, "MIL-TRADE-01"
    if tables.recorder is not None:
        _note_move(tables, state, event.player, landing, good, amount, rule, changes)
    # MIL-SUPPLY-01: goods and coins are limited to the components; take what is left
    # (all of it from an unlimited supply).
    amount, left = take(state.supply[good], amount) if amount else (0, None)
    supply = {**state.supply, good: left} if amount else state.supply
    if amount:
        if good == COIN:
            player = evolve(player, position=landing, coins=player.coins + amount)
        else:
            goods = added(player.goods, {good: amount})
            player = evolve(player, position=landing, goods=goods)
    else:
        player = evolve(player, position=landing)
    if landing == CASTLE:
        changes.update(castle_tax(tables, player, supply))
        if tables.recorder is not None:
            dues = with_player(state, event.player, player, supply=supply, **changes)
            why = f"{changes['returns_due']} to give back"
            noted(tables, "MIL-CASTLE-02", dues, ("returns_due",), why)
            _note_cover(tables, dues, player, changes["cover_due"])
    # One copy of the state for the whole move.
    return with_player(
        state, event.player, player, supply=supply, moves_made=state.moves_made + 1, **changes
    )


def _note_move(
    tables: Tables,
    state: State,
    name: str,
    landing: str,
    good: str,
    amount: int,
    rule: str,
    changes: Mapping[str, Any],
) -> None:
    """Trace points of a move, rule by rule: the display refill falls due on leaving the
    Trading House (MIL-TRADE-04), the pawn moves (MIL-MOVE-01), the landing worker
    produces (MIL-PROD-01, doubled by bonus tiles under MIL-PROD-02) or the order bonus
    pays (MIL-TRADE-01), as much as the supply holds (MIL-SUPPLY-01)."""
    if changes:
        state = noted(tables, "MIL-TRADE-04", evolve(state, **changes), ("refill_due",))
    player = state.players[name]
    moved = with_player(state, name, evolve(player, position=landing))
    noted(tables, "MIL-MOVE-01", moved, (f"players.{name}.position",))
    if not good:
        worker = player.workers.get(landing)
        if worker is not None:
            path = _holding_path(name, PRODUCT[worker.kind])
            noted(tables, "MIL-PROD-01", moved, (path,), "a covered worker produces nothing")
        return
    path = _holding_path(name, good)
    doubled = 0
    if rule == "MIL-PROD-01":
        doubled = production_doubled(tables, player, LOOP_INDEX[player.position], landing)
    parts = [(rule, amount - doubled, f"{amount - doubled} {good}")]
    if doubled:
        parts.append(("MIL-PROD-02", doubled, f"+{doubled} {good}: bonus tiles double"))
    for part_rule, part, why in parts:
        got = take(moved.supply[good], part)[0]
        moved = noted(tables, part_rule, _gained(moved, name, good, got), (path,), why)
        if got < part:
            noted(tables, "MIL-SUPPLY-01", moved, (path,), f"the supply held only {got}")


def _holding_path(name: str, item: str) -> str:
    """The path of what player ``name`` holds of an item (a good, or coins)."""
    return f"players.{name}.coins" if item == COIN else f"players.{name}.goods.{item}"


def _gained(state: State, name: str, item: str, n: int) -> State:
    """``state`` with ``n`` of an item (a good or coins) moved from the supply to ``name``."""
    if not n:
        return state
    p = state.players[name]
    p = evolve(p, coins=p.coins + n) if item == COIN else evolve(p, goods=added(p.goods, {item: n}))
    supply = {**state.supply, item: take(state.supply[item], n)[1]}
    return with_player(state, name, p, supply=supply)


def production_doubled(tables: Tables, player: PlayerState, start: int, landing: str) -> int:
    """Of a move's production, what bonus tiles add (MIL-PROD-02; explanations only)."""
    steps = (LOOP_INDEX[landing] - start) % len(LOOP)
    worker = player.workers.get(landing)
    if worker is None or worker.covered:
        return 0
    extra = tables.bonus_worker_weight - 1
    return sum(
        extra
        for k in range(1, steps + 1)
        if (other := player.workers.get(LOOP[(start + k) % len(LOOP)])) is not None
        and not other.covered
        and other.kind == worker.kind
        and other.bonus
    )


def _note_cover(tables: Tables, dues: State, player: PlayerState, cover: bool) -> None:
    """Trace point of the Castle's cover: a worker to cover or none (MIL-CASTLE-03), or none
    because the supply has no cover tile left (MIL-CASTLE-05)."""
    if not cover and len(uncovered(player.workers)) > tables.cover_if_workers_over:
        why = "no worker to cover: no cover tile left in the supply"
        noted(tables, "MIL-CASTLE-05", dues, ("cover_due",), why)
        return
    why = "a worker to cover" if cover else "no worker to cover"
    noted(tables, "MIL-CASTLE-03", dues, ("cover_due",), why)


def castle_tax(tables: Tables, player: PlayerState, supply: Mapping[str, Stock]) -> dict[str, Any]:
    """Landing on the Castle: what the player must give back and whether to cover a worker
    (the state's changes), from the player and the supply after the move."""
    # MIL-CASTLE-02: keep at most three goods and coins together; give back the rest.
    held = player.coins + sum(player.goods.values())
    # MIL-CASTLE-03: with more than two uncovered workers, cover one.
    # MIL-CASTLE-05: with no cover tile left in the supply, nobody is covered (an unlimited
    # stock of cover tiles never runs out).
    cover = len(uncovered(player.workers)) > tables.cover_if_workers_over and holds(
        supply["cover_tiles"], 1
    )
    return {"returns_due": max(0, held - tables.keep_max), "cover_due": cover}


def return_to_supply(tables: Tables, state: State, event: ReturnToSupply) -> State:
    """Castle tax: one good or coin goes back to the supply."""
    # MIL-CASTLE-02: only the excess over three is given back, each piece of the player's choice.
    if state.returns_due <= 0:
        raise RuleViolation("MIL-CASTLE-02", f"{event.player} owes the Castle no goods or coins")
    player = state.players[event.player]
    if event.item not in ITEMS:
        raise RuleViolation("MIL-CASTLE-02", f"{event.item!r} is not a good or a coin")
    supply = {**state.supply, event.item: put_back(state.supply[event.item], 1)}
    if event.item == COIN:
        if player.coins < 1:
            raise RuleViolation("MIL-CASTLE-02", f"{event.player} has no coin to give back")
        player = evolve(player, coins=player.coins - 1)
    else:
        if player.goods[event.item] < 1:
            raise RuleViolation("MIL-CASTLE-02", f"{event.player} has no {event.item}")
        goods = taken(player.goods, {event.item: 1})
        player = evolve(player, goods=goods)
    state = evolve(state, supply=supply, returns_due=state.returns_due - 1)
    return with_player(state, event.player, player)


def cover_worker(tables: Tables, state: State, event: CoverWorker) -> State:
    """Castle tax: a cover tile goes on one of the player's uncovered workers."""
    # MIL-CASTLE-03: one uncovered worker of the player's choice is covered, once per visit.
    if not state.cover_due:
        raise RuleViolation("MIL-CASTLE-03", f"{event.player} owes the Castle no worker")
    player = state.players[event.player]
    worker = player.workers.get(event.space)
    if worker is None or worker.covered:
        raise RuleViolation("MIL-CASTLE-03", f"{event.space} holds no uncovered worker")
    workers = dict(player.workers)
    workers[event.space] = evolve(worker, covered=True)
    supply = {**state.supply, "cover_tiles": take(state.supply["cover_tiles"], 1)[1]}
    state = evolve(state, supply=supply, cover_due=False)
    return with_player(state, event.player, evolve(player, workers=workers))


def end_turn(tables: Tables, state: State, event: EndTurn) -> State:
    """End the turn; the next player clockwise moves, unless the game ends now."""
    require_turn(state, event.player)
    # MIL-TURN-02: a turn is exactly two moves of the pawn.
    if state.moves_made < tables.moves_per_turn:
        raise RuleViolation(
            "MIL-TURN-02", f"{event.player} has made {state.moves_made} of the two moves"
        )
    changes = leave_space(tables, state)
    following = next_seat(list(state.players), event.player)
    # MIL-END-03: after the triggering turn every other player has one more turn, then the end.
    if state.end_trigger is not None and following == state.end_trigger:
        changes["refill_due"] = False
        return final_scoring(tables, state, changes)
    # One copy of the state for the whole end of the turn.
    return evolve(state, current=following, moves_made=0, **changes)


def majority_counts(tables: Tables, player: PlayerState) -> dict[str, int]:
    """Workers of each kind for the majorities: 1 each, 2 with a bonus tile, covered 0."""
    counts = dict.fromkeys(KINDS, 0)
    for _, worker in uncovered(player.workers):
        counts[worker.kind] += tables.bonus_worker_weight if worker.bonus else 1
    return counts


def final_scoring(tables: Tables, state: State, changes: Mapping[str, Any] | None = None) -> State:
    """The worker majorities, then the game is over (with any other `changes` to the state,
    all in one copy)."""
    counts = {name: majority_counts(tables, p) for name, p in state.players.items()}
    extra = dict.fromkeys(state.players, 0)
    # MIL-END-04: per kind, the most workers alone scores 5; players tied for most score 2
    # each; nobody scores a kind nobody has.
    for kind in KINDS:
        best = max(c[kind] for c in counts.values())
        if best == 0:
            continue
        top = [name for name, c in counts.items() if c[kind] == best]
        for name in top:
            extra[name] += tables.majority_win_vp if len(top) == 1 else tables.majority_tie_vp
    players = {name: evolve(p, vp=p.vp + extra[name]) for name, p in state.players.items()}
    if tables.recorder is not None:
        scored = evolve(state, players=players, majority_vp=extra, **(changes or {}))
        vp = tuple(f"players.{name}.vp" for name in players)
        noted(tables, "MIL-END-04", scored, ("majority_vp", *vp), "worker majorities")
    over = evolve(
        state, players=players, phase=OVER, majority_vp=extra, current="", **(changes or {})
    )
    return noted(tables, "MIL-END-03", over, ("phase",), "the final turns are over")


def winners(state: State, tie_break: str) -> tuple[str, ...]:
    """The players with the most points, after the tie-break option."""
    # MIL-END-05: most points wins; a tie is shared, or goes to the most goods and coins.
    best = max(p.vp for p in state.players.values())
    top = [name for name, p in state.players.items() if p.vp == best]
    if tie_break == "goods_and_coins" and len(top) > 1:
        wealth = {n: state.players[n].coins + sum(state.players[n].goods.values()) for n in top}
        most = max(wealth.values())
        top = [n for n in top if wealth[n] == most]
    return tuple(top)
