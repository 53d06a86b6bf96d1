"""Phase III, steps 1-14, in board order: the automatic parts and the hand-overs to the
stages where players (or chance) decide."""

from __future__ import annotations

from typing import Any

from reference.core.stock import Stock, take
from reference.pillars.flow import (
    Ctx,
    add_gold,
    add_vp,
    advantage_with,
    all_over_limit,
    event_affects,
    gold_after,
    grant,
    note_craftsman_limit,
    note_gold_cap,
    note_owed,
    note_vp_floor,
    note_work,
    noted,
    occupants,
    out_of_play,
    pay,
    shortfall_vp,
    turn_order,
    usable,
    vp_after,
    with_player,
)
from reference.pillars.rounds import end_round
from reference.pillars.state import PlayerState, State, evolve

PRODUCTION_ORDER = ("wood", "stone", "sand")
"""Steps 6 (forest), 7 (quarry), 8 (gravel pit)."""


def start_actions(ctx: Ctx, state: State) -> State:
    """Phase III begins: the round's event is revealed (chance)."""
    return evolve(state, phase="actions", stage="event", queue=(), drawn=None)


def after_event_reveal(ctx: Ctx, state: State) -> State:
    """Step 1: protection first (PIL-BISHOP-01), then Thomas decisions (PIL-ADV-09)."""
    assert state.event is not None
    card = ctx.t.events[state.event]
    if card.sign == "negative":
        bishop = occupants(state, "bishop")
        if bishop:
            players = dict(state.players)
            for name in bishop:
                players[name] = evolve(players[name], protected=True)
            state = noted(ctx, "PIL-BISHOP-01", evolve(state, players=players))
        queue = tuple(
            n
            for n in turn_order(state)
            if not state.players[n].protected
            and advantage_with(ctx, state.players[n], "protection")
        )
        if queue:
            return evolve(state, stage="thomas", queue=queue)
    return resolve_event(ctx, state)


def resolve_event(ctx: Ctx, state: State) -> State:
    """PIL-EVENT-01: apply the event to every player it affects, in turn order."""
    assert state.event is not None
    card = ctx.t.events[state.event]
    choosers: list[str] = []
    players = dict(state.players)
    supply = dict(state.supply)
    changed = False
    for name in turn_order(state):
        if not event_affects(ctx, state, name):
            if ctx.recorder is not None:
                _note_spared(ctx, state, name, players, supply)
            continue
        p = players[name]
        if card.effect == "gold" and p.gold < -card.amount:
            # PIL-TAX-02: a fine (William) that cannot be paid costs VP, as a tax does.
            note_work(ctx, "PIL-EVENT-01", state, players=players, supply=supply)
            players[name] = pay(ctx, p, -card.amount)
            note_work(ctx, "PIL-TAX-02", state, players=players, supply=supply)
            changed = True
        elif card.effect == "gold":
            players[name] = (
                add_gold(ctx, p, card.amount) if card.amount >= 0 else pay(ctx, p, -card.amount)
            )
            changed = True
        elif card.effect == "vp":
            players[name] = add_vp(ctx, p, card.amount)
            changed = True
        elif card.effect == "metal":
            grant(players, supply, name, "metal", card.amount)
            changed = True
        elif card.effect == "wool_mill_gold":
            gain = min(p.wool_mill(), card.amount) * ctx.t.wool_mill_gold_per_worker
            players[name] = add_gold(ctx, p, gain)
            changed = True
        elif card.effect == "builders_next_round":
            # PIL-EVENT-05: the city wall leaves the player this many builders next round.
            players[name] = evolve(p, builders_next_round=card.amount)
            changed = True
        elif _must_choose(ctx, state, name, card.effect):
            # PIL-EVENT-03 / PIL-EVENT-04: the player chooses a craftsman next.
            choosers.append(name)
        # yield_per_card acts at production (steps 6-8).
    if changed:
        rule = "PIL-EVENT-05" if card.effect == "builders_next_round" else "PIL-EVENT-01"
        after = noted(ctx, rule, evolve(state, players=players, supply=supply))
        if ctx.recorder is not None:
            _note_event_limits(ctx, state, after)
        state = after
    if choosers:
        stage = "division" if card.effect == "discard_craftsman" else "archbishop"
        return evolve(state, stage=stage, queue=tuple(choosers))
    return to_bishop(ctx, state)


