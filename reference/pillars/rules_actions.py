"""Phase III choices: event decisions, the Bishop's cube, tax, market, cathedral, discards."""

from __future__ import annotations

from typing import Any

from reference.core.errors import RuleViolation
from reference.core.state import added, taken
from reference.pillars.events import (
    BuyResources,
    ChooseArchbishopCraftsman,
    DiscardCraftsman,
    EndCathedral,
    PassMarket,
    PlayAdvantage,
    ReturnResources,
    RevealEvent,
    RollTax,
    SellResources,
    TakeBishopResource,
    UseCraftsman,
)
from reference.pillars.flow import (
    Ctx,
    all_over_limit,
    counted_resources,
    evolve_player,
    families,
    gold_after,
    note_gold_cap,
    note_owed,
    note_vp_floor,
    note_work,
    noted,
    out_of_play,
    permitted,
    spend_cubes,
    usable,
    vp_after,
    with_player,
    without,
)
from reference.pillars.rules_cards import due
from reference.pillars.state import PlayerState, State, evolve
from reference.pillars.steps import (
    after_event_reveal,
    apply_tax,
    archbishop_choices,
    cathedral_turn,
    cathedral_turns,
    pay_tax,
    resolve_event,
    start_cathedral,
    steps_3_to_8,
    steps_10_to_12,
    steps_11_12,
    to_bishop,
)
from reference.pillars.tables import MARKET_RESOURCES, RESOURCES


def reveal_event(ctx: Ctx, state: State, ev: RevealEvent) -> State:
    """PIL-EVENT-01: one unseen event card is revealed each round."""
    due(state, "actions", "event", "revealing the event")
    if ev.event not in state.events_unseen:
        raise RuleViolation("PIL-EVENT-01", f"event {ev.event!r} is not among the unseen cards")
    unseen = tuple(e for e in state.events_unseen if e != ev.event)
    state = evolve(
        state, event=ev.event, events_unseen=unseen, events_seen=state.events_seen + (ev.event,)
    )
    return after_event_reveal(ctx, noted(ctx, "PIL-EVENT-01", state))


def play_advantage(ctx: Ctx, state: State, ev: PlayAdvantage) -> State:
    """Decide whether to play Thomas (PIL-ADV-09) or a tax exemption (PIL-ADV-08)."""
    if state.phase != "actions" or state.stage not in ("thomas", "tax_exemption"):
        raise RuleViolation("PIL-TURN-02", "no one-shot advantage card can be played now")
    effect = "protection" if state.stage == "thomas" else "tax_exemption"
    rule = "PIL-ADV-09" if effect == "protection" else "PIL-ADV-08"
    p = state.players[ev.player]
    # PIL-ADV-08/09: only a held card whose moment this is can be played.
    if ev.card not in p.advantages or ctx.t.advantages[ev.card].effect != effect:
        raise RuleViolation(rule, f"{ev.player} holds no {effect} card {ev.card!r} to play now")
    queue = without(state.queue, ev.player)
    if ev.play:
        advantages = tuple(a for a in p.advantages if a != ev.card)
        state = evolve_player(state, ev.player, advantages=advantages)
        state = evolve(state, advantages_out=out_of_play(state.advantages_out, ev.card))
        if effect == "protection":
            state = evolve_player(state, ev.player, protected=True)
    elif effect == "tax_exemption":
        state = pay_tax(ctx, state, ev.player)
    state = evolve(state, queue=queue)
    if ctx.recorder is not None:
        exempt = ev.play and effect == "tax_exemption"
        decided = (f"players.{ev.player}.gold",) if exempt else ()
        noted(ctx, rule, state, decided, "no tax: the tax exemption is played" if exempt else "")
    if queue:
        return state
    return resolve_event(ctx, state) if effect == "protection" else steps_10_to_12(ctx, state)


def choose_archbishop_craftsman(ctx: Ctx, state: State, ev: ChooseArchbishopCraftsman) -> State:
    """PIL-EVENT-04: one own craftsman gets one extra use this round."""
    due(state, "actions", "archbishop", "choosing the archbishop's craftsman")
    if ev.craftsman not in archbishop_choices(ctx, state, ev.player):
        raise RuleViolation(
            "PIL-EVENT-04", f"{ev.craftsman!r} cannot take the archbishop's extra use"
        )
    state = evolve_player(state, ev.player, bonus_craftsman=ev.craftsman)
    state = noted(ctx, "PIL-EVENT-04", evolve(state, queue=without(state.queue, ev.player)))
    if state.queue:
        return state
    # Option archbishop_timing: asked at the event (step 2 follows) or at step 13.
    return (
        to_bishop(ctx, state) if ctx.o.archbishop_timing == "event" else cathedral_turns(ctx, state)
    )


