"""Cheap soundness checks run after every event."""

from __future__ import annotations

from reference.pillars.flow import Ctx
from reference.pillars.state import PHASES, State
from reference.pillars.tables import RESOURCES


def invariant_failures(ctx: Ctx, state: State) -> list[str]:
    """Every broken invariant: cubes, cards, builders and grey workers conserved; turn sane."""
    t = ctx.t
    bad: list[str] = []
    players = state.players.values()
    if tuple(state.players) != state.seats:
        bad.append("players are not keyed in seat order")
    if state.start_player not in state.players:
        bad.append(f"start player {state.start_player!r} is not a player")
    if not 1 <= state.round <= t.rounds or state.phase not in PHASES:
        bad.append(f"round {state.round} / phase {state.phase!r} out of bounds")
    for r in RESOURCES:
        held = sum(p.resources.get(r, 0) for p in players)
        total = state.supply.get(r, 0) + state.market.get(r, 0) + held
        if r == "metal":
            total += state.kings_court_metal
        if total != t.cubes[r]:
            bad.append(f"{r} cubes: {total} in play, {t.cubes[r]} in the game")
    if any(set(p.resources) != set(RESOURCES) for p in players):
        bad.append("a player's resources must list sand, wood, stone and metal")
    crafts = len(state.craftsman_deck) + len(state.shiring) + len(state.craftsmen_out)
    crafts += sum(1 for c in state.card_supply if c in t.craftsmen)
    crafts += sum(len(p.craftsmen) for p in players)
    expected = len(t.craftsmen) - len(t.starting_craftsmen) * (1 - len(state.seats))
    if crafts != expected:
        bad.append(f"craftsman cards: {crafts} found, {expected} in the game")
    seen = list(state.advantage_deck) + list(state.kingsbridge.values())
    seen += list(state.advantages_out)
    for p in players:
        seen += p.advantages
    if len(seen) != len(set(seen)) or not set(seen) <= set(t.advantages):
        bad.append("an advantage card is in two places or unknown")
    if len(set(state.events_unseen) | set(state.events_seen)) != len(t.events):
        bad.append("event cards are not conserved")
    grey = state.castle_workers + sum(p.grey_workers + p.grey_workers_next for p in players)
    if grey != t.grey_workers:
        bad.append(f"grey workers: {grey} found, {t.grey_workers} in the game")
    for p in players:
        if p.workers_placed > p.available_workers():
            bad.append("more workers placed than a player has")
    if state.phase in ("builders", "actions"):
        for name, p in state.players.items():
            on_board = sum(1 for o in state.spaces.values() if o == name)
            count = state.bag.get(name, 0) + on_board + state.passed_builders.count(name)
            count += 1 if state.drawn == name else 0
            if count != p.master_builders:
                bad.append(f"{name}: {count} master builders found, {p.master_builders} owned")
    if (
        state.phase not in ("over", "prepare")
        and state.stage not in ("draw", "event", "tax", "decide", "review", "place_passed")
        and not state.queue
    ):
        bad.append(f"stage {state.stage} has nobody to act")
    return bad
