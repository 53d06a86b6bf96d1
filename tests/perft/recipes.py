"""How each position of the perft suites (perft/<game>.yaml) was found: a seeded game, as
``rules-oracle play`` plays it, stopped at the first position a test picks out (the rare phase
it is there for), sometimes with values set by hand. ``make_suites.py`` writes the suites from
these recipes; the suites keep the events, so they never depend on how a recipe found them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import attrs

from oracle.formats.converter import unstructure_event
from oracle.play import PLAYER_NAMES, choose
from reference.core.game import CHANCE, Game, step
from reference.registry import make_game

Until = Callable[[Game, Any], bool]


@attrs.frozen
class Recipe:
    """One suite position: ``players`` players, ``options``; a game seeded ``seed`` played
    until ``until`` holds for the ``nth`` time (0: the first; no ``until``: the setup), or
    to ``before_end`` events before its end; ``state`` makes values set by path from the
    position reached (given.state)."""

    id: str
    description: str
    players: int
    depth: int
    seed: int = 0
    options: dict[str, Any] = attrs.field(factory=dict)
    until: Until | None = None
    nth: int = 0
    before_end: int | None = None
    state: Callable[[Game, Any], dict[str, Any]] | None = None


def found(game_name: str, recipe: Recipe, limit: int = 20_000) -> tuple[list[dict[str, Any]], Any]:
    """The events of the recipe's game up to its position, and our state there."""
    game = make_game(game_name, recipe.options)
    rng = random.Random(recipe.seed)
    state = game.new_game(PLAYER_NAMES[: recipe.players])
    events: list[dict[str, Any]] = []
    if recipe.before_end is not None:
        states = [state]
        while not game.is_over(state):
            event = choose(game, state, rng)
            events.append(unstructure_event(event))
            state = step(game, state, event)
            states.append(state)
        cut = len(events) - recipe.before_end
        return events[:cut], states[cut]
    seen = 0
    while recipe.until is not None:
        if recipe.until(game, state):
            if seen == recipe.nth:
                break
            seen += 1
        if game.is_over(state) or len(events) >= limit:
            raise LookupError(f"{recipe.id}: no such position in the seeded game")
        event = choose(game, state, rng)
        events.append(unstructure_event(event))
        state = step(game, state, event)
    return events, state


def _when(**wanted: Any) -> Until:
    """A position whose state fields have these values (``name__len_at_most``,
    ``name__at_least`` and ``name__not`` compare; ``pending`` counts the pending players,
    ``chance`` is whether chance acts)."""

    def until(game: Game, state: Any) -> bool:
        if game.is_over(state):
            return False
        for key, value in wanted.items():
            name, _, how = key.partition("__")
            if name == "pending":
                found: Any = len(game.pending(state))  # type: ignore[attr-defined]
            elif name == "chance":
                found = game.to_act(state) == CHANCE
            elif name == "last_round":
                found = state.round == game.tables.t.rounds  # type: ignore[attr-defined]
            else:
                found = getattr(state, name)
            if how == "len_at_most":
                ok = len(found) <= value
            elif how == "at_least":
                ok = found >= value
            elif how == "not":
                ok = found != value
            elif how == "sum_at_most":
                ok = sum(found.values()) <= value
            else:
                ok = found == value
            if not ok:
                return False
        return True

    return until


