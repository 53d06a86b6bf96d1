"""Shared helpers for the Pillars rules: the rule set in force, player updates, gold and
VP arithmetic, cube movements, and seat order."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

import attrs

from reference.core.state import clockwise_from as seat_order_from
from reference.core.state import with_player as with_player
from reference.core.stock import Stock, put_back, take
from reference.pillars.options import PillarsOptions
from reference.pillars.state import PlayerState, State, evolve
from reference.pillars.tables import LOCATIONS, Tables

if TYPE_CHECKING:  # the recorder is imported only where a value is explained (a cheap start)
    from reference.core.trace import Recorder

ORDERED_LOCATIONS = frozenset(LOCATIONS) - {"kingsbridge", "shiring"}
"""Locations whose spaces fill from the first (the player chooses among Kingsbridge and
Shiring spaces, which hold different cards)."""


@attrs.frozen
class Ctx:
    """The rule set in force: data tables and options."""

    t: Tables
    o: PillarsOptions
    spaces: tuple[str, ...]
    """Every master-builder space, in board order (``priory_1``, ``priory_2``, ...)."""
    locations: tuple[tuple[str, tuple[str, ...]], ...]
    """Each location in board order with its spaces (``("priory", ("priory_1", ...))``)."""
    filled_first: dict[str, frozenset[str]]
    """Each space -> the spaces that must be taken before it (PIL-BUILD-11: the earlier
    spaces of its location when ordered locations fill from the first; else none)."""
    recorder: Recorder | None = None
    """Set only in the recording copy that explains a divergence (reference/core/trace.py)."""


def make_ctx(t: Tables, o: PillarsOptions) -> Ctx:
    """Bundle tables and options, listing the board's spaces."""
    locations = tuple(
        (loc, tuple(f"{loc}_{i}" for i in range(1, t.capacity[loc] + 1))) for loc in LOCATIONS
    )
    spaces = tuple(space for _, loc_spaces in locations for space in loc_spaces)
    in_order = o.ordered_spaces == "first_free"
    filled_first = {
        space: frozenset(loc_spaces[:i] if in_order and loc in ORDERED_LOCATIONS else ())
        for loc, loc_spaces in locations
        for i, space in enumerate(loc_spaces)
    }
    return Ctx(t, o, spaces, locations, filled_first)


def noted(
    ctx: Ctx, rule_id: str, state: State, decided: tuple[str, ...] = (), why: str = ""
) -> State:
    """Trace point: ``state`` is the state once rule ``rule_id`` has done its work, which
    decided the paths ``decided`` (changed or not; ``why``: what it gave, in words); noted
    only while a value is being explained (reference/core/trace.py); returns ``state``."""
    if ctx.recorder is not None:
        ctx.recorder.note(rule_id, state, decided, why)
    return state


def note_work(
    ctx: Ctx,
    rule_id: str,
    state: State,
    decided: tuple[str, ...] = (),
    why: str = "",
    **working: Any,
) -> None:
    """Trace point inside a step that works on copies (``players``, ``supply``, ...): the
    state with (copies of) them, once rule ``rule_id`` has done its work (``decided`` and
    ``why`` as for ``noted``); only while recording."""
    if ctx.recorder is not None:
        copies = {k: dict(v) if isinstance(v, dict) else v for k, v in working.items()}
        ctx.recorder.note(rule_id, evolve(state, **copies), decided, why)


@cache
def location_of(space: str) -> str:
    """``priory_2`` -> ``priory``."""
    return space.rsplit("_", 1)[0]


def clockwise_from(state: State, first: str) -> tuple[str, ...]:
    """All players in seat order starting with ``first``."""
    return seat_order_from(state.seats, first)


def without(queue: tuple[str, ...], name: str) -> tuple[str, ...]:
    """The queue once ``name`` has decided (a queued decision may come in any order)."""
    return tuple(n for n in queue if n != name)


def out_of_play(pile: tuple[str, ...], *cards: str) -> tuple[str, ...]:
    """A pile of cards out of the game (``craftsmen_out``, ``advantages_out``) with
    ``cards`` added. The pile has no order in the game, so it is kept sorted: the same
    cards give the same state whatever order they left in (e.g. discards in any order)."""
    return tuple(sorted(pile + cards))


def turn_order(state: State) -> tuple[str, ...]:
    """Players from the start player, clockwise."""
    return clockwise_from(state, state.start_player)


def evolve_player(state: State, name: str, **changes: Any) -> State:
    """A state with some fields of one player changed."""
    return with_player(state, name, evolve(state.players[name], **changes))


def gold_after(ctx: Ctx, gold: int, amount: int) -> int:
    """Gold after a gain (PIL-GOLD-01: never above the gold cap when one is set)."""
    new = gold + amount
    if ctx.t.gold_cap is not None:
        new = min(new, max(ctx.t.gold_cap, gold))
    return new