def discard_craftsman(ctx: Ctx, state: State, ev: DiscardCraftsman) -> State:
    """PIL-CRAFT-01 (over the limit) or PIL-EVENT-03 (division event): discard a craftsman."""
    over = ev.player in all_over_limit(ctx, state)
    division = state.stage == "division" and ev.player in state.queue
    if not over and not division:
        raise RuleViolation("PIL-TURN-02", f"{ev.player} has no craftsman to discard now")
    p = state.players[ev.player]
    # PIL-CRAFT-02: the discard is one of the player's own craftsmen; it leaves the game.
    if ev.craftsman not in p.craftsmen:
        raise RuleViolation("PIL-CRAFT-02", f"{ev.player} holds no craftsman {ev.craftsman!r}")
    kept = list(p.craftsmen)
    kept.remove(ev.craftsman)
    p = evolve(p, craftsmen=tuple(kept))
    out = out_of_play(state.craftsmen_out, ev.craftsman)
    if over:
        state = noted(ctx, "PIL-CRAFT-01", with_player(state, ev.player, p, craftsmen_out=out))
        if state.stage == "shiring":
            # Step 10 is over once every Shiring taker is back within the limit.
            still = all_over_limit(ctx, state)
            return evolve(state, queue=still) if still else steps_11_12(ctx, state)
        return state
    state = with_player(
        state, ev.player, p, craftsmen_out=out, queue=without(state.queue, ev.player)
    )
    state = noted(ctx, "PIL-EVENT-03", state)
    return state if state.queue else to_bishop(ctx, state)


def take_bishop_resource(ctx: Ctx, state: State, ev: TakeBishopResource) -> State:
    """PIL-BISHOP-01: on a positive event the occupant takes one cube from the market."""
    due(state, "actions", "bishop", "taking the Bishop's cube")
    if ev.resource not in MARKET_RESOURCES or state.market[ev.resource] < 1:
        raise RuleViolation("PIL-BISHOP-01", f"the market has no {ev.resource} to take")
    market = taken(state.market, {ev.resource: 1})
    p = state.players[ev.player]
    resources = added(p.resources, {ev.resource: 1})
    p = evolve(p, resources=resources)
    state = with_player(state, ev.player, p, market=market, queue=state.queue[1:])
    state = noted(ctx, "PIL-BISHOP-01", state)
    return state if state.queue else steps_3_to_8(ctx, state)


def roll_tax(ctx: Ctx, state: State, ev: RollTax) -> State:
    """PIL-TAX-01: the tax die shows one of its faces."""
    due(state, "actions", "tax", "rolling the tax die")
    if ev.tax not in ctx.t.die_faces:
        raise RuleViolation("PIL-TAX-01", f"the tax die has no face {ev.tax}")
    return apply_tax(ctx, noted(ctx, "PIL-TAX-01", evolve(state, tax=ev.tax)))


# --- step 12: market ---------------------------------------------------------------------


def _next_trader(ctx: Ctx, state: State, rule: str, acted: bool, **changes: Any) -> State:
    """The state with ``changes`` (rule ``rule``'s work); the turn passes to the next trader,
    or step 13 begins."""
    queue = state.queue[1:] + state.queue[:1] if acted else state.queue[1:]
    state = noted(ctx, rule, evolve(state, queue=queue, **changes))
    return state if queue else start_cathedral(ctx, state)


def wood_barred(ctx: Ctx, p: PlayerState, r: str) -> bool:
    """PIL-MARKET-08: without a woodworker no wood can be bought."""
    return r == "wood" and not permitted(ctx, p, "buy_wood")


def buy_back_barred(ctx: Ctx, p: PlayerState, r: str) -> bool:
    """PIL-MARKET-07 (option resale_ban=both_ways): no buying back a type sold this round."""
    return ctx.o.resale_ban == "both_ways" and r in p.sold