EFFECT_PATHS = {"gold": "gold", "vp": "vp", "metal": "resources.metal", "wool_mill_gold": "gold"}
"""The player's value an event card's effect changes (for a trace point)."""


def _note_event_limits(ctx: Ctx, before: State, after: State) -> None:
    """Trace points once the event has changed the players (``before`` -> ``after``): the
    gold cap on what it paid (PIL-GOLD-01), the VP floor on what it took (PIL-VP-01, a
    fine not paid in full among it) and the metal the supply could not give (PIL-PROD-02)."""
    assert before.event is not None
    card = ctx.t.events[before.event]
    for name in turn_order(before):
        if not event_affects(ctx, before, name):
            continue
        p = before.players[name]
        if card.effect == "gold" and card.amount >= 0:
            note_gold_cap(ctx, after, name, p.gold, card.amount)
        elif card.effect == "gold":
            note_vp_floor(ctx, after, name, p.vp, -shortfall_vp(ctx, p, -card.amount))
        elif card.effect == "vp":
            note_vp_floor(ctx, after, name, p.vp, card.amount)
        elif card.effect == "wool_mill_gold":
            gain = min(p.wool_mill(), card.amount) * ctx.t.wool_mill_gold_per_worker
            note_gold_cap(ctx, after, name, p.gold, gain)
    note_owed(ctx, after, before.players)


def _spared_rule(ctx: Ctx, state: State, name: str) -> tuple[str, str]:
    """The rule by which the round's event leaves player ``name`` alone, and why: protected
    (the Bishop's seat, Thomas), or on the Bishop's seat when a positive event gives its
    occupant the cube only."""
    assert state.event is not None
    if ctx.t.events[state.event].sign != "negative":
        return "PIL-BISHOP-01", "no event: the Bishop's seat takes a cube instead"
    if name in occupants(state, "bishop"):
        return "PIL-BISHOP-01", "spared the event: on the Bishop's seat"
    return "PIL-ADV-09", "spared the event: Thomas was played"


def _note_spared(
    ctx: Ctx, state: State, name: str, players: dict[str, PlayerState], supply: dict[str, Stock]
) -> None:
    """Trace point: the event leaves player ``name`` alone (protected, or on the Bishop's
    seat when a positive event gives its occupant the cube only)."""
    assert state.event is not None
    card = ctx.t.events[state.event]
    field = EFFECT_PATHS.get(card.effect)
    if field is None:
        return
    rule, why = _spared_rule(ctx, state, name)
    decided = (f"players.{name}.{field}",)
    # What the event did to the players before this one is the event's own work.
    note_work(ctx, "PIL-EVENT-01", state, players=players, supply=supply)
    note_work(ctx, rule, state, decided, why, players=players, supply=supply)


def _must_choose(ctx: Ctx, state: State, name: str, effect: str) -> bool:
    if effect == "discard_craftsman":
        return bool(state.players[name].craftsmen)
    # PIL-EVENT-04: asked at the event unless option archbishop_timing moves it to step 13.
    return (
        effect == "craftsman_capacity"
        and ctx.o.archbishop_timing == "event"
        and bool(archbishop_choices(ctx, state, name))
    )


def archbishop_choices(ctx: Ctx, state: State, name: str) -> tuple[str, ...]:
    """PIL-EVENT-04: craftsmen that may take the archbishop's extra use."""
    p = state.players[name]
    return tuple(
        c
        for c in p.craftsmen
        if not ctx.t.craftsmen[c].automatic
        and ctx.t.craftsmen[c].family not in ctx.t.archbishop_excluded
    )


def to_bishop(ctx: Ctx, state: State) -> State:
    """Step 2: on a positive event the Bishop's seat occupant takes a free market cube."""
    assert state.event is not None
    if ctx.t.events[state.event].sign == "positive" and any(state.market.values()):
        queue = occupants(state, "bishop")
        if queue:
            return evolve(state, stage="bishop", queue=queue)
    return steps_3_to_8(ctx, state)


