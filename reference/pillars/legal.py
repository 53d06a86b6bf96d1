"""Who acts next, every legal event, and chance outcomes with their probabilities."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, permutations
from typing import Any

from reference.core.game import CHANCE
from reference.pillars.events import (
    BuyResources,
    ChooseArchbishopCraftsman,
    DiscardCraftsman,
    DrawMasterBuilder,
    EndCathedral,
    PassCards,
    PassMarket,
    PassMasterBuilder,
    PlaceMasterBuilder,
    PlayAdvantage,
    ReturnResources,
    RevealAdvantages,
    RevealCraftsmen,
    RevealEvent,
    RevealResourceCards,
    ReviewDrawnBuilder,
    RollTax,
    SellResources,
    TakeBishopResource,
    TakeCraftsman,
    TakeResourceCard,
    UseCraftsman,
)
from reference.pillars.flow import (
    Ctx,
    advantage_with,
    all_over_limit,
    counted_resources,
    craftsman_limit,
    over_limit,
    over_own_limit,
    usable,
)
from reference.pillars.rules_actions import (
    buy_back_barred,
    most_affordable,
    resale_barred,
    stone_barred,
    use_times_limit,
    wood_barred,
)
from reference.pillars.rules_cards import free_spaces, placement_cost
from reference.pillars.state import State
from reference.pillars.steps import archbishop_choices
from reference.pillars.tables import MARKET_RESOURCES, RESOURCES

CHANCE_STAGES = frozenset({"advantages", "craftsmen", "resource_cards", "draw", "event", "tax"})


def to_act(ctx: Ctx, state: State) -> str:
    """The player to decide next, or CHANCE."""
    if state.phase == "over":
        return state.start_player
    # PIL-CRAFT-01: a player over the craftsman limit discards before anything else.
    over = over_limit(ctx, state)
    if over is not None:
        return over
    if state.stage in CHANCE_STAGES:
        return CHANCE
    if state.stage == "decide":
        assert state.drawn is not None
        return state.drawn
    if state.stage == "review":
        return state.start_player
    if state.stage == "place_passed":
        return state.passed_builders[0]
    return state.queue[0]


INDEPENDENT_STAGES = frozenset({"thomas", "tax_exemption", "archbishop", "division"})
"""Stages whose queued decisions are each player's own and change nothing another player
decides: any queued player may act first (the queue is in turn order)."""


def pending(ctx: Ctx, state: State, actor: str | None = None) -> tuple[str, ...]:
    """Every player whose decision is due now, in turn order (``to_act`` is the first):
    all players over the craftsman limit (PIL-CRAFT-01), all players queued at an
    independent stage, or else the one player (or CHANCE) to act. ``actor`` is
    ``to_act(ctx, state)`` when the caller has it already."""
    if actor is None:
        actor = to_act(ctx, state)
    if state.phase != "over":
        # Someone is over the limit exactly when to_act names a player over the limit.
        if over_own_limit(ctx, state, actor):
            return all_over_limit(ctx, state)
        if state.stage in INDEPENDENT_STAGES:
            return state.queue
    return (actor,)


WHY_STAGE = {
    "thomas": "holds Thomas and decides whether to play it against the negative event (PIL-ADV-09)",
    "tax_exemption": "holds a tax exemption, is not at King's Court, and decides whether to "
    "play it (PIL-ADV-08)",
    "archbishop": "names a craftsman for the archbishop's extra use (PIL-EVENT-04)",
    "division": "discards a craftsman under the division event (PIL-EVENT-03)",
    "bishop": "occupies the Bishop's seat and takes a market cube on a positive event "
    "(PIL-BISHOP-01)",
    "choose": "takes a card or passes in Phase I, clockwise from the start player (PIL-CARDS-01)",
    "review": "is the start player and may return the drawn builder to the bag (PIL-BUILD-08)",
    "decide": "owns the drawn master builder and places or passes it (PIL-TURN-01)",
    "place_passed": "places a passed builder, in the order they passed (PIL-BUILD-05)",
    "shiring": "took a Shiring craftsman and owes a discard before step 11 (PIL-CRAFT-01)",
    "market": "trades at the market, in the order of the market spaces (PIL-MARKET-01, "
    "PIL-MARKET-11)",
    "cathedral": "converts at step 13, from the start player clockwise (PIL-CATH-01)",
}
"""Why the player to act is asked, per stage (what a PIL-TURN-01 verdict adds)."""


def why_to_act(ctx: Ctx, state: State, name: str) -> str:
    """Why ``name`` is asked now, with the rule id."""
    p = state.players.get(name)
    if p is None:
        return ""
    if name in all_over_limit(ctx, state):
        return (
            f"{name} holds {len(p.craftsmen)} craftsmen, more than the limit of "
            f"{craftsman_limit(ctx, p)}, and owes a discard (PIL-CRAFT-01)"
        )
    if state.stage == "cathedral" and state.returning:
        return f"{name} ended conversions over the resource limit and returns cubes (PIL-CATH-06)"
    reason = WHY_STAGE.get(state.stage)
    return f"{name} {reason}" if reason else ""


def chance_outcomes(ctx: Ctx, state: State) -> list[tuple[Any, float]]:
    """Each chance outcome with its probability, in a stable order."""
    t = ctx.t
    if over_limit(ctx, state) is not None or state.stage not in CHANCE_STAGES:
        return []
    if state.phase == "over":
        return []
    if state.stage == "advantages":
        n = t.advantages_per_round
        last = state.round == t.rounds
        pool = t.last_round_advantages() if last else state.advantage_deck
        adv = [RevealAdvantages(tuple(p)) for p in permutations(pool, n)]
        return [(e, 1 / len(adv)) for e in adv]
    if state.stage == "craftsmen":
        mine = [c for c in state.craftsman_deck if t.craftsmen[c].round == state.round]
        crafts = [RevealCraftsmen(tuple(p)) for p in permutations(mine, t.shiring_per_round)]
        return [(e, 1 / len(crafts)) for e in crafts]
    if state.stage == "resource_cards":
        n = len(t.resource_cards) - t.resource_cards_revealed
        res = [RevealResourceCards(c) for c in combinations(t.resource_cards, n)]
        return [(e, 1 / len(res)) for e in res]
    if state.stage == "draw":
        total = sum(state.bag.values())
        return [
            (DrawMasterBuilder(name), state.bag[name] / total)
            for name in state.seats
            if state.bag.get(name, 0)
        ]
    if state.stage == "event":
        unseen = state.events_unseen
        return [(RevealEvent(e), 1 / len(unseen)) for e in unseen]
    faces = sorted(set(t.die_faces))
    count = len(t.die_faces)
    return [(RollTax(f), float(Fraction(t.die_faces.count(f), count))) for f in faces]


def legal_events(ctx: Ctx, state: State) -> list[Any]:
    """Every legal event here, in a stable order."""
    if state.phase == "over":
        return []
    actor = to_act(ctx, state)
    if actor == CHANCE:
        return [e for e, _ in chance_outcomes(ctx, state)]
    # Every pending player's decisions (a set of independent decisions: any order).
    return [e for name in pending(ctx, state) for e in _player_events(ctx, state, name)]


def _player_events(ctx: Ctx, state: State, actor: str) -> list[Any]:
    """Every legal event of one pending player."""
    p = state.players[actor]
    if over_limit(ctx, state) is not None:
        return [DiscardCraftsman(actor, c) for c in p.craftsmen]
    stage = state.stage
    out: list[Any] = []
    if stage == "choose":
        free = p.available_workers() - p.workers_placed
        for card in state.card_supply:
            if card in ctx.t.resource_cards:
                if ctx.t.resource_cards[card].workers <= free:
                    out.append(TakeResourceCard(actor, card))
            elif ctx.t.craftsmen[card].cost <= p.gold:
                out.append(TakeCraftsman(actor, card))
        out.append(PassCards(actor))
    elif stage == "review":
        out += [ReviewDrawnBuilder(actor, False), ReviewDrawnBuilder(actor, True)]
    elif stage in ("decide", "place_passed"):
        cost = placement_cost(ctx, state)
        remigius = stage == "decide" and cost > 0 and advantage_with(ctx, p, "free_builder")
        for space in free_spaces(ctx, state):
            if p.gold >= cost:
                out.append(PlaceMasterBuilder(actor, space))
            if remigius:
                out.append(PlaceMasterBuilder(actor, space, True))
        if stage == "decide" and state.draws < ctx.t.free_from_draw:
            out.append(PassMasterBuilder(actor))
    elif stage in ("thomas", "tax_exemption"):
        effect = "protection" if stage == "thomas" else "tax_exemption"
        for card in advantage_with(ctx, p, effect):
            out += [PlayAdvantage(actor, card, True), PlayAdvantage(actor, card, False)]
    elif stage == "division":
        out += [DiscardCraftsman(actor, c) for c in p.craftsmen]
    elif stage == "archbishop":
        out += [ChooseArchbishopCraftsman(actor, c) for c in archbishop_choices(ctx, state, actor)]
    elif stage == "bishop":
        out += [TakeBishopResource(actor, r) for r in MARKET_RESOURCES if state.market[r] > 0]
    elif stage == "market":
        out += _market_events(ctx, state, actor)
    elif stage == "cathedral":
        out += _cathedral_events(ctx, state, actor)
    return out


def _market_events(ctx: Ctx, state: State, actor: str) -> list[Any]:
    p = state.players[actor]
    out: list[Any] = []
    # The same predicates buy_resources and sell_resources check (PIL-MARKET-05..10).
    for r in MARKET_RESOURCES:
        if wood_barred(ctx, p, r) or buy_back_barred(ctx, p, r):
            continue
        most = most_affordable(ctx, state, p, r)
        out += [BuyResources(actor, r, n) for n in range(1, most + 1)]
    for r in RESOURCES:
        if resale_barred(p, r) or stone_barred(ctx, p, r):
            continue
        out += [SellResources(actor, r, n) for n in range(1, usable(p, r) + 1)]
    out.append(PassMarket(actor))
    return out


def _cathedral_events(ctx: Ctx, state: State, actor: str) -> list[Any]:
    p = state.players[actor]
    if state.returning:
        excess = counted_resources(ctx, p) - ctx.t.resource_limit
        kinds = RESOURCES if ctx.t.resource_limit_counts_metal else RESOURCES[:3]
        held = {r: usable(p, r) for r in RESOURCES}
        return [ReturnResources(actor, *combo) for combo in _splits(excess, kinds, held)]
    out: list[Any] = []
    fams = {ctx.t.craftsmen[c].family for c in p.craftsmen}
    for cid in p.craftsmen:
        c = ctx.t.craftsmen[cid]
        if c.automatic or (c.needs_family is not None and c.needs_family not in fams):
            continue
        most = use_times_limit(ctx, state, actor, cid)
        out += [UseCraftsman(actor, cid, n) for n in range(1, most + 1)]
    out.append(EndCathedral(actor))
    return out


def _splits(total: int, kinds: tuple[str, ...], held: dict[str, int]) -> list[tuple[int, ...]]:
    """Every way to return ``total`` cubes from what is held, as (sand, wood, stone, metal)."""
    result: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: tuple[int, ...]) -> None:
        if i == len(kinds):
            if left == 0:
                result.append(acc + (0,) * (4 - len(acc)))
            return
        for n in range(min(left, held[kinds[i]]) + 1):
            rec(i + 1, left - n, acc + (n,))

    rec(0, total, ())
    return result


__all__ = ["legal_events", "chance_outcomes", "to_act", "pending", "why_to_act"]