def most_affordable(ctx: Ctx, state: State, p: PlayerState, r: str) -> int:
    """PIL-MARKET-05/06: the most cubes of ``r`` the market holds and the player can pay."""
    price = ctx.t.buy_prices[r]
    return min(state.market[r], p.gold // price) if price else state.market[r]


def stone_barred(ctx: Ctx, p: PlayerState, r: str) -> bool:
    """PIL-MARKET-09: without a stonecutter no stone can be sold."""
    return r == "stone" and not permitted(ctx, p, "sell_stone")


def resale_barred(p: PlayerState, r: str) -> bool:
    """PIL-MARKET-07: a type bought this round may not be sold again."""
    return r in p.bought


def buy_resources(ctx: Ctx, state: State, ev: BuyResources) -> State:
    """Buy cubes of one type at the market."""
    due(state, "actions", "market", "buying at the market")
    r = ev.resource
    p = state.players[ev.player]
    # PIL-MARKET-04: metal is never bought.
    if r not in MARKET_RESOURCES:
        raise RuleViolation("PIL-MARKET-04", "metal cannot be bought at the market")
    # PIL-MARKET-05: at least one cube, no more than the market holds.
    if ev.count < 1 or ev.count > state.market[r]:
        raise RuleViolation(
            "PIL-MARKET-05", f"the market holds {state.market[r]} {r}; cannot buy {ev.count}"
        )
    if wood_barred(ctx, p, r):
        raise RuleViolation("PIL-MARKET-08", f"{ev.player} has no woodworker and cannot buy wood")
    if buy_back_barred(ctx, p, r):
        raise RuleViolation("PIL-MARKET-07", f"{ev.player} sold {r} this round and cannot buy it")
    # PIL-MARKET-02/06: the price is paid in gold, which may not go below 0.
    price = ctx.t.buy_prices[r] * ev.count
    if p.gold < price:
        raise RuleViolation(
            "PIL-MARKET-06", f"{ev.count} {r} cost {price} gold; {ev.player} has {p.gold}"
        )
    market = taken(state.market, {r: ev.count})
    resources = added(p.resources, {r: ev.count})
    bought = p.bought if r in p.bought else p.bought + (r,)
    players = dict(state.players)
    players[ev.player] = evolve(p, gold=p.gold - price, resources=resources, bought=bought)
    return _next_trader(ctx, state, "PIL-MARKET-02", True, players=players, market=market)


def sell_resources(ctx: Ctx, state: State, ev: SellResources) -> State:
    """Sell cubes of one type; they go to the general supply."""
    due(state, "actions", "market", "selling at the market")
    r = ev.resource
    p = state.players[ev.player]
    # PIL-MARKET-10: at least one cube, no more than the player holds (owed cubes included,
    # PIL-PROD-02).
    if ev.count < 1 or ev.count > usable(p, r):
        raise RuleViolation(
            "PIL-MARKET-10", f"{ev.player} holds {usable(p, r)} {r}; cannot sell {ev.count}"
        )
    if stone_barred(ctx, p, r):
        raise RuleViolation(
            "PIL-MARKET-09", f"{ev.player} has no stonecutter and cannot sell stone"
        )
    if resale_barred(p, r):
        raise RuleViolation(
            "PIL-MARKET-07", f"{ev.player} bought {r} this round and cannot resell it"
        )
    # PIL-MARKET-12: sold cubes go to the general supply, not the market stock (owed cubes
    # are struck from the note, PIL-PROD-03).
    supply = dict(state.supply)
    resources = dict(p.resources)
    owed = dict(p.owed)
    spend_cubes(resources, owed, supply, r, ev.count)
    sold = p.sold if r in p.sold else p.sold + (r,)
    # PIL-MARKET-03: selling pays the sell price (equal to the buy price; metal 5).
    gold = gold_after(ctx, p.gold, ctx.t.sell_prices[r] * ev.count)
    players = dict(state.players)
    players[ev.player] = evolve(p, resources=resources, owed=owed, sold=sold, gold=gold)
    if ctx.recorder is not None:
        gain = ctx.t.sell_prices[r] * ev.count
        note_work(ctx, "PIL-MARKET-03", state, players=players, supply=supply)
        note_gold_cap(ctx, state, ev.player, p.gold, gain, players=players, supply=supply)
        note_owed(ctx, state, state.players, players=players, supply=supply)
    return _next_trader(ctx, state, "PIL-MARKET-03", True, players=players, supply=supply)


def pass_market(ctx: Ctx, state: State, ev: PassMarket) -> State:
    """PIL-MARKET-01: a player who passes trades no more this round."""
    due(state, "actions", "market", "passing at the market")
    return _next_trader(ctx, state, "PIL-MARKET-01", False)


# --- step 13: cathedral ------------------------------------------------------------------


def use_times_limit(ctx: Ctx, state: State, name: str, cid: str) -> int:
    """How many more times a craftsman can be used now (capacity and inputs)."""
    p = state.players[name]
    c = ctx.t.craftsmen[cid]
    left = c.uses + (1 if p.bonus_craftsman == cid else 0) - p.craftsman_uses.get(cid, 0)
    for what, n in c.input.items():
        held = p.gold if what == "gold" else usable(p, what)
        if n:
            left = min(left, held // n)
    return max(0, left)


def use_craftsman(ctx: Ctx, state: State, ev: UseCraftsman) -> State:
    """Apply a craftsman's formula ``times`` times (PIL-CATH-01)."""
    due(state, "actions", "cathedral", "using a craftsman")
    if state.returning:
        raise RuleViolation(
            "PIL-TURN-02", f"{ev.player} has ended conversions and must return cubes"
        )
    p = state.players[ev.player]
    # PIL-CATH-01: a player converts with their own craftsmen, at least once per use.
    if ev.craftsman not in p.craftsmen or ev.times < 1:
        raise RuleViolation(
            "PIL-CATH-01", f"{ev.player} cannot use {ev.craftsman!r} {ev.times} times"
        )
    c = ctx.t.craftsmen[ev.craftsman]
    # PIL-CATH-05: the tool maker and architect score by themselves.
    if c.automatic:
        raise RuleViolation(
            "PIL-CATH-05", f"{ev.craftsman} scores automatically and is not used by hand"
        )
    # PIL-CATH-04: a mason scores nothing unless its owner holds a mortar mixer.
    if c.needs_family is not None and c.needs_family not in families(ctx, p):
        raise RuleViolation(
            "PIL-CATH-04", f"{ev.player} has no {c.needs_family}, so {ev.craftsman} scores nothing"
        )
    # PIL-CATH-02: at most the printed uses per round (+1 from the archbishop event).
    cap = c.uses + (1 if p.bonus_craftsman == ev.craftsman else 0)
    used = p.craftsman_uses.get(ev.craftsman, 0)
    if used + ev.times > cap:
        raise RuleViolation("PIL-CATH-02", f"{ev.craftsman} has {cap - used} uses left this round")
    # PIL-CATH-03: each use consumes its inputs, which the player must hold (owed cubes
    # count, PIL-PROD-02); used cubes go back to the supply.
    for what, n in c.input.items():
        need = n * ev.times
        held = p.gold if what == "gold" else usable(p, what)
        if held < need:
            raise RuleViolation(
                "PIL-CATH-03", f"{ev.times} uses of {ev.craftsman} need {need} {what}"
            )
    supply = dict(state.supply)
    resources = dict(p.resources)
    owed = dict(p.owed)
    gold = p.gold
    for what, n in c.input.items():
        if what == "gold":
            gold -= n * ev.times
        elif n:
            spend_cubes(resources, owed, supply, what, n * ev.times)
    uses = dict(p.craftsman_uses)
    uses[ev.craftsman] = used + ev.times
    p = evolve(
        p,
        resources=resources,
        owed=owed,
        craftsman_uses=uses,
        gold=gold_after(ctx, gold, c.gold * ev.times),
        vp=vp_after(ctx, p.vp, c.vp * ev.times),
    )
    converted = with_player(state, ev.player, p, supply=supply)
    if ctx.recorder is not None:
        noted(ctx, "PIL-CATH-01", converted)
        note_gold_cap(ctx, converted, ev.player, gold, c.gold * ev.times)
        note_vp_floor(ctx, converted, ev.player, state.players[ev.player].vp, c.vp * ev.times)
        note_owed(ctx, converted, state.players)
    return converted


def end_cathedral(ctx: Ctx, state: State, ev: EndCathedral) -> State:
    """End conversions; PIL-CATH-06: cubes over the limit must then be returned."""
    due(state, "actions", "cathedral", "ending conversions")
    if state.returning:
        raise RuleViolation("PIL-TURN-02", f"{ev.player} must return cubes over the limit")
    if counted_resources(ctx, state.players[ev.player]) > ctx.t.resource_limit:
        return evolve(state, returning=True)
    return cathedral_turn(ctx, state, state.players, state.queue[1:])


def return_resources(ctx: Ctx, state: State, ev: ReturnResources) -> State:
    """PIL-CATH-06: keep any 5 cubes, returning exactly the rest to the board unpaid."""
    due(state, "actions", "cathedral", "returning cubes")
    if not state.returning:
        raise RuleViolation("PIL-TURN-02", f"{ev.player} has not ended conversions")
    p = state.players[ev.player]
    back = {"sand": ev.sand, "wood": ev.wood, "stone": ev.stone, "metal": ev.metal}
    excess = counted_resources(ctx, p) - ctx.t.resource_limit
    if any(n < 0 or n > usable(p, r) for r, n in back.items()):
        raise RuleViolation("PIL-CATH-06", f"{ev.player} cannot return cubes they do not hold")
    if not ctx.t.resource_limit_counts_metal and back["metal"]:
        raise RuleViolation("PIL-CATH-06", "metal does not count against the limit here")
    if sum(back.values()) != excess:
        raise RuleViolation("PIL-CATH-06", f"{ev.player} must return exactly {excess} cubes")
    supply = dict(state.supply)
    resources = dict(p.resources)
    owed = dict(p.owed)
    for r in RESOURCES:
        spend_cubes(resources, owed, supply, r, back[r])
    players = dict(state.players)
    players[ev.player] = evolve(p, resources=resources, owed=owed)
    note_work(ctx, "PIL-CATH-06", state, players=players, supply=supply, returning=False)
    if ctx.recorder is not None:
        working = {"players": players, "supply": supply, "returning": False}
        note_owed(ctx, state, state.players, "returned first, struck from the note", **working)
    return cathedral_turn(ctx, state, players, state.queue[1:], supply=supply, returning=False)