def steps_3_to_8(ctx: Ctx, state: State) -> State:
    """Wool mill, Kingsbridge, Priory and production; then the tax die is rolled.

    The steps work on copies of the players, supply and Kingsbridge, put in the state once."""
    t = ctx.t
    order = turn_order(state)
    # PIL-CARDS-07 (step 3): every worker not placed on a resource card earns gold.
    players = dict(state.players)
    for name in order:
        p = players[name]
        if p.wool_mill():
            players[name] = add_gold(ctx, p, p.wool_mill() * t.wool_mill_gold_per_worker)
    note_work(ctx, "PIL-CARDS-07", state, players=players)
    if ctx.recorder is not None:
        for name in order:
            p = state.players[name]
            gain = p.wool_mill() * t.wool_mill_gold_per_worker
            note_gold_cap(ctx, state, name, p.gold, gain, players=players)
    # PIL-KINGSBRIDGE-01 (step 4): occupants take the advantage card on their space.
    milled = dict(players) if ctx.recorder is not None else players  # as step 4 finds them
    supply = dict(state.supply)
    kingsbridge = dict(state.kingsbridge)
    advantages_out = state.advantages_out
    for space in sorted(state.kingsbridge):
        owner = state.spaces.get(space)
        if owner is not None:
            card_id = kingsbridge.pop(space)
            if take_advantage(ctx, players, supply, owner, card_id):
                advantages_out = out_of_play(advantages_out, card_id)
    note_work(ctx, "PIL-ADV-01", state, players=players, supply=supply)
    if ctx.recorder is not None:
        _note_advantages_taken(ctx, state, milled, players, supply)
    note_work(
        ctx,
        "PIL-KINGSBRIDGE-01",
        state,
        players=players,
        supply=supply,
        kingsbridge=kingsbridge,
        advantages_out=advantages_out,
    )
    # PIL-PRIORY-01 (step 5): 2 VP on the first space, 1 on the second; Philip +1 (PIL-ADV-06).
    for i, vp in enumerate(t.priory_vp, 1):
        owner = state.spaces.get(f"priory_{i}")
        if owner is None:
            continue
        p = players[owner]
        bonus = sum(t.advantages[a].amount for a in advantage_with(ctx, p, "priory_vp"))
        players[owner] = add_vp(ctx, p, vp + bonus)
    note_work(
        ctx,
        "PIL-PRIORY-01",
        state,
        players=players,
        supply=supply,
        kingsbridge=kingsbridge,
        advantages_out=advantages_out,
    )
    if ctx.recorder is not None:
        _note_prior_philip(
            ctx,
            state,
            players=players,
            supply=supply,
            kingsbridge=kingsbridge,
            advantages_out=advantages_out,
        )
    # PIL-PROD-01 (steps 6-8): each resource card yields from the supply, never the market;
    # PIL-PROD-02: what the supply lacks is owed; PIL-PROD-03: served in turn order, owed
    # cubes first (owed metal after step 8).
    fed = dict(players) if ctx.recorder is not None else players  # as production finds them
    resources = {name: dict(players[name].resources) for name in order}
    owed = {name: dict(players[name].owed) for name in order}
    for resource in (*PRODUCTION_ORDER, "metal"):
        for name in order:
            due = owed[name].get(resource, 0)
            if resource != "metal":
                due += production_due(ctx, state, players[name], name, resource)
            if not due:
                continue
            got, supply[resource] = take(supply[resource], due)
            resources[name][resource] += got
            owed[name].pop(resource, None)
            if due > got:
                owed[name][resource] = due - got
    for name in order:
        players[name] = evolve(
            players[name],
            resources=resources[name],
            owed=owed[name],
            resource_cards=(),
            workers_placed=0,
        )
    produced = noted(
        ctx,
        "PIL-PROD-01",
        evolve(
            state,
            players=players,
            supply=supply,
            kingsbridge=kingsbridge,
            advantages_out=advantages_out,
            stage="tax",
            queue=(),
        ),
    )
    if ctx.recorder is not None:
        _note_production(ctx, state, fed, produced)
    return produced


