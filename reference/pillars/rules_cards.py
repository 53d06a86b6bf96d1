"""Round preparation reveals, Phase I (cards) and Phase II (master builders)."""

from __future__ import annotations

from typing import Any

from reference.core.errors import RuleViolation
from reference.core.state import added, taken
from reference.pillars.events import (
    DrawMasterBuilder,
    PassCards,
    PassMasterBuilder,
    PlaceMasterBuilder,
    RevealAdvantages,
    RevealCraftsmen,
    RevealResourceCards,
    ReviewDrawnBuilder,
    TakeCraftsman,
    TakeResourceCard,
)
from reference.pillars.flow import (
    ORDERED_LOCATIONS,
    Ctx,
    advantage_with,
    evolve_player,
    location_of,
    note_craftsman_limit,
    note_work,
    noted,
    out_of_play,
)
from reference.pillars.rounds import start_cards_phase
from reference.pillars.state import PlayerState, State, evolve
from reference.pillars.steps import start_actions


def due(state: State, phase: str, stage: str, what: str) -> None:
    """PIL-TURN-02: an action is only taken in its own phase and step."""
    if state.phase != phase or state.stage != stage:
        raise RuleViolation(
            "PIL-TURN-02", f"{what} is not due now (round {state.round}, {state.stage})"
        )


# --- round preparation (chance) ---------------------------------------------------------


def reveal_advantages(ctx: Ctx, state: State, ev: RevealAdvantages) -> State:
    """PIL-ROUND-01: the next advantage cards go to the Kingsbridge spaces."""
    due(state, "prepare", "advantages", "revealing advantage cards")
    last = state.round == ctx.t.rounds
    pool = ctx.t.last_round_advantages() if last else state.advantage_deck
    n = ctx.t.advantages_per_round
    if len(ev.cards) != n or len(set(ev.cards)) != n or not set(ev.cards) <= set(pool):
        raise RuleViolation(
            "PIL-ROUND-01",
            f"round {state.round} reveals {n} different cards from {', '.join(pool)}",
        )
    deck = tuple(c for c in state.advantage_deck if c not in ev.cards)
    kingsbridge = {f"kingsbridge_{i}": c for i, c in enumerate(ev.cards, 1)}
    return evolve(state, advantage_deck=deck, kingsbridge=kingsbridge, stage="craftsmen")


def reveal_craftsmen(ctx: Ctx, state: State, ev: RevealCraftsmen) -> State:
    """PIL-ROUND-02: of the round's 4 craftsmen, 2 go to Shiring, the rest are for sale."""
    due(state, "prepare", "craftsmen", "revealing craftsmen")
    mine = tuple(c for c in state.craftsman_deck if ctx.t.craftsmen[c].round == state.round)
    n = ctx.t.shiring_per_round
    if len(ev.shiring) != n or len(set(ev.shiring)) != n or not set(ev.shiring) <= set(mine):
        raise RuleViolation(
            "PIL-ROUND-02", f"Shiring takes {n} different cards of round {state.round}"
        )
    deck = tuple(c for c in state.craftsman_deck if c not in mine)
    shiring = {f"shiring_{i}": c for i, c in enumerate(ev.shiring, 1)}
    for_sale = tuple(c for c in mine if c not in ev.shiring)
    return evolve(
        state, craftsman_deck=deck, shiring=shiring, card_supply=for_sale, stage="resource_cards"
    )


def reveal_resource_cards(ctx: Ctx, state: State, ev: RevealResourceCards) -> State:
    """PIL-ROUND-03: all 9 resource cards are shuffled, 7 revealed, the rest set aside."""
    due(state, "prepare", "resource_cards", "revealing resource cards")
    cards = tuple(ctx.t.resource_cards)
    n = len(cards) - ctx.t.resource_cards_revealed
    aside = ev.set_aside
    if len(aside) != n or len(set(aside)) != n or not set(aside) <= set(cards):
        raise RuleViolation("PIL-ROUND-03", f"exactly {n} different resource cards are set aside")
    revealed = tuple(c for c in cards if c not in aside)
    return start_cards_phase(evolve(state, card_supply=revealed + state.card_supply))


# --- Phase I ---------------------------------------------------------------------------