PILLARS = (
    Recipe("setup-2p", "the 2-player setup: the round's advantages are revealed", 2, 3),
    Recipe(
        "cards-4p",
        "round 1, Phase I with 4 players: resource cards and craftsmen taken in turn",
        4,
        5,
        until=_when(stage="choose"),
    ),
    Recipe(
        "builders-draw",
        "Phase II: master builders drawn from the bag, placed or passed at the cost marker",
        2,
        7,
        until=_when(stage="draw"),
    ),
    Recipe(
        "builders-passed",
        "Phase II with the bag empty: the passed builders placed free, in pass order",
        2,
        6,
        until=_when(stage="place_passed"),
    ),
    Recipe(
        "thomas",
        "a negative event: a Thomas holder decides whether to play it (PIL-ADV-09)",
        2,
        5,
        seed=1,
        until=_when(stage="thomas"),
    ),
    Recipe(
        "tax-exemption",
        "after the tax roll a tax exemption holder decides (PIL-ADV-08)",
        2,
        6,
        until=_when(stage="tax_exemption"),
    ),
    Recipe(
        "division-3p",
        "the division event: two players discard a craftsman, in any order (PIL-EVENT-03)",
        3,
        5,
        seed=1,
        until=_when(stage="division", pending__at_least=2),
    ),
    Recipe(
        "archbishop",
        "the archbishop event: two players name a craftsman, in any order (PIL-EVENT-04)",
        2,
        6,
        seed=1,
        until=_when(stage="archbishop", pending__at_least=2),
    ),
    Recipe(
        "bishop",
        "a positive event: the Bishop's seat takes a market cube (PIL-BISHOP-01)",
        2,
        7,
        until=_when(stage="bishop"),
    ),
    Recipe(
        "market-3p",
        "step 12 with 3 players: buying and selling at the market (PIL-MARKET-*)",
        3,
        4,
        until=_when(stage="market"),
    ),
    Recipe(
        "cathedral-return",
        "step 13: a player over 5 cubes returns the excess (PIL-CATH-06)",
        2,
        5,
        until=_when(stage="cathedral", returning=True),
    ),
    Recipe(
        "shiring-over-limit-4p",
        "step 10 with 4 players: two Shiring takers over the craftsman limit discard, in "
        "any order (PIL-CRAFT-01)",
        4,
        4,
        seed=2,
        until=_when(stage="shiring", pending__at_least=2),
    ),
    Recipe(
        "last-round-advantages",
        "the last round begins: its own advantage cards are revealed (PIL-ROUND-01)",
        2,
        5,
        until=_when(stage="advantages", last_round=True),
    ),
    Recipe(
        "last-round-market",
        "the last round's market",
        2,
        4,
        until=_when(stage="market", last_round=True),
    ),
    Recipe(
        "last-round-cathedral",
        "the last round's cathedral step: the game ends after it (PIL-ROUND-06)",
        2,
        5,
        until=_when(stage="cathedral", last_round=True),
    ),
    Recipe(
        "end-3p",
        "three events before the end of a 3-player game",
        3,
        6,
        before_end=3,
    ),
    Recipe(
        "option-rejects",
        "option start_player_rejects: the start player may return a drawn builder (PIL-BUILD-08)",
        2,
        8,
        options={"start_player_rejects": True},
        until=_when(stage="review"),
    ),
    Recipe(
        "option-any-free-space",
        "option ordered_spaces any_free: a builder takes any free space (PIL-BUILD-11)",
        3,
        5,
        options={"ordered_spaces": "any_free"},
        until=_when(stage="decide"),
    ),
    Recipe(
        "option-market-each",
        "options market_builders each and resale_ban both_ways at the market "
        "(PIL-MARKET-11, PIL-MARKET-07)",
        3,
        4,
        options={"market_builders": "each", "resale_ban": "both_ways"},
        until=_when(stage="market"),
    ),
    Recipe(
        "option-archbishop-at-cathedral",
        "option archbishop_timing cathedral: the extra use is named when step 13 begins "
        "(PIL-EVENT-04)",
        2,
        6,
        seed=1,
        options={"archbishop_timing": "cathedral"},
        until=_when(stage="archbishop", phase="actions"),
    ),
)