def _note_advantages_taken(
    ctx: Ctx,
    state: State,
    milled: dict[str, PlayerState],
    players: dict[str, PlayerState],
    supply: dict[str, Stock],
) -> None:
    """Trace points once the Kingsbridge cards have acted (step 4; ``state``: before the
    steps, ``milled``: the players as step 4 found them, ``players``: after it): Otto's
    black worker (PIL-ADV-04), an income card's cube with option income_cards ``once``
    (PIL-ADV-02), the gold cap on a gold card (PIL-GOLD-01) and the cubes the supply could
    not give (PIL-PROD-02)."""
    for space in sorted(state.kingsbridge):
        owner = state.spaces.get(space)
        if owner is None:
            continue
        card_id = state.kingsbridge[space]
        card = ctx.t.advantages[card_id]
        if card.effect == "worker":
            why = f"+{card.amount} worker: {card_id}'s black worker, from the next Phase I on"
            path = (f"players.{owner}.workers",)
            note_work(ctx, "PIL-ADV-04", state, path, why, players=players, supply=supply)
        elif card.effect == "income" and ctx.o.income_cards == "once" and card.resource:
            why = f"+{card.amount} {card.resource} once: {card_id}'s income, when taken"
            path = (f"players.{owner}.resources.{card.resource}",)
            note_work(ctx, "PIL-ADV-02", state, path, why, players=players, supply=supply)
        elif card.kind == "immediate" and card.effect == "gold":
            gold = milled[owner].gold
            note_gold_cap(ctx, state, owner, gold, card.amount, players=players, supply=supply)
    note_owed(ctx, state, milled, players=players, supply=supply)


def _note_prior_philip(ctx: Ctx, state: State, **working: Any) -> None:
    """Trace points once the Priory has paid (step 5): Prior Philip's extra VP for each
    Priory space its owner occupies (PIL-ADV-06)."""
    players: dict[str, PlayerState] = working["players"]
    for i in range(1, len(ctx.t.priory_vp) + 1):
        owner = state.spaces.get(f"priory_{i}")
        if owner is None:
            continue
        cards = advantage_with(ctx, players[owner], "priory_vp")
        if cards:
            bonus = sum(ctx.t.advantages[a].amount for a in cards)
            why = f"+{bonus} VP on priory_{i}: {', '.join(cards)}"
            note_work(ctx, "PIL-ADV-06", state, (f"players.{owner}.vp",), why, **working)


def _note_production(ctx: Ctx, state: State, fed: dict[str, PlayerState], produced: State) -> None:
    """Trace points once production (steps 6-8) is noted: for each player as production
    found them (``fed``) and each cube type, the owed cubes delivered first (PIL-PROD-03),
    the event's change to each card's yield (PIL-EVENT-06, or the rule that spared them),
    an income card's cube (PIL-ADV-02) and the cubes the supply could not give, owed
    (PIL-PROD-02)."""
    event = ctx.t.events[state.event] if state.event is not None else None
    for name in turn_order(state):
        p = fed[name]
        owed_path = f"players.{name}.owed"
        for resource in (*PRODUCTION_ORDER, "metal"):
            path = f"players.{name}.resources.{resource}"
            old = p.owed.get(resource, 0)
            due = old
            if resource != "metal":
                due += production_due(ctx, state, p, name, resource)
            left = produced.players[name].owed.get(resource, 0)
            if old:
                why = f"{min(old, due - left)} of {old} owed {resource} delivered first"
                noted(ctx, "PIL-PROD-03", produced, (path, owed_path), why)
            cards = [c for c in p.resource_cards if ctx.t.resource_cards[c].resource == resource]
            if cards and event is not None and event.effect == "yield_per_card":
                if event_affects(ctx, state, name):
                    rule = "PIL-EVENT-06"
                    per = f"{event.amount:+d} {resource} per {resource} card"
                    why = f"{per} ({state.event}): {len(cards)} card(s)"
                else:
                    rule, why = _spared_rule(ctx, state, name)
                noted(ctx, rule, produced, (path,), why)
            if ctx.o.income_cards == "every_round":
                for a in advantage_with(ctx, p, "income"):
                    card = ctx.t.advantages[a]
                    if card.resource == resource:
                        why = f"+{card.amount} {resource}: {a}'s income, every round"
                        noted(ctx, "PIL-ADV-02", produced, (path,), why)
            if left > old:
                why = f"{left} {resource} owed: the general supply gave {due - left} of {due}"
                noted(ctx, "PIL-PROD-02", produced, (owed_path,), why)


