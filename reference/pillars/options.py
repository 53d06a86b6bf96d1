"""Options where players really differ (each names the catalogue rule it switches)."""

from __future__ import annotations

import attrs
from attrs import validators as v

CHOICES: dict[str, tuple[str, ...]] = {
    "bishop_positive": ("event_and_cube", "cube_only"),
    "resale_ban": ("rulebook", "both_ways"),
    "cathedral_empty": ("right_neighbour", "left_neighbour", "unchanged"),
    "income_cards": ("every_round", "once"),
    "archbishop_timing": ("event", "cathedral"),
    "market_builders": ("first", "last", "each"),
    "ordered_spaces": ("first_free", "any_free"),
}


@attrs.frozen
class PillarsOptions:
    """The game's options (the ``profile`` option replaces data values instead).

    - ``bishop_positive`` (PIL-BISHOP-01): on a positive event the Bishop's seat occupant
      gets the event and a free market cube (``event_and_cube``, SAULEN), or the cube
      instead of the event (``cube_only``, the Danish seed's "or").
    - ``resale_ban`` (PIL-MARKET-07): ``rulebook`` forbids selling a type bought this
      round; ``both_ways`` (French seed) also forbids buying a type sold this round.
    - ``cathedral_empty`` (PIL-CATH-07): who starts next round when nobody took the
      cathedral: ``right_neighbour`` (the player last in the old order, SAULEN),
      ``left_neighbour`` (clockwise), or ``unchanged``.
    - ``income_cards`` (PIL-ADV-02): Richard/Tom/Aliena give +1 cube at production
      ``every_round`` (RB p.6) or ``once`` when taken (SAULEN).
    - ``start_player_rejects`` (PIL-BUILD-08): the start player may return one drawn
      builder to the bag once per round (SAULEN only).
    - ``archbishop_timing`` (PIL-EVENT-04): the archbishop's extra use is chosen at the
      ``event`` (step 1, our unsourced ruling) or at the start of the ``cathedral`` step 13,
      after Shiring and any limit discard (SAULEN).
    - ``market_builders`` (PIL-MARKET-11): a player with several market builders trades once
      per lap at their ``first`` market space (our ruling), at their ``last`` one (SAULEN), or
      at ``each`` (one turn per builder; a pass withdraws only that builder).
    - ``ordered_spaces`` (PIL-BUILD-11): at the Priory, King's Court, market and single
      spaces a builder takes the ``first_free`` space (our ruling) or ``any_free`` one (SAULEN).
    """

    bishop_positive: str = attrs.field(
        default="event_and_cube", validator=v.in_(CHOICES["bishop_positive"])
    )
    resale_ban: str = attrs.field(default="rulebook", validator=v.in_(CHOICES["resale_ban"]))
    cathedral_empty: str = attrs.field(
        default="right_neighbour", validator=v.in_(CHOICES["cathedral_empty"])
    )
    income_cards: str = attrs.field(default="every_round", validator=v.in_(CHOICES["income_cards"]))
    start_player_rejects: bool = False
    archbishop_timing: str = attrs.field(
        default="event", validator=v.in_(CHOICES["archbishop_timing"])
    )
    market_builders: str = attrs.field(default="first", validator=v.in_(CHOICES["market_builders"]))
    ordered_spaces: str = attrs.field(
        default="first_free", validator=v.in_(CHOICES["ordered_spaces"])
    )