def vp_after(ctx: Ctx, vp: int, amount: int) -> int:
    """VP after a gain or loss (PIL-VP-01: a loss stops at the VP floor)."""
    new = vp + amount
    if amount < 0:
        new = max(new, min(ctx.t.vp_floor, vp))
    return new


def add_gold(ctx: Ctx, p: PlayerState, amount: int) -> PlayerState:
    """Gain gold (PIL-GOLD-01: never above the gold cap when one is set)."""
    return evolve(p, gold=gold_after(ctx, p.gold, amount))


def add_vp(ctx: Ctx, p: PlayerState, amount: int) -> PlayerState:
    """Gain or lose VP (PIL-VP-01: a loss stops at the VP floor)."""
    return evolve(p, vp=vp_after(ctx, p.vp, amount))


def pay(ctx: Ctx, p: PlayerState, amount: int) -> PlayerState:
    """Pay a tax or fine; PIL-TAX-02: what cannot be paid costs VP (``shortfall_vp``)."""
    if p.gold >= amount:
        return evolve(p, gold=p.gold - amount)
    per = ctx.t.shortfall_gold_per_vp
    lost = shortfall_vp(ctx, p, amount)
    p = evolve(p, gold=0)
    return add_vp(ctx, p, -lost) if per else p


def shortfall_vp(ctx: Ctx, p: PlayerState, amount: int) -> int:
    """PIL-TAX-02: the VP a payment of ``amount`` costs ``p`` for want of gold: 1 per
    ``tax.shortfall_gold_per_vp`` gold unpaid, rounded down (before the VP floor)."""
    per = ctx.t.shortfall_gold_per_vp
    if p.gold >= amount or not per:
        return 0
    return (amount - p.gold) // per


def note_gold_cap(ctx: Ctx, state: State, name: str, gold: int, gain: int, **working: Any) -> None:
    """Trace point, once the rule paying ``gain`` gold to player ``name`` (who held
    ``gold``) is noted: PIL-GOLD-01 when the gold cap stopped the gain (``working``: as for
    ``note_work``); only while recording."""
    cap = ctx.t.gold_cap
    if cap is not None and gold + gain > max(cap, gold):
        why = f"gold capped at {cap}: {gain:+d} gave {max(cap, gold) - gold:+d}"
        note_work(ctx, "PIL-GOLD-01", state, (f"players.{name}.gold",), why, **working)


def note_vp_floor(ctx: Ctx, state: State, name: str, vp: int, change: int, **working: Any) -> None:
    """Trace point, once the rule taking ``-change`` VP from player ``name`` (who held
    ``vp``) is noted: PIL-VP-01 when the VP floor stopped the loss (``working``: as for
    ``note_work``); only while recording."""
    floor = ctx.t.vp_floor
    if change < 0 and vp + change < min(floor, vp):
        why = f"VP floor {floor}: {change:+d} took {min(floor, vp) - vp:+d}"
        note_work(ctx, "PIL-VP-01", state, (f"players.{name}.vp",), why, **working)


def note_owed(
    ctx: Ctx,
    state: State,
    before: Mapping[str, PlayerState],
    struck: str = "used first, struck from the note",
    **working: Any,
) -> None:
    """Trace points, once a rule that gave or used cubes is noted: each player whose owed
    cubes (``working`` copies, else ``state``'s) grew since ``before`` was owed what the
    supply lacked (PIL-PROD-02); each whose owed cubes shrank had them ``struck``
    (PIL-PROD-03); only while recording."""
    players = working.get("players", state.players)
    for name, p in players.items():
        old = before[name].owed
        if p.owed == old:
            continue
        path = (f"players.{name}.owed",)
        for resource in sorted(set(old) | set(p.owed)):
            n = p.owed.get(resource, 0) - old.get(resource, 0)
            if n > 0:
                why = f"{n} {resource} owed: the general supply ran short"
                note_work(ctx, "PIL-PROD-02", state, path, why, **working)
            elif n < 0:
                why = f"{-n} owed {resource} {struck}"
                note_work(ctx, "PIL-PROD-03", state, path, why, **working)


def grant(
    players: dict[str, PlayerState],
    supply: dict[str, Stock],
    name: str,
    resource: str,
    amount: int,
) -> None:
    """Give cubes from the general supply; PIL-PROD-02: what the supply lacks is owed.
    ``players`` and ``supply`` are working copies, updated in place."""
    if amount <= 0:
        return
    p = players[name]
    got, supply[resource] = take(supply[resource], amount)
    resources = dict(p.resources)
    resources[resource] += got
    owed = dict(p.owed)
    if got < amount:
        owed[resource] = owed.get(resource, 0) + amount - got
    players[name] = evolve(p, resources=resources, owed=owed)


def families(ctx: Ctx, p: PlayerState) -> set[str]:
    """The craftsman families a player holds."""
    return {ctx.t.craftsmen[c].family for c in p.craftsmen}


def permitted(ctx: Ctx, p: PlayerState, permission: str) -> bool:
    """Whether a player holds a craftsman granting a starting permission."""
    return not families(ctx, p).isdisjoint(ctx.t.permissions[permission])