def production_due(ctx: Ctx, state: State, p: PlayerState, name: str, resource: str) -> int:
    """This round's cubes of one type for player ``name`` (now ``p``): card yields, event
    change, income card."""
    t = ctx.t
    event = t.events[state.event] if state.event is not None else None
    due = 0
    for cid in p.resource_cards:
        card = t.resource_cards[cid]
        if card.resource != resource:
            continue
        extra = 0
        # PIL-EVENT-06: volunteers / cold winter change each card's yield.
        if event is not None and event.effect == "yield_per_card":
            extra = event.amount if event_affects(ctx, state, name) else 0
        due += max(0, card.yield_ + extra)
    if ctx.o.income_cards == "every_round":
        # PIL-ADV-02: an income card adds its cube every round.
        for a in advantage_with(ctx, p, "income"):
            if t.advantages[a].resource == resource:
                due += t.advantages[a].amount
    return due


def take_advantage(
    ctx: Ctx,
    players: dict[str, PlayerState],
    supply: dict[str, Stock],
    name: str,
    card_id: str,
) -> bool:
    """PIL-ADV-01: an immediate card acts now and leaves play (True); others are kept.
    ``players`` and ``supply`` are working copies, updated in place."""
    card = ctx.t.advantages[card_id]
    p = players[name]
    if card.kind != "immediate":
        # PIL-ADV-04: Otto's black worker joins the player's workers.
        workers = p.workers + card.amount if card.effect == "worker" else p.workers
        players[name] = evolve(p, advantages=p.advantages + (card_id,), workers=workers)
        if card.effect == "income" and ctx.o.income_cards == "once" and card.resource:
            grant(players, supply, name, card.resource, card.amount)
        return False
    if card.effect == "vp":
        players[name] = add_vp(ctx, p, card.amount)
    elif card.effect == "gold":
        players[name] = add_gold(ctx, p, card.amount)
    elif card.effect == "metal":
        grant(players, supply, name, "metal", card.amount)
    else:
        for resource, n in card.resources.items():
            grant(players, supply, name, resource, n)
    return True


def apply_tax(ctx: Ctx, state: State) -> State:
    """PIL-TAX-01 (step 9): King's Court occupants pay nothing (the first takes the metal);
    everyone else pays the die, Francis caps it (PIL-ADV-05), holders of a tax exemption
    decide whether to play it (PIL-ADV-08)."""
    assert state.tax is not None
    court = occupants(state, "kings_court")
    first = state.spaces.get("kings_court_1")
    players = dict(state.players)
    metal = state.kings_court_metal
    if first is not None and metal:
        take = min(metal, ctx.t.kings_court_first_metal)
        p = players[first]
        resources = dict(p.resources)
        resources["metal"] += take
        metal -= take
        players[first] = evolve(p, resources=resources)
        note_work(ctx, "PIL-TAX-01", state, players=players, kings_court_metal=metal)
    deciders: list[str] = []
    for name in turn_order(state):
        if name in court:
            if ctx.recorder is not None:
                why = "no tax: a builder at King's Court"
                note_work(ctx, "PIL-TAX-01", state, _gold(name), why, players=players)
            continue
        if advantage_with(ctx, players[name], "tax_exemption"):
            deciders.append(name)
            if ctx.recorder is not None:
                why = "no tax yet: the tax exemption's holder decides first"
                note_work(ctx, "PIL-ADV-08", state, _gold(name), why, players=players)
            continue
        due = tax_due(ctx, state, name)
        players[name] = pay(ctx, players[name], due)
        if ctx.recorder is not None:
            rule = tax_rule(ctx, state, name, due)
            note_work(ctx, rule, state, _paid(rule, name), f"tax {due}", players=players)
            p = state.players[name]
            note_vp_floor(ctx, state, name, p.vp, -shortfall_vp(ctx, p, due), players=players)
    state = evolve(state, players=players, kings_court_metal=metal)
    if deciders:
        return evolve(state, stage="tax_exemption", queue=tuple(deciders))
    return steps_10_to_12(ctx, state)


