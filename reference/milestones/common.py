"""Small helpers the rule handlers share: players, supply, scoring, the end trigger."""

from __future__ import annotations

from collections.abc import Mapping

from reference.core.errors import RuleViolation
from reference.core.state import with_player as with_player
from reference.core.stock import holds, put_back, take
from reference.milestones.names import COIN, TURNS
from reference.milestones.state import PlayerState, State, Worker, evolve
from reference.milestones.tables import Tables


def noted(
    tables: Tables, rule_id: str, state: State, decided: tuple[str, ...] = (), why: str = ""
) -> State:
    """Trace point: ``state`` is the state once rule ``rule_id`` has done its work, which
    decided the paths ``decided`` (changed or not; ``why``: what it gave, in words); noted
    only while a value is being explained (reference/core/trace.py); returns ``state``."""
    if tables.recorder is not None:
        tables.recorder.note(rule_id, state, decided, why)
    return state


def holding(player: PlayerState, item: str) -> int:
    """How many of a good (or coins) the player has."""
    return player.coins if item == COIN else player.goods[item]


def can_pay(player: PlayerState, cost: Mapping[str, int]) -> bool:
    """Whether the player holds every item of the cost."""
    return all(holding(player, item) >= n for item, n in cost.items())


def transfer(
    state: State, name: str, items: Mapping[str, int], to_player: bool
) -> tuple[State, PlayerState]:
    """Move goods and coins between the supply and a player (amounts already checked)."""
    player = state.players[name]
    supply = dict(state.supply)
    goods = dict(player.goods)
    coins = player.coins
    sign = 1 if to_player else -1
    for item, n in items.items():
        if item == COIN:
            coins += sign * n
        else:
            goods[item] += sign * n
        # An unlimited supply stays unlimited (reference/core/stock.py).
        supply[item] = take(supply[item], n)[1] if to_player else put_back(supply[item], n)
    player = evolve(player, coins=coins, goods=goods)
    return with_player(evolve(state, supply=supply), name, player), player


def pay(state: State, name: str, cost: Mapping[str, int], rule: str, what: str) -> State:
    """The player pays `cost` to the supply; raises RuleViolation(rule) if they cannot."""
    player = state.players[name]
    if not can_pay(player, cost):
        need = ", ".join(f"{n} {item}" for item, n in cost.items())
        raise RuleViolation(rule, f"{what} costs {need}; {name} cannot pay it")
    return transfer(state, name, cost, to_player=False)[0]


def gain_capped(
    state: State, name: str, item: str, n: int, tables: Tables | None = None, rule: str = ""
) -> State:
    """The player takes up to `n` of an item, as many as the supply still holds (with
    ``tables``, trace points note the gain under ``rule`` and a shortfall)."""
    # MIL-SUPPLY-01: goods and coins are limited to the components; take what is left
    # (all of it from an unlimited supply).
    wanted, n = n, take(state.supply[item], n)[0]
    if n > 0:
        state = transfer(state, name, {item: n}, to_player=True)[0]
    if tables is not None and tables.recorder is not None:
        path = f"players.{name}.coins" if item == COIN else f"players.{name}.goods.{item}"
        noted(tables, rule, state, (path,), f"{wanted} {item}")
        if n < wanted:
            noted(tables, "MIL-SUPPLY-01", state, (path,), f"the supply held only {n}")
    return state


def use_piece(state: State, piece: str, n: int, what: str) -> State:
    """Take `n` pieces from the supply for a build; RuleViolation if it is exhausted."""
    # MIL-BUILD-02: a build needs its wooden pieces from the supply; none left, no build
    # (an unlimited stock never runs out).
    if not holds(state.supply[piece], n):
        raise RuleViolation("MIL-BUILD-02", f"no {piece.replace('_', ' ')} left for {what}")
    supply = dict(state.supply)
    supply[piece] = take(supply[piece], n)[1]
    return evolve(state, supply=supply)


def score(
    tables: Tables, state: State, name: str, points: int, rule: str = "", why: str = ""
) -> State:
    """Add victory points (under ``rule``: ``why`` they are scored, for the trace point)
    and check the end trigger."""
    if tables.recorder is not None:
        player = state.players[name]
        scored = with_player(state, name, evolve(player, vp=player.vp + max(points, 0)))
        noted(tables, rule, scored, (f"players.{name}.vp",), why or f"{points} point(s)")
    if points <= 0:
        return state
    player = state.players[name]
    player = evolve(player, vp=player.vp + points)
    state = with_player(state, name, player)
    # MIL-END-01: reaching or passing the mark for the player count triggers the end.
    if state.end_trigger is None and player.vp >= tables.end_vp[len(state.players)]:
        state = noted(tables, "MIL-END-01", evolve(state, end_trigger=name), ("end_trigger",))
    return state


def uncovered(workers: Mapping[str, Worker | None]) -> list[tuple[str, Worker]]:
    """The (space, worker) pairs of uncovered workers, left to right."""
    return [(s, w) for s, w in workers.items() if w is not None and not w.covered]


def require_turn(state: State, name: str) -> None:
    """The action needs the turns phase, with no Castle tax or bonus claim outstanding."""
    # MIL-SETUP-05: before the first turn the only action is the draft.
    if state.phase != TURNS:
        raise RuleViolation("MIL-SETUP-05", f"the game is in its {state.phase}; {name} drafts")
    # MIL-CASTLE-04: the Castle tax is settled before anything else.
    if state.returns_due or state.cover_due:
        raise RuleViolation("MIL-CASTLE-04", f"{name} must first pay the Castle tax")
    # MIL-BONUS-04: an earned bonus tile is claimed at once, before anything else.
    if state.pending_bonus:
        raise RuleViolation("MIL-BONUS-04", f"{name} must first claim the bonus tile")
