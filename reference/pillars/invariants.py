"""Cheap soundness checks run after every event."""

from __future__ import annotations

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
    on_board = list(state.spaces.values())
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
    for kind, n in (("sand", sand), ("wood", wood), ("stone", stone), ("metal", metal)):
        if n != t.cubes[kind]:
            bad.append(f"{kind} cubes: {n} in play, {t.cubes[kind]} in the game")
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