def _gold(name: str) -> tuple[str, ...]:
    """The path of a player's gold (for a trace point)."""
    return (f"players.{name}.gold",)


def _paid(rule: str, name: str) -> tuple[str, ...]:
    """The paths a tax payment under ``rule`` decides: the gold, and the VP a shortfall
    (PIL-TAX-02) costs."""
    gold = f"players.{name}.gold"
    return (gold, f"players.{name}.vp") if rule == "PIL-TAX-02" else (gold,)


def tax_due(ctx: Ctx, state: State, name: str) -> int:
    """The tax a player owes this round (Francis caps it)."""
    assert state.tax is not None
    due = state.tax
    for a in advantage_with(ctx, state.players[name], "tax_cap"):
        due = min(due, ctx.t.advantages[a].amount)
    return due


def tax_rule(ctx: Ctx, state: State, name: str, due: int) -> str:
    """The rule a tax payment rests on: PIL-TAX-02 for a shortfall, PIL-ADV-05 when
    Francis caps it, else PIL-TAX-01 (``state``: before the payment)."""
    if state.players[name].gold < due:
        return "PIL-TAX-02"
    return "PIL-ADV-05" if state.tax is not None and due < state.tax else "PIL-TAX-01"


def pay_tax(ctx: Ctx, state: State, name: str) -> State:
    """One player pays the tax (PIL-TAX-02 covers a shortfall)."""
    due = tax_due(ctx, state, name)
    paid = with_player(state, name, pay(ctx, state.players[name], due))
    if ctx.recorder is not None:
        rule = tax_rule(ctx, state, name, due)
        noted(ctx, rule, paid, _paid(rule, name), f"tax {due}")
        p = state.players[name]
        note_vp_floor(ctx, paid, name, p.vp, -shortfall_vp(ctx, p, due))
    return paid


def steps_10_to_12(ctx: Ctx, state: State) -> State:
    """Shiring (free craftsmen), Shiring Castle (grey workers), then the market opens."""
    # PIL-SHIRING-01 (step 10): occupants take the craftsman on their space without paying.
    takers = [(s, state.spaces[s]) for s in sorted(state.shiring) if s in state.spaces]
    if takers:
        shiring = dict(state.shiring)
        players = dict(state.players)
        for space, owner in takers:
            card = shiring.pop(space)
            players[owner] = evolve(players[owner], craftsmen=players[owner].craftsmen + (card,))
        state = noted(ctx, "PIL-SHIRING-01", evolve(state, shiring=shiring, players=players))
        if ctx.recorder is not None:
            for _, owner in takers:
                note_craftsman_limit(ctx, state, owner)
    # PIL-CRAFT-01: a player now over the craftsman limit discards before step 11.
    over = all_over_limit(ctx, state)
    if over:
        return evolve(state, stage="shiring", queue=over)
    return steps_11_12(ctx, state)


def steps_11_12(ctx: Ctx, state: State) -> State:
    """Shiring Castle (grey workers), then the market opens."""
    # PIL-CASTLE-01 (step 11): the occupant takes grey workers for next round.
    castle = occupants(state, "castle")
    if castle:
        players = dict(state.players)
        workers = state.castle_workers
        for owner in castle:
            got, workers = take(workers, ctx.t.castle_grey_workers)
            p = players[owner]
            players[owner] = evolve(p, grey_workers_next=p.grey_workers_next + got)
        state = noted(ctx, "PIL-CASTLE-01", evolve(state, players=players, castle_workers=workers))
    # PIL-MARKET-01 (step 12): builders on the market trade in the order of their spaces.
    builders = occupants(state, "market")
    queue = market_order(ctx, builders)
    if queue:
        market = evolve(state, stage="market", queue=queue)
        if ctx.recorder is not None and len(set(builders)) < len(builders):
            why = MARKET_LAPS[ctx.o.market_builders]
            noted(ctx, "PIL-MARKET-11", market, ("queue",), why)
        return market
    return start_cathedral(ctx, state)


