"""Drawing tiles: the balanced draw of earned tiles (PAL-CONQ-03), chance draws
(PAL-DRAW-01) and the end when a tile cannot be drawn (PAL-END-01)."""

from __future__ import annotations

from typing import Any

from reference.core.errors import RuleViolation
from reference.palmyra.common import evolve, finish, noted, with_added
from reference.palmyra.events import ChooseExtraTile, DrawTile
from reference.palmyra.state import CHOOSE, DRAW, MOVE, REORGANISE, SETUP, TURN, Draw, State
from reference.palmyra.tables import Config
from reference.palmyra.tiles import LARGE, SMALL, TILES
from reference.palmyra.turns import end_turn


def stack(state: State, size: str) -> dict[str, int]:
    """The stack of that size, as counts by tile code."""
    return state.large_stack if size == LARGE else state.small_stack


def plan_draws(state: State, k: int, extra: str | None) -> tuple[int, int, bool]:
    """How many large and small tiles ``k`` earned tiles are, and whether the draw falls short.

    PAL-CONQ-03: half from each stack; an odd one from the stack the player chose
    (``extra``); what one stack cannot give comes from the other.
    """
    have_l, have_s = sum(state.large_stack.values()), sum(state.small_stack.values())
    half, odd = divmod(k, 2)
    want_l = half + (odd if extra == LARGE else 0)
    want_s = half + (odd if extra == SMALL else 0)
    if extra is None:
        want_l += odd  # only used when the choice makes no difference
    large, small = min(want_l, have_l), min(want_s, have_s)
    rest = k - large - small
    more = min(rest, have_l - large)
    large, rest = large + more, rest - more
    small += min(rest, have_s - small)
    return large, small, large + small < k


def tiles_choice_matters(state: State, k: int) -> bool:
    """Whether the player must name the stack of the odd tile (the two plans differ)."""
    return k % 2 == 1 and plan_draws(state, k, LARGE) != plan_draws(state, k, SMALL)


def start_draws(
    cfg: Config, state: State, player: str, large: int, small: int, short: bool
) -> State:
    """Queue the draws; with nothing to draw, go straight on (or end if it fell short)."""
    queue = (Draw(player, LARGE),) * large if large else ()
    if small:
        queue += (Draw(player, SMALL),) * small
    if not queue:
        if short:
            # PAL-END-01: a tile had to be drawn and could not be.
            return finish(state, "tiles", cfg)
        return after_draws(cfg, evolve(state, draws_due=(), short=False))
    return evolve(state, phase=DRAW, draws_due=queue, short=short)


def after_draws(cfg: Config, state: State, **changes: Any) -> State:
    """Where play goes once the due draws are made (``changes``: the caller's own edits of
    other fields, made in the same copy)."""
    if state.phase == SETUP:
        return evolve(state, phase=TURN, **changes)
    if state.action.kind == REORGANISE:
        return evolve(state, phase=MOVE, **changes)
    return end_turn(cfg, state, **changes)


def choose_extra(cfg: Config, state: State, event: ChooseExtraTile) -> State:
    """The player names the stack the odd earned tile comes from."""
    # PAL-TURN-02: the size is chosen only when an odd number of tiles is due.
    if state.phase != CHOOSE:
        raise RuleViolation("PAL-TURN-02", "no choice of tile size is due")
    large, small, short = plan_draws(state, state.action.tiles_due, event.size)
    return start_draws(cfg, state, event.player, large, small, short)


def chance_draws(state: State) -> list[tuple[DrawTile, float]]:
    """Each tile the next due draw can turn up, with its probability."""
    if not state.draws_due:
        return []
    pile = stack(state, state.draws_due[0].size)
    total = sum(pile.values())
    return [(DrawTile(code), n / total) for code, n in sorted(pile.items()) if n > 0]


def draw_tile(cfg: Config, state: State, event: DrawTile) -> State:
    """Chance turns up the top tile of the due stack; it goes face up to the drawing player."""
    due = state.draws_due[0]
    pile = stack(state, due.size)
    # PAL-DRAW-01: the drawn tile is one still in the stack the draw is due from.
    if TILES[event.tile].stack != due.size or pile.get(event.tile, 0) <= 0:
        raise RuleViolation("PAL-DRAW-01", f"no {event.tile} is left in the {due.size} stack")
    left = dict(pile)
    left[event.tile] -= 1
    if not left[event.tile]:
        del left[event.tile]
    large = left if due.size == LARGE else state.large_stack
    small = state.small_stack if due.size == LARGE else left
    players = dict(state.players)
    player = players[due.player]
    players[due.player] = evolve(player, supply=with_added(player.supply, event.tile))
    # The draw's edits, made in one copy with whatever comes next.
    drawn = {
        "players": players,
        "draws_due": state.draws_due[1:],
        "large_stack": large,
        "small_stack": small,
    }
    if cfg.recorder is not None:
        rule = draw_rule(state)
        why = f"{due.player} draws a {due.size} tile"
        noted(cfg, rule, evolve(state, **drawn), (f"players.{due.player}.supply",), why)
    # PAL-END-01 (default tiles_end=stacks_empty): once both stacks are empty no more land
    # tiles can be drawn, and the game ends at once (any draws still due are void).
    if (
        cfg.options.tiles_end == "stacks_empty"
        and not any(large.values())
        and not any(small.values())
    ):
        return finish(evolve(state, **drawn), "tiles", cfg)
    if drawn["draws_due"]:
        return evolve(state, **drawn)
    if state.short:
        # PAL-END-01: the draw fell short: the game ends once what there was is drawn.
        return finish(evolve(state, **drawn), "tiles", cfg)
    return after_draws(cfg, state, **drawn)


def draw_rule(state: State) -> str:
    """The rule a tile is drawn under: the starting tiles (PAL-SETUP-03), Reorganise's tile
    (PAL-REORG-01) or tiles earned by Conquer (PAL-CONQ-02)."""
    if state.action.kind == REORGANISE:
        return "PAL-REORG-01"
    return "PAL-SETUP-03" if state.phase == SETUP else "PAL-CONQ-02"


def stacks_empty(state: State) -> bool:
    """Whether both stacks are used up."""
    return not any(state.large_stack.values()) and not any(state.small_stack.values())