def _after_take(
    ctx: Ctx,
    state: State,
    rule: str,
    name: str,
    player: PlayerState,
    card_supply: tuple[str, ...],
) -> State:
    """PIL-CARDS-01: the turn passes clockwise; PIL-CARDS-06: the phase ends when the
    supply is empty or everyone has passed, and unsold craftsmen leave the game."""
    queue = state.queue[1:] + state.queue[:1]
    return _maybe_end_cards(ctx, state, rule, name, player, card_supply, queue)


def _maybe_end_cards(
    ctx: Ctx,
    state: State,
    rule: str,
    name: str,
    player: PlayerState,
    card_supply: tuple[str, ...],
    queue: tuple[str, ...],
) -> State:
    """The state with player ``name``, the card supply and the queue replaced (rule
    ``rule``'s work); Phase II begins if the supply is empty or nobody is left
    (PIL-CARDS-06)."""
    players = dict(state.players)
    players[name] = player
    if card_supply and queue:
        return evolve(state, players=players, card_supply=card_supply, queue=queue)
    note_work(ctx, rule, state, players=players, card_supply=card_supply, queue=queue)
    left = tuple(c for c in card_supply if c in ctx.t.craftsmen)
    bag = {n: p.master_builders for n, p in players.items()}
    ended = evolve(
        state,
        players=players,
        card_supply=(),
        craftsmen_out=out_of_play(state.craftsmen_out, *left),
        phase="builders",
        stage="draw",
        queue=(),
        bag=bag,
        draws=0,
        drawn=None,
        cost=ctx.t.cost_start,
        passed_builders=(),
        spaces={},
    )
    return noted(ctx, "PIL-CARDS-06", ended)


def take_resource_card(ctx: Ctx, state: State, ev: TakeResourceCard) -> State:
    """Take a building resource card, placing its workers."""
    due(state, "cards", "choose", "taking a card")
    # PIL-CARDS-02: only a card lying in this round's supply can be taken.
    if ev.card not in state.card_supply or ev.card not in ctx.t.resource_cards:
        raise RuleViolation("PIL-CARDS-02", f"resource card {ev.card} is not in the supply")
    card = ctx.t.resource_cards[ev.card]
    p = state.players[ev.player]
    # PIL-CARDS-03: the card's workers must be available (not already placed).
    free = p.available_workers() - p.workers_placed
    if card.workers > free:
        raise RuleViolation(
            "PIL-CARDS-03", f"{ev.card} needs {card.workers} workers; {ev.player} has {free}"
        )
    p = evolve(
        p,
        workers_placed=p.workers_placed + card.workers,
        resource_cards=p.resource_cards + (ev.card,),
    )
    supply = tuple(c for c in state.card_supply if c != ev.card)
    return _after_take(ctx, state, "PIL-CARDS-03", ev.player, p, supply)


def take_craftsman(ctx: Ctx, state: State, ev: TakeCraftsman) -> State:
    """Buy a craftsman from the Phase I supply."""
    due(state, "cards", "choose", "taking a card")
    # PIL-CARDS-02: only a card lying in this round's supply can be taken.
    if ev.card not in state.card_supply or ev.card not in ctx.t.craftsmen:
        raise RuleViolation("PIL-CARDS-02", f"craftsman {ev.card} is not in the supply")
    cost = ctx.t.craftsmen[ev.card].cost
    p = state.players[ev.player]
    # PIL-CARDS-04: the printed cost is paid in gold; without enough gold, no purchase.
    if p.gold < cost:
        raise RuleViolation(
            "PIL-CARDS-04", f"{ev.card} costs {cost} gold; {ev.player} has {p.gold}"
        )
    p = evolve(p, gold=p.gold - cost, craftsmen=p.craftsmen + (ev.card,))
    supply = tuple(c for c in state.card_supply if c != ev.card)
    taken = _after_take(ctx, state, "PIL-CARDS-04", ev.player, p, supply)
    if ctx.recorder is not None and len(p.craftsmen) > ctx.t.craftsman_limit:
        note_craftsman_limit(ctx, noted(ctx, "PIL-CARDS-04", taken), ev.player)
    return taken


def pass_cards(ctx: Ctx, state: State, ev: PassCards) -> State:
    """PIL-CARDS-05: a player who passes takes no more cards this round."""
    due(state, "cards", "choose", "passing in Phase I")
    p = evolve(state.players[ev.player], passed_cards=True)
    return _maybe_end_cards(
        ctx, state, "PIL-CARDS-05", ev.player, p, state.card_supply, state.queue[1:]
    )