MILESTONES = (
    Recipe("setup-2p", "the 2-player setup: bonus tiles revealed, worker tiles drawn", 2, 6),
    Recipe(
        "draft-3p",
        "the draft with 3 players: worker tiles taken and laid",
        3,
        3,
        until=_when(phase="draft"),
    ),
    Recipe(
        "first-turn",
        "the first turn: two moves and the buildings landed on",
        2,
        6,
        until=_when(phase="turns"),
    ),
    Recipe(
        "trading-house",
        "after hiring at the Trading House: the display is refilled when the player leaves",
        2,
        6,
        until=_when(hired=True),
    ),
    Recipe(
        "castle-tax",
        "the Castle's tax: goods returned to the supply and workers covered (MIL-CASTLE-*)",
        2,
        6,
        until=_when(returns_due__at_least=1),
    ),
    Recipe(
        "castle-cover",
        "the Castle's tax: a worker covered",
        3,
        8,
        until=_when(cover_due=True),
    ),
    Recipe(
        "claim-bonus",
        "a bonus tile earned: laid on a worker before anything else (MIL-BONUS-*)",
        3,
        9,
        seed=0,
        until=_when(pending_bonus__not=()),
    ),
    Recipe(
        "pile-nearly-empty",
        "two worker tiles left in the draw pile",
        2,
        8,
        until=_when(draw_pile__len_at_most=2, phase="turns"),
    ),
    Recipe(
        "end-triggered-4p",
        "the end triggered with 4 players: every other player has one more turn",
        4,
        8,
        until=_when(end_trigger__not=None),
    ),
    Recipe("end-2p", "four events before the end of a 2-player game", 2, 5, before_end=4),
    Recipe(
        "sell-rate-one",
        "profile prices.sell_goods_per_coin 1 (the alternative reading): one cube a coin",
        2,
        6,
        options={"profile": {"prices.sell_goods_per_coin": 1}},
        until=_when(hired=True),
    ),
)

PALMYRA = (
    Recipe("setup-3p", "the 3-player setup: the starting tiles are drawn", 3, 4),
    Recipe(
        "first-turn",
        "the first turn: Conquer, Collect taxes or Reorganise",
        2,
        6,
        until=_when(phase="turn"),
    ),
    Recipe(
        "conquer-chain",
        "a Conquer chain: tiles placed, then the earned tiles drawn",
        2,
        7,
        until=_when(phase="chain"),
        nth=3,
    ),
    Recipe(
        "choose-extra",
        "an odd number of earned tiles: the stack of the odd one is chosen (PAL-CONQ-03)",
        2,
        6,
        until=_when(phase="choose"),
    ),
    Recipe(
        "reorganise-move",
        "Reorganise: pieces moved after the draw",
        2,
        6,
        until=_when(phase="move"),
        nth=2,
    ),
    Recipe(
        "stacks-nearly-empty",
        "four land tiles left in the stacks: the game ends when both are empty (PAL-END-01)",
        2,
        5,
        until=_when(phase="turn", large_stack__sum_at_most=2, small_stack__sum_at_most=2),
    ),
    Recipe("end-5p", "eight events before the end of a 5-player game", 5, 9, before_end=8),
    Recipe(
        "advanced",
        "the advanced game: the emperor can be taken at a Reorganise (PAL-EMP-*)",
        3,
        6,
        options={"mode": "advanced"},
        until=_when(phase="turn"),
        nth=4,
    ),
    Recipe(
        "advanced-emperor-held",
        "the advanced game with the emperor held",
        2,
        6,
        options={"mode": "advanced"},
        until=_when(phase="turn", emperor__not=""),
    ),
    Recipe(
        "solo",
        "the solo game: three coins leave the bank each turn (PAL-SOLO-*)",
        1,
        5,
        options={"mode": "solo"},
        until=_when(phase="turn"),
        nth=2,
    ),
    Recipe(
        "solo-end",
        "three events before the end of a solo game",
        1,
        4,
        options={"mode": "solo"},
        before_end=3,
    ),
    Recipe(
        "options-lone-icon-flip-after",
        "options lone_icon forbidden and flip_timing after_chain at a Collect taxes chain "
        "(PAL-CHAIN-04, PAL-TAX-04)",
        2,
        6,
        options={"lone_icon": "forbidden", "flip_timing": "after_chain"},
        until=_when(phase="turn"),
        nth=5,
    ),
    Recipe(
        "tiles-end-draw-fails",
        "option tiles_end draw_fails with the stacks nearly empty (PAL-END-01)",
        2,
        7,
        options={"tiles_end": "draw_fails"},
        until=_when(phase="turn", large_stack__sum_at_most=1),
    ),
)

