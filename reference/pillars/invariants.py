"""The engine's own soundness checks, run after every event: cubes, cards, master builders
and grey workers conserved, no negative stock, turn order sane. Every law is counted in
full on every state (no memo: a shortcut here bought less than 5% of a validation's CPU).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from reference.pillars.flow import Ctx
from reference.pillars.state import PHASES, State
from reference.pillars.tables import Tables

_NO_QUEUE_STAGES = frozenset({"draw", "event", "tax", "decide", "review", "place_passed", "over"})
BUILDER_PHASES = frozenset({"builders", "actions"})
"""Phases in which master builders are out of their owners' hands (in the bag, on the board,
passed or drawn) and so are counted there."""


def invariant_failures(ctx: Ctx, state: State) -> list[str]:
    """Every broken invariant: turn order, workers, cubes, cards and master builders (in
    this order)."""
    t = ctx.t
    return [
        *turn_failures(t, state),
        *worker_failures(t, state),
        *cube_failures(t, state),
        *card_failures(t, state),
        *builder_failures(state),
    ]


def turn_failures(t: Tables, state: State) -> list[str]:
    """Players keyed in seat order, start player, round and phase in bounds, somebody
    queued to act."""
    bad: list[str] = []
    players = state.players
    if tuple(players) != state.seats:
        bad.append("players are not keyed in seat order")
    if state.start_player not in players:
        bad.append(f"start player {state.start_player!r} is not a player")
    if not 1 <= state.round <= t.rounds or state.phase not in PHASES:
        bad.append(f"round {state.round} / phase {state.phase!r} out of bounds")
    if state.stage not in _NO_QUEUE_STAGES and state.phase != "prepare" and not state.queue:
        bad.append(f"stage {state.stage} has nobody to act")
    return bad


def worker_failures(t: Tables, state: State) -> list[str]:
    """No more workers placed than available; grey workers conserved."""
    bad: list[str] = []
    grey = 0
    for name, p in state.players.items():
        grey += p.grey_workers + p.grey_workers_next
        if p.workers_placed > p.workers + p.grey_workers:
            bad.append(f"{name}: more workers placed than available")
    if (state.castle_workers is None) != (t.grey_workers is None):
        bad.append("grey workers: the castle's stock is unlimited only when the game's is")
    elif state.castle_workers is not None and grey + state.castle_workers != t.grey_workers:
        found = grey + state.castle_workers
        bad.append(f"grey workers: {found} found, {t.grey_workers} in the game")
    return bad


def cube_failures(t: Tables, state: State) -> list[str]:
    """No negative stock; each kind of cube conserved: supply, market (metal: King's
    Court) and players hold the game's cubes."""
    bad: list[str] = []
    if None in state.supply.values():  # a profile made a supply unlimited
        return _unlimited_cube_failures(t, state)
    supply, market = cast(dict[str, int], state.supply), state.market  # every kind limited
    if min(supply.values()) < 0 or min(market.values()) < 0 or state.kings_court_metal < 0:
        bad.append("negative stock in the supply, market or King's Court")
    sand = supply["sand"] + market["sand"]
    wood = supply["wood"] + market["wood"]
    stone = supply["stone"] + market["stone"]
    metal = supply["metal"] + state.kings_court_metal
    for p in state.players.values():
        r = p.resources
        sand += r["sand"]
        wood += r["wood"]
        stone += r["stone"]
        metal += r["metal"]
    cubes = t.cubes
    if (sand, wood, stone, metal) != (cubes["sand"], cubes["wood"], cubes["stone"], cubes["metal"]):
        for kind, n in (("sand", sand), ("wood", wood), ("stone", stone), ("metal", metal)):
            if n != cubes[kind]:
                bad.append(f"{kind} cubes: {n} in play, {cubes[kind]} in the game")
    return bad


def _unlimited_cube_failures(t: Tables, state: State) -> list[str]:
    """``cube_failures`` when some supply is unlimited: a kind is unlimited in the supply
    exactly when the game's is (reference/core/stock.py), and only the cubes of a limited
    kind are counted and conserved."""
    bad: list[str] = []
    supply, market = state.supply, state.market
    counts = [n for n in supply.values() if n is not None]
    if min([*counts, *market.values(), state.kings_court_metal]) < 0:
        bad.append("negative stock in the supply, market or King's Court")
    for kind, in_game in t.cubes.items():
        left = supply.get(kind)
        if (left is None) != (in_game is None):
            bad.append(f"{kind} cubes: the supply is unlimited only when the game's is")
        if left is None or in_game is None:
            continue
        n = left + market.get(kind, 0) + (state.kings_court_metal if kind == "metal" else 0)
        n += sum(p.resources[kind] for p in state.players.values())
        if n != in_game:
            bad.append(f"{kind} cubes: {n} in play, {in_game} in the game")
    return bad


def card_failures(t: Tables, state: State) -> list[str]:
    """Craftsman cards conserved, no more advantage cards than exist, event cards
    conserved."""
    bad: list[str] = []
    crafts = len(state.craftsman_deck) + len(state.shiring) + len(state.craftsmen_out)
    for c in state.card_supply:
        if c in t.craftsmen:
            crafts += 1
    advantages = len(state.advantage_deck) + len(state.kingsbridge) + len(state.advantages_out)
    for p in state.players.values():
        crafts += len(p.craftsmen)
        advantages += len(p.advantages)
    expected = len(t.craftsmen) + len(t.starting_craftsmen) * (len(state.seats) - 1)
    if crafts != expected:
        bad.append(f"craftsman cards: {crafts} found, {expected} in the game")
    if advantages > len(t.advantages):
        bad.append("more advantage cards in play than exist")
    if len(state.events_unseen) + len(state.events_seen) != len(t.events):
        bad.append("event cards are not conserved")
    return bad


def builder_failures(state: State) -> list[str]:
    """In Phases II and III, each player's master builders are in the bag, on the board,
    passed or the one drawn; no negative count in the bag."""
    if state.phase not in BUILDER_PHASES:
        return []
    bad: list[str] = []
    bag = state.bag
    # The owners of the builders out of the bag: on the board, passed, and the one drawn.
    out = [*state.spaces.values(), *state.passed_builders]
    if state.drawn is not None:
        out.append(state.drawn)
    for name, p in state.players.items():
        count = bag.get(name, 0) + out.count(name)
        if count != p.master_builders:
            bad.append(f"{name}: {count} master builders, {p.master_builders} owned")
    if bag and min(bag.values()) < 0:
        bad.append("negative count in the bag")
    return bad


def unknown_players(state: State) -> list[str]:
    """Names in ``state`` that are no player of the game (the seats). Play never writes one;
    a hand-written position can, and the rules look each name up, so a position is checked
    with this before it is played from."""
    seats = set(state.seats)
    named: list[tuple[str, str]] = [("players", name) for name in state.players]
    named += [("start_player", state.start_player)]
    named += [("queue", name) for name in state.queue]
    named += [("bag", name) for name in state.bag]
    named += [("passed_builders", name) for name in state.passed_builders]
    named += [(f"spaces.{space}", name) for space, name in state.spaces.items()]
    if state.drawn is not None:
        named.append(("drawn", state.drawn))
    bad = [
        f"{where} names {name!r}, who is not playing" for where, name in named if name not in seats
    ]
    if set(state.players) != seats:
        bad.append(f"players holds {sorted(state.players)}, the seats {list(state.seats)}")
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
