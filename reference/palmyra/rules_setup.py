"""The setup (PAL-SETUP-*, PAL-SOLO-01): city centre, pieces in it, seat kits dealt by chance."""

from __future__ import annotations

from collections.abc import Sequence

from reference.core import tables as tb
from reference.core.stock import holds, take
from reference.palmyra.common import finish
from reference.palmyra.draws import after_draws, stacks_empty
from reference.palmyra.lattice import CENTRE
from reference.palmyra.state import SETUP, Draw, PlayerState, State
from reference.palmyra.tables import Config, Kit
from reference.palmyra.tiles import LARGE, SMALL, TILES


def new_game(cfg: Config, players: Sequence[str]) -> State:
    """The setup for these (checked) player names in seat order.

    >>> from reference.palmyra import make
    >>> make({}).new_game(["a", "b"]).bank
    118
    """
    t = cfg.tables
    count = 2 if cfg.solo else len(players)
    kits, coins, large, small = starting_kits(cfg, len(players))
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
        bank=take(t.bank_total, sum(coins))[1],
        removed=0,
        draws_due=tuple(draws),
    )
    if not draws:
        state = after_draws(cfg, state)
        # PAL-END-01: with both stacks empty from the start no tile can ever be drawn.
        if cfg.options.tiles_end == "stacks_empty" and stacks_empty(state):
            state = finish(state, "tiles", cfg)
    return state


def starting_kits(
    cfg: Config, players: int
) -> tuple[list[Kit], list[int], dict[str, int], dict[str, int]]:
    """The seat kits, each seat's starting coins and the two stacks for this many players.

    Raises:
        BadOptions: the data cannot set up this many players (no city layout, a bank that
            cannot pay the starting coins, too few tiles for the kits).
    """
    t = cfg.tables
    # PAL-SOLO-01: the solo game is set up as for two players, with seat 1's kit.
    count = 2 if cfg.solo else players
    if count not in t.city_layouts:
        raise tb.bad("city.layouts", f"a layout for {count} players", sorted(t.city_layouts))
    kits = [t.kits[t.solo_kit_seat - 1]] if cfg.solo else list(t.kits[:players])
    # PAL-SETUP-04: in the advanced game every player gets extra coins.
    extra = t.advanced_extra_coins if cfg.advanced else 0
    # PAL-SETUP-06: starting coins come out of the bank.
    coins = [kit.coins + extra for kit in kits]
    if not holds(t.bank_total, sum(coins)):
        expected = f"at least the {sum(coins)} starting coins of {players} players"
        raise tb.bad("bank.total", expected, t.bank_total)
    large = {c: n for c, n in t.mix.items() if TILES[c].stack == LARGE}
    small = {c: n for c, n in t.mix.items() if TILES[c].stack == SMALL}
    if sum(k.large for k in kits) > sum(large.values()) or sum(k.small for k in kits) > sum(
        small.values()
    ):
        expected = f"enough tiles in each stack for the starting kits of {players} players"
        raise tb.bad("tiles.mix", expected, t.mix)
    return kits, coins, large, small
