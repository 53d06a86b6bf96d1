"""Cheap soundness checks run after every event."""

from __future__ import annotations

from collections.abc import Mapping

from reference.pillars.flow import Ctx
from reference.pillars.state import PHASES, State

_NO_QUEUE_STAGES = frozenset({"draw", "event", "tax", "decide", "review", "place_passed", "over"})


def invariant_failures(ctx: Ctx, state: State) -> list[str]:
    """Every broken invariant: cubes, cards, builders and grey workers conserved, no
    negative stock, turn order sane."""
    t = ctx.t
    bad: list[str] = []
    players = state.players
    if tuple(players) != state.seats:
        bad.append("players are not keyed in seat order")
    if state.start_player not in players:
        bad.append(f"start player {state.start_player!r} is not a player")
    if not 1 <= state.round <= t.rounds or state.phase not in PHASES:
        bad.append(f"round {state.round} / phase {state.phase!r} out of bounds")
    supply, market = state.supply, state.market
    if min(supply.values()) < 0 or min(market.values()) < 0 or state.kings_court_metal < 0:
        bad.append("negative stock in the supply, market or King's Court")
    sand = supply["sand"] + market["sand"]
    wood = supply["wood"] + market["wood"]
    stone = supply["stone"] + market["stone"]
    metal = supply["metal"] + state.kings_court_metal
    crafts = len(state.craftsman_deck) + len(state.shiring) + len(state.craftsmen_out)
    for c in state.card_supply:
        if c in t.craftsmen:
            crafts += 1
    advantages = len(state.advantage_deck) + len(state.kingsbridge) + len(state.advantages_out)
    grey = state.castle_workers
    builders = state.phase in ("builders", "actions")
    # Master builders are counted in the bag, on the board, passed, and the one drawn.
    bag = state.bag
    on_board = list(state.spaces.values()) if builders else []
    passed = state.passed_builders
    drawn = state.drawn
    for name, p in players.items():
        r = p.resources
        sand += r["sand"]
        wood += r["wood"]
        stone += r["stone"]
        metal += r["metal"]
        crafts += len(p.craftsmen)
        advantages += len(p.advantages)
        grey += p.grey_workers + p.grey_workers_next
        if p.workers_placed > p.workers + p.grey_workers:
            bad.append(f"{name}: more workers placed than available")
        if builders:
            count = bag.get(name, 0) + on_board.count(name) + passed.count(name)
            if drawn == name:
                count += 1
            if count != p.master_builders:
                bad.append(f"{name}: {count} master builders, {p.master_builders} owned")
    cubes = t.cubes
    if (sand, wood, stone, metal) != (cubes["sand"], cubes["wood"], cubes["stone"], cubes["metal"]):
        for kind, n in (("sand", sand), ("wood", wood), ("stone", stone), ("metal", metal)):
            if n != cubes[kind]:
                bad.append(f"{kind} cubes: {n} in play, {cubes[kind]} in the game")
    expected = len(t.craftsmen) + len(t.starting_craftsmen) * (len(state.seats) - 1)
    if crafts != expected:
        bad.append(f"craftsman cards: {crafts} found, {expected} in the game")
    if advantages > len(t.advantages):
        bad.append("more advantage cards in play than exist")
    if len(state.events_unseen) + len(state.events_seen) != len(t.events):
        bad.append("event cards are not conserved")
    if grey != t.grey_workers:
        bad.append(f"grey workers: {grey} found, {t.grey_workers} in the game")
    if builders and min(bag.values(), default=0) < 0:
        bad.append("negative count in the bag")
    if state.stage not in _NO_QUEUE_STAGES and state.phase != "prepare" and not state.queue:
        bad.append(f"stage {state.stage} has nobody to act")
    return bad


def unknown_cards(ctx: Ctx, state: State) -> list[str]:
    """Card ids in ``state`` that name no card of the tables in force. Play never makes one
    (each card comes from a table); a hand-written position (a scenario's given.state)
    can, so a position is checked with this before it is played from."""
    t = ctx.t
    known_crafts, known_advantages = t.craftsmen, t.advantages
    named: list[tuple[str, str, Mapping[str, object]]] = []
    for name, p in state.players.items():
        named += [(f"players.{name}.craftsmen", c, known_crafts) for c in p.craftsmen]
        named += [(f"players.{name}.advantages", a, known_advantages) for a in p.advantages]
        named += [(f"players.{name}.resource_cards", r, t.resource_cards) for r in p.resource_cards]
        named += [(f"players.{name}.craftsman_uses", c, known_crafts) for c in p.craftsman_uses]
        if p.bonus_craftsman is not None:
            named.append((f"players.{name}.bonus_craftsman", p.bonus_craftsman, known_crafts))
    named += [("craftsman_deck", c, known_crafts) for c in state.craftsman_deck]
    named += [("craftsmen_out", c, known_crafts) for c in state.craftsmen_out]
    named += [("shiring", c, known_crafts) for c in state.shiring.values()]
    named += [("advantage_deck", a, known_advantages) for a in state.advantage_deck]
    named += [("advantages_out", a, known_advantages) for a in state.advantages_out]
    named += [("kingsbridge", a, known_advantages) for a in state.kingsbridge.values()]
    named += [("events_unseen", e, t.events) for e in state.events_unseen]
    named += [("events_seen", e, t.events) for e in state.events_seen]
    if state.event is not None:
        named.append(("event", state.event, t.events))
    both = {**t.resource_cards, **known_crafts}
    named += [("card_supply", c, both) for c in state.card_supply]
    return [
        f"{path}: {card!r} is no card of this game"
        for path, card, known in named
        if card not in known
    ]