def advantage_with(ctx: Ctx, p: PlayerState, effect: str) -> tuple[str, ...]:
    """The held advantage cards having this effect."""
    return tuple(a for a in p.advantages if ctx.t.advantages[a].effect == effect)


def craftsman_limit(ctx: Ctx, p: PlayerState) -> int:
    """PIL-CRAFT-01: 5 craftsmen, raised by Jack (PIL-ADV-03)."""
    limit = ctx.t.craftsman_limit
    for a in p.advantages:
        card = ctx.t.advantages[a]
        if card.effect == "craftsman_limit":
            limit += card.amount
    return limit


def note_craftsman_limit(ctx: Ctx, state: State, name: str) -> None:
    """Trace point, once player ``name`` took a craftsman (``state``: after it): PIL-ADV-03
    when Jack lets them keep more craftsmen than the base limit; only while recording."""
    p = state.players[name]
    limit = craftsman_limit(ctx, p)
    if ctx.t.craftsman_limit < len(p.craftsmen) <= limit:
        cards = ", ".join(advantage_with(ctx, p, "craftsman_limit"))
        why = f"{len(p.craftsmen)} craftsmen kept: {cards} raises the limit to {limit}"
        noted(ctx, "PIL-ADV-03", state, (f"players.{name}.craftsmen",), why)


def over_limit(ctx: Ctx, state: State) -> str | None:
    """The first player (turn order) holding more craftsmen than allowed, if any."""
    # Nobody above the base limit (the usual case): nobody is over, whatever Jack adds.
    base = ctx.t.craftsman_limit
    for p in state.players.values():
        if len(p.craftsmen) > base:
            break
    else:
        return None
    for name in turn_order(state):
        p = state.players[name]
        n = len(p.craftsmen)
        if n > base and n > craftsman_limit(ctx, p):
            return name
    return None


def over_own_limit(ctx: Ctx, state: State, name: str) -> bool:
    """Whether player ``name`` (CHANCE or a name that is no player: no) holds more
    craftsmen than allowed (PIL-CRAFT-01)."""
    p = state.players.get(name)
    if p is None:
        return False
    n = len(p.craftsmen)
    return n > ctx.t.craftsman_limit and n > craftsman_limit(ctx, p)


def all_over_limit(ctx: Ctx, state: State) -> tuple[str, ...]:
    """Every player (turn order) holding more craftsmen than allowed (PIL-CRAFT-01): each
    owes a discard, and these discards may come in any order."""
    if over_limit(ctx, state) is None:
        return ()
    base = ctx.t.craftsman_limit
    return tuple(
        n
        for n in turn_order(state)
        if len(state.players[n].craftsmen) > base
        and len(state.players[n].craftsmen) > craftsman_limit(ctx, state.players[n])
    )


def usable(p: PlayerState, resource: str) -> int:
    """PIL-PROD-02: cubes a player can use: those held plus those owed (noted because the
    supply was empty), which the player uses as required."""
    return p.resources[resource] + p.owed.get(resource, 0)


def spend_cubes(
    resources: dict[str, int],
    owed: dict[str, int],
    supply: dict[str, Stock],
    resource: str,
    n: int,
) -> None:
    """Use ``n`` cubes of one type (PIL-PROD-03: owed cubes first, struck from the note;
    then held cubes, which go back to ``supply``); all three dicts are working copies,
    updated in place."""
    from_owed = min(n, owed.get(resource, 0))
    if from_owed:
        left = owed.pop(resource) - from_owed
        if left > 0:
            owed[resource] = left
    resources[resource] -= n - from_owed
    supply[resource] = put_back(supply[resource], n - from_owed)


def counted_resources(ctx: Ctx, p: PlayerState) -> int:
    """Cubes that count against the resource limit (PIL-CATH-06), owed ones included
    (``usable`` of each kind, added up here at once)."""
    held, owed = p.resources, p.owed
    n = held["sand"] + held["wood"] + held["stone"]
    if owed:
        n += owed.get("sand", 0) + owed.get("wood", 0) + owed.get("stone", 0)
    if ctx.t.resource_limit_counts_metal:
        n += held["metal"] + owed.get("metal", 0)
    return n


def occupants(state: State, location: str) -> tuple[str, ...]:
    """Owners of the builders on a location's spaces, in space order."""
    found = [(s, o) for s, o in state.spaces.items() if location_of(s) == location]
    found.sort(key=lambda so: int(so[0].rsplit("_", 1)[1]))
    return tuple(o for _, o in found)


def event_affects(ctx: Ctx, state: State, name: str) -> bool:
    """Whether this round's event applies to a player (PIL-EVENT-01, PIL-BISHOP-01)."""
    if state.event is None:
        return False
    card = ctx.t.events[state.event]
    p = state.players[name]
    if card.sign == "negative":
        return not p.protected
    on_bishop = name in occupants(state, "bishop")
    return not (on_bishop and ctx.o.bishop_positive == "cube_only")
