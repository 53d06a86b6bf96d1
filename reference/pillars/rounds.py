"""Setup, round preparation and round end (no player choices here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reference.core.stock import put_back, take
from reference.pillars.flow import (
    Ctx,
    clockwise_from,
    note_work,
    noted,
    occupants,
    out_of_play,
    turn_order,
)
from reference.pillars.state import PlayerState, State, evolve
from reference.pillars.tables import MARKET_RESOURCES, RESOURCES


def _fresh_for_round(ctx: Ctx) -> dict[str, Any]:
    """A player's per-round values as every round (the first included) starts them."""
    return {
        "grey_workers_next": 0,
        "workers_placed": 0,
        "builders_next_round": ctx.t.master_builders,
        "passed_cards": False,
        "bought": (),
        "sold": (),
        "craftsman_uses": {},
        "bonus_craftsman": None,
        "protected": False,
        "reject_used": False,
    }


def new_game(ctx: Ctx, names: Sequence[str]) -> State:
    """PIL-SETUP-01..07: the standard setup; round 1 preparation awaits its reveals."""
    t = ctx.t
    seats = tuple(names)
    players: dict[str, PlayerState] = {}
    for i, name in enumerate(seats):
        # PIL-SETUP-01: gold by seat from the start player (20, 21, 22, 23) and 2 VP.
        players[name] = PlayerState(
            gold=t.gold_by_seat[i],
            vp=t.start_vp,
            workers=t.workers,
            grey_workers=0,
            resource_cards=(),
            craftsmen=t.starting_craftsmen,
            resources=dict.fromkeys(RESOURCES, 0),
            owed={},
            advantages=(),
            master_builders=t.master_builders,
            **_fresh_for_round(ctx),
        )
    supply = dict(t.cubes)
    market = {}
    for r in MARKET_RESOURCES:
        market[r], supply[r] = take(supply[r], t.market_stock[r])
    metal, supply["metal"] = take(supply["metal"], t.kings_court_metal)
    deck = tuple(c for r in range(1, t.rounds + 1) for c in t.round_craftsmen(r))
    return State(
        seats=seats,
        players=players,
        round=1,
        phase="prepare",
        stage="advantages",
        start_player=seats[0],
        queue=(),
        supply=supply,
        market=market,
        kings_court_metal=metal,
        castle_workers=t.grey_workers,
        advantage_deck=t.ordinary_advantages(),
        advantages_out=(),
        kingsbridge={},
        events_unseen=tuple(t.events),
        event=None,
        events_seen=(),
        craftsman_deck=deck,
        shiring={},
        card_supply=(),
        craftsmen_out=(),
        bag={},
        drawn=None,
        draws=0,
        cost=t.cost_start,
        passed_builders=(),
        spaces={},
        tax=None,
        returning=False,
    )


def end_round(ctx: Ctx, state: State) -> State:
    """Step 14 and the end of the round: new start player, clean-up, next round or game end."""
    # PIL-CATH-07: the cathedral's occupant starts next round; if nobody, the option decides.
    owners = occupants(state, "cathedral")
    if owners:
        start = owners[0]
    elif ctx.o.cathedral_empty == "right_neighbour":
        start = turn_order(state)[-1]
    elif ctx.o.cathedral_empty == "left_neighbour":
        start = turn_order(state)[1]
    else:
        start = state.start_player
    note_work(ctx, "PIL-CATH-07", state, start_player=start)
    # PIL-ROUND-05: unclaimed Kingsbridge and Shiring cards leave the game.
    adv_out = out_of_play(state.advantages_out, *state.kingsbridge.values())
    crafts_out = out_of_play(state.craftsmen_out, *state.shiring.values())
    # PIL-CASTLE-01: grey workers used this round go back to the castle.
    castle = put_back(state.castle_workers, sum(p.grey_workers for p in state.players.values()))
    cleared: dict[str, Any] = {
        "start_player": start,
        "advantages_out": adv_out,
        "craftsmen_out": crafts_out,
        "kingsbridge": {},
        "shiring": {},
        "castle_workers": castle,
        "spaces": {},
        "bag": {},
        "queue": (),
        "returning": False,
    }
    note_work(ctx, "PIL-ROUND-05", state, (), "", **cleared)
    # PIL-ROUND-06: the game ends after the last round.
    if state.round >= ctx.t.rounds:
        players = {n: evolve(p, grey_workers=0, workers_placed=0) for n, p in state.players.items()}
        over = evolve(state, players=players, phase="over", stage="over", **cleared)
        return noted(ctx, "PIL-ROUND-06", over)
    return begin_round(ctx, state, round=state.round + 1, **cleared)


def begin_round(ctx: Ctx, state: State, **cleared: Any) -> State:
    """PIL-ROUND-04: refill the market, put metal on King's Court, reset the cost marker,
    hand out grey workers and builders for the new round (in the state with the old
    round's clean-up ``cleared``; each player's workers are reset here)."""
    t = ctx.t
    supply = dict(state.supply)
    market = dict(state.market)
    for r in MARKET_RESOURCES:
        add, supply[r] = take(supply[r], max(0, t.market_stock[r] - market[r]))
        market[r] += add
    metal = state.kings_court_metal
    add_metal, supply["metal"] = take(supply["metal"], max(0, t.kings_court_metal - metal))
    players = {}
    for name, p in state.players.items():
        players[name] = evolve(
            p,
            grey_workers=p.grey_workers_next,
            master_builders=p.builders_next_round,
            **_fresh_for_round(ctx),
        )
    new_round = evolve(
        state,
        players=players,
        supply=supply,
        market=market,
        kings_court_metal=metal + add_metal,
        phase="prepare",
        stage="advantages",
        event=None,
        tax=None,
        cost=t.cost_start,
        draws=0,
        drawn=None,
        passed_builders=(),
        **cleared,
    )
    return noted(ctx, "PIL-ROUND-04", new_round)


def start_cards_phase(state: State) -> State:
    """Phase I begins with the start player."""
    return evolve(
        state, phase="cards", stage="choose", queue=clockwise_from(state, state.start_player)
    )