ROADS_B = [
    ["tavern", "baths"],
    ["baths", "emporium"],
    ["emporium", "basilica"],
    ["basilica", "forum"],
    ["forum", "praetorium"],
    ["praetorium", "tavern"],
    ["temple", "tavern"],
    ["temple", "praetorium"],
]
"""docs/games/municipium.md's variant B of the roads."""

MUNICIPIUM = (
    Recipe("setup-3p", "the 3-player setup: a citizen drawn for each meeting room", 3, 7),
    Recipe(
        "placement-2p",
        "placing members, in seat order, seven rounds (MUN-PLACE-01)",
        2,
        5,
        until=_when(phase="placement"),
    ),
    Recipe(
        "first-move",
        "a turn: members moved, then a common card drawn or a family card played",
        2,
        4,
        until=_when(phase="move"),
    ),
    Recipe(
        "prefect",
        "a prefect card: the prefect moved (MUN-PREFECT-05)",
        2,
        5,
        until=_when(phase="prefect"),
    ),
    Recipe(
        "place-citizen",
        "a drawn citizen placed in one of its homes (MUN-CITIZEN-03)",
        2,
        5,
        until=_when(phase="place"),
    ),
    Recipe(
        "tavern",
        "the tavern's power: members pulled to the tavern (MUN-TAVERN-01)",
        2,
        5,
        until=_when(phase="power", power="tavern"),
    ),
    Recipe(
        "praetorium",
        "the praetorium's power: own members relocated (MUN-PRAETORIUM-01)",
        2,
        4,
        until=_when(phase="power", power="praetorium"),
    ),
    Recipe(
        "forum",
        "the forum's power: a citizen taken (MUN-FORUM-*)",
        2,
        4,
        until=_when(phase="power", power="forum"),
    ),
    Recipe(
        "basilica",
        "the basilica's power: an exchange for a decurion or a draw (MUN-BASILICA-*)",
        2,
        6,
        until=_when(phase="power", power="basilica"),
    ),
    Recipe(
        "emporium",
        "the emporium's power: citizens drawn until one stops (MUN-EMPORIUM-01)",
        2,
        5,
        until=_when(phase="power", power="emporium"),
    ),
    Recipe(
        "deck-nearly-empty",
        "one common card left: the discards are shuffled back after it (MUN-CARD-03)",
        2,
        6,
        until=_when(phase="move", common_deck__len_at_most=1),
    ),
    Recipe("end-4p", "three events before the end of a 4-player game", 4, 7, before_end=3),
    Recipe(
        "small-bag",
        "profile components.citizens_per_kind 3: two citizens left in the bag (MUN-BAG-01)",
        3,
        4,
        options={"profile": {"components.citizens_per_kind": 3}},
        until=_when(phase="move", bag__sum_at_most=2),
    ),
    Recipe(
        "roads-variant-b",
        "profile board.roads as the digest's variant B: other moves are legal (MUN-MOVE-*)",
        2,
        4,
        options={"profile": {"board.roads": ROADS_B}},
        until=_when(phase="move"),
    ),
    Recipe(
        "end-immediate",
        "option end_mode immediate: the game ends at once at five decurions (MUN-END-01)",
        2,
        6,
        options={"end_mode": "immediate"},
        before_end=3,
    ),
    Recipe(
        "end-finish-turn",
        "option end_mode finish_turn: the turn is played out (MUN-END-01)",
        3,
        7,
        options={"end_mode": "finish_turn"},
        before_end=4,
    ),
)

RECIPES: dict[str, tuple[Recipe, ...]] = {
    "pillars": PILLARS,
    "milestones": MILESTONES,
    "palmyra": PALMYRA,
    "municipium": MUNICIPIUM,
}
