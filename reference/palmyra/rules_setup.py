"""The setup (PAL-SETUP-*, PAL-SOLO-01): city centre, pieces in it, seat kits dealt by chance."""

from __future__ import annotations

from collections.abc import Sequence

from reference.core.errors import BadOptions
from reference.palmyra.common import finish
from reference.palmyra.draws import after_draws, stacks_empty
from reference.palmyra.lattice import CENTRE
from reference.palmyra.state import SETUP, Draw, PlayerState, State
from reference.palmyra.tables import Config
from reference.palmyra.tiles import LARGE, SMALL, TILES


def new_game(cfg: Config, players: Sequence[str]) -> State:
    """The setup for these (checked) player names in seat order.

    >>> from reference.palmyra import make
    >>> make({}).new_game(["a", "b"]).bank
    118
    """
    t = cfg.tables
    # PAL-SOLO-01: the solo game is set up as for two players, with seat 1's kit.
    count = 2 if cfg.solo else len(players)
    if count not in t.city_layouts:
        raise BadOptions(f"data city.layouts: no layout for {count} players")
    kits = [t.kits[t.solo_kit_seat - 1]] if cfg.solo else list(t.kits[: len(players)])
    # PAL-SETUP-04: in the advanced game every player gets extra coins.
    extra = t.advanced_extra_coins if cfg.advanced else 0
    # PAL-SETUP-06: starting coins come out of the bank.
    coins = [kit.coins + extra for kit in kits]
    if sum(coins) > t.bank_total:
        raise BadOptions("data bank.total: the bank cannot pay the starting coins")
    large = {c: n for c, n in t.mix.items() if TILES[c].stack == LARGE}
    small = {c: n for c, n in t.mix.items() if TILES[c].stack == SMALL}
    if sum(k.large for k in kits) > sum(large.values()) or sum(k.small for k in kits) > sum(
        small.values()
    ):
        raise BadOptions("data tiles.mix: too few tiles for the starting kits")
    draws: list[Draw] = []
    for name, kit in zip(players, kits, strict=True):
        draws += [Draw(name, LARGE)] * kit.large + [Draw(name, SMALL)] * kit.small
    # PAL-SETUP-02: every legion and censor starts in the city centre.
    state = State(
        players={
            name: PlayerState(coins=c, legion=CENTRE, censor=CENTRE)
            for name, c in zip(players, coins, strict=True)
        },
        # PAL-SETUP-05: the first seat starts; play goes on in seat order.
        current=players[0],
        phase=SETUP,
        board={},
        # PAL-SETUP-01: the city centre for this player count.
        city=t.city_layouts[count],
        large_stack=large,
        small_stack=small,
        bank=t.bank_total - sum(coins),
        removed=0,
        draws_due=tuple(draws),
    )
    if not draws:
        state = after_draws(cfg, state)
        # PAL-END-01: with both stacks empty from the start no tile can ever be drawn.
        if cfg.options.tiles_end == "stacks_empty" and stacks_empty(state):
            state = finish(state, "tiles")
    return state