# --- Phase II --------------------------------------------------------------------------


def draw_master_builder(ctx: Ctx, state: State, ev: DrawMasterBuilder) -> State:
    """PIL-BUILD-01: builders come out of the bag one at a time."""
    due(state, "builders", "draw", "drawing a master builder")
    if state.bag.get(ev.owner, 0) < 1:
        raise RuleViolation("PIL-BUILD-01", f"no master builder of {ev.owner} is in the bag")
    bag = taken(state.bag, {ev.owner: 1})
    review = ctx.o.start_player_rejects and not state.players[state.start_player].reject_used
    return evolve(
        state,
        bag=bag,
        drawn=ev.owner,
        draws=state.draws + 1,
        stage="review" if review else "decide",
    )


def review_drawn_builder(ctx: Ctx, state: State, ev: ReviewDrawnBuilder) -> State:
    """PIL-BUILD-08 (option start_player_rejects): once a round the start player may put
    a drawn builder back in the bag; the cost marker stays."""
    if not ctx.o.start_player_rejects:
        raise RuleViolation(
            "PIL-BUILD-08", "rejecting a drawn builder needs option start_player_rejects"
        )
    due(state, "builders", "review", "reviewing a drawn builder")
    if not ev.reject:
        return evolve(state, stage="decide")
    assert state.drawn is not None
    bag = added(state.bag, {state.drawn: 1})
    state = evolve_player(state, ev.player, reject_used=True)
    return evolve(state, bag=bag, drawn=None, draws=state.draws - 1, stage="draw")


def placement_cost(ctx: Ctx, state: State) -> int:
    """PIL-BUILD-02/04/05: the cost marker's value; free from the 8th draw and for passed
    builders placed after the bag is empty."""
    if state.stage == "place_passed" or state.draws >= ctx.t.free_from_draw:
        return 0
    return state.cost


def free_spaces(ctx: Ctx, state: State) -> tuple[str, ...]:
    """PIL-BUILD-07/11: empty spaces a builder may take (ordered locations fill from the
    first, unless option ordered_spaces is any_free)."""
    result: list[str] = []
    taken = state.spaces
    in_order = ctx.o.ordered_spaces == "first_free"
    for loc, spaces in ctx.locations:
        if in_order and loc in ORDERED_LOCATIONS:
            for space in spaces:
                if space not in taken:
                    result.append(space)
                    break
        else:
            result += [space for space in spaces if space not in taken]
    return tuple(result)


def space_free(ctx: Ctx, state: State, space: str) -> bool:
    """Whether a builder may take ``space`` (a space of the board): it is empty and, where
    ordered locations fill from the first, every earlier space of its location is taken
    (PIL-BUILD-07/11). ``free_spaces`` lists exactly the spaces this holds for."""
    taken = state.spaces
    return space not in taken and taken.keys() >= ctx.filled_first[space]


def _after_decision(ctx: Ctx, state: State, **changes: Any) -> State:
    """PIL-BUILD-03: either way the cost marker moves down; then the next draw, the passed
    builders (PIL-BUILD-05), or Phase III."""
    if any(state.bag.values()):
        nxt = evolve(state, cost=max(0, state.cost - 1), drawn=None, stage="draw", **changes)
        return noted(ctx, "PIL-BUILD-03", nxt)
    # PIL-BUILD-06: with the bag empty the cost marker goes to 0; passed builders are free.
    state = noted(
        ctx, "PIL-BUILD-06", evolve(state, cost=0, drawn=None, stage="place_passed", **changes)
    )
    return state if state.passed_builders else start_actions(ctx, state)


def cost_rule(ctx: Ctx, state: State, remigius: bool) -> tuple[str, str]:
    """The rule that prices a placement now, and the price in words (explanations only)."""
    if remigius:
        return "PIL-ADV-10", "cost 0: Remigius places this builder free"
    if state.stage == "place_passed":
        return "PIL-BUILD-05", "cost 0: a passed builder is placed free once the bag is empty"
    if state.draws >= ctx.t.free_from_draw:
        first = ctx.t.free_from_draw
        return "PIL-BUILD-04", f"cost 0: draw {state.draws} is free (from draw {first} on)"
    if state.cost == 0:
        return "PIL-BUILD-03", "cost 0: the cost marker stands at 0"
    return "PIL-BUILD-02", f"cost {state.cost}: the cost marker"