MARKET_LAPS = {
    "first": "several market builders: one turn a lap, at the first of their spaces",
    "last": "several market builders: one turn a lap, at the last of their spaces",
    "each": "several market builders: a turn for each builder",
}
"""What PIL-MARKET-11 gives a player with several market builders, per option
``market_builders`` (for a trace point)."""


def market_order(ctx: Ctx, builders: tuple[str, ...]) -> tuple[str, ...]:
    """PIL-MARKET-11: the turn order of one market lap, from the owners of the market
    spaces in space order. A player with several builders acts once per lap at the first
    of their spaces (``first``), at the last (``last``), or once per builder (``each``)."""
    if ctx.o.market_builders == "each":
        return builders
    position = {owner: i for i, owner in enumerate(builders)}
    if ctx.o.market_builders == "first":
        position = {owner: builders.index(owner) for owner in position}
    return tuple(sorted(position, key=position.__getitem__))


def start_cathedral(ctx: Ctx, state: State) -> State:
    """Step 13 begins with the start player (PIL-CATH-01); with option archbishop_timing
    ``cathedral``, the archbishop's choices come first (PIL-EVENT-04)."""
    if ctx.o.archbishop_timing == "cathedral" and archbishop_round(ctx, state):
        choosers = tuple(
            n
            for n in turn_order(state)
            if event_affects(ctx, state, n) and archbishop_choices(ctx, state, n)
        )
        if choosers:
            return evolve(state, stage="archbishop", queue=choosers)
    return cathedral_turns(ctx, state)


def archbishop_round(ctx: Ctx, state: State) -> bool:
    """Whether this round's event is the archbishop (PIL-EVENT-04)."""
    return state.event is not None and ctx.t.events[state.event].effect == "craftsman_capacity"


def cathedral_turns(ctx: Ctx, state: State) -> State:
    """The step-13 turns, from the start player clockwise (PIL-CATH-01)."""
    return cathedral_turn(
        ctx, state, state.players, turn_order(state), stage="cathedral", returning=False
    )


def cathedral_turn(
    ctx: Ctx,
    state: State,
    players: dict[str, PlayerState],
    queue: tuple[str, ...],
    **changes: Any,
) -> State:
    """The step-13 turn passes to the head of ``queue`` (in the state with ``players``
    and ``changes``). PIL-CATH-05: a player's automatic craftsmen (tool maker, architect)
    score when their step-13 turn begins; with nobody left, the round ends."""
    if not queue:
        return end_round(ctx, evolve(state, players=players, queue=queue, **changes))
    name = queue[0]
    p = players[name]
    uses = p.craftsman_uses
    gold, vp = p.gold, p.vp
    scored = False
    for cid in p.craftsmen:
        c = ctx.t.craftsmen[cid]
        if not c.automatic or uses.get(cid, 0):
            continue
        if c.needs_metal and usable(p, "metal") < 1:
            continue
        if not scored:
            uses = dict(uses)  # a new dict: the state's own is never changed
        uses[cid] = 1
        gold = gold_after(ctx, gold, c.gold)
        vp = vp_after(ctx, vp, c.vp)
        scored = True
    if scored:
        players = dict(players)
        players[name] = evolve(p, craftsman_uses=uses, gold=gold, vp=vp)
        note_work(ctx, "PIL-CATH-05", state, players=players, queue=queue, **changes)
        if ctx.recorder is not None:
            gain = sum(ctx.t.craftsmen[c].gold for c in uses if not p.craftsman_uses.get(c))
            working = {"players": players, "queue": queue, **changes}
            note_gold_cap(ctx, state, name, p.gold, gain, **working)
    return evolve(state, players=players, queue=queue, **changes)
