"""Options where players really differ (each names the catalogue rule it switches)."""

from __future__ import annotations

import attrs

from reference.core.errors import BadOptions

CHOICES: dict[str, tuple[str, ...]] = {
    "bishop_positive": ("event_and_cube", "cube_only"),
    "resale_ban": ("rulebook", "both_ways"),
    "cathedral_empty": ("right_neighbour", "left_neighbour", "unchanged"),
    "income_cards": ("every_round", "once"),
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
    """

    bishop_positive: str = attrs.field(
        default="event_and_cube", validator=attrs.validators.in_(CHOICES["bishop_positive"])
    )
    resale_ban: str = attrs.field(
        default="rulebook", validator=attrs.validators.in_(CHOICES["resale_ban"])
    )
    cathedral_empty: str = attrs.field(
        default="right_neighbour", validator=attrs.validators.in_(CHOICES["cathedral_empty"])
    )
    income_cards: str = attrs.field(
        default="every_round", validator=attrs.validators.in_(CHOICES["income_cards"])
    )
    start_player_rejects: bool = False

    def check(self) -> None:
        """Raise BadOptions for a value outside an option's choices."""
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise BadOptions(f"option {name}={value!r}; choose one of {', '.join(allowed)}")