def place_master_builder(ctx: Ctx, state: State, ev: PlaceMasterBuilder) -> State:
    """Put a builder on a master-builder space."""
    if state.phase != "builders" or state.stage not in ("decide", "place_passed"):
        raise RuleViolation(
            "PIL-TURN-02", f"placing a master builder is not due now ({state.stage})"
        )
    # PIL-BUILD-07: the space exists and is empty; PIL-BUILD-11: ordered spaces fill in order.
    if ev.space not in ctx.filled_first:
        raise RuleViolation("PIL-BUILD-07", f"there is no master-builder space {ev.space!r}")
    if ev.space in state.spaces:
        raise RuleViolation("PIL-BUILD-07", f"{ev.space} is already occupied")
    if not space_free(ctx, state, ev.space):
        raise RuleViolation("PIL-BUILD-11", f"{location_of(ev.space)} spaces fill from the first")
    p = state.players[ev.player]
    cost = placement_cost(ctx, state)
    advantages = p.advantages
    changes: dict[str, Any] = {}
    if ev.remigius:
        # PIL-ADV-10: Remigius places one drawn builder free, once, when it would cost gold.
        cards = advantage_with(ctx, p, "free_builder")
        if not cards or state.stage != "decide" or cost == 0:
            raise RuleViolation(
                "PIL-ADV-10", "Remigius frees one paid placement of a drawn builder you hold it for"
            )
        advantages = tuple(a for a in advantages if a != cards[0])
        changes["advantages_out"] = out_of_play(state.advantages_out, cards[0])
        cost = 0
    # PIL-BUILD-02: placing costs the current cost; a player who cannot pay must pass.
    if p.gold < cost:
        raise RuleViolation("PIL-BUILD-02", f"placing costs {cost} gold; {ev.player} has {p.gold}")
    spaces = dict(state.spaces)
    spaces[ev.space] = ev.player
    players = state.players
    if cost or ev.remigius:
        players = dict(players)
        players[ev.player] = evolve(p, gold=p.gold - cost, advantages=advantages)
    if ctx.recorder is not None:
        rule, why = cost_rule(ctx, state, ev.remigius)
        gold = (f"players.{ev.player}.gold",)
        note_work(ctx, rule, state, gold, why, players=players, spaces=spaces)
        _note_second_space(ctx, state, ev, players=players, spaces=spaces)
    if state.stage == "place_passed":
        rest = state.passed_builders[1:]
        state = evolve(state, players=players, spaces=spaces, passed_builders=rest, **changes)
        return state if rest else start_actions(ctx, state)
    return _after_decision(ctx, state, players=players, spaces=spaces, **changes)


def _note_second_space(ctx: Ctx, state: State, ev: PlaceMasterBuilder, **working: Any) -> None:
    """Trace point once a builder is placed: PIL-BUILD-10 when its owner already occupies
    another space of the same location (nothing forbids it)."""
    location = location_of(ev.space)
    for space, owner in state.spaces.items():
        if owner == ev.player and location_of(space) == location:
            why = f"a second space of {location}: {space} is {ev.player}'s too"
            note_work(ctx, "PIL-BUILD-10", state, (f"spaces.{ev.space}",), why, **working)
            return


def pass_master_builder(ctx: Ctx, state: State, ev: PassMasterBuilder) -> State:
    """Pass: the builder waits on the cost track (PIL-BUILD-05)."""
    due(state, "builders", "decide", "passing a drawn builder")
    # PIL-BUILD-04: from the 8th draw placement is free and mandatory.
    if state.draws >= ctx.t.free_from_draw:
        raise RuleViolation("PIL-BUILD-04", f"draw {state.draws} is free and must be placed")
    passed = state.passed_builders + (ev.player,)
    if ctx.recorder is not None:
        gold = (f"players.{ev.player}.gold",)
        why = "no cost: a passed builder waits, to be placed free later"
        note_work(ctx, "PIL-BUILD-05", state, gold, why, passed_builders=passed)
    return _after_decision(ctx, state, passed_builders=passed)
