"""The position: families, institutions, the prefect, the bag, the decks and the turn in hand.

Paths a log may claim (see docs/games/municipium.md):
``players.<name>.members.<institution>``, ``players.<name>.citizens.<kind>``,
``players.<name>.favours``, ``players.<name>.decurions``, ``institutions.<name>.citizens``,
``prefect``, ``bag.<kind>``, ``temple_order``, ``phase``, ``current`` and so on.
"""

from __future__ import annotations

from typing import Literal

import attrs

from reference.core.evolve import evolve as evolve
from reference.core.state import counts_not_negative, not_negative
from reference.core.stock import Stock

Phase = Literal["setup", "placement", "move", "reveal", "prefect", "draw", "place", "power", "over"]
PHASES: tuple[Phase, ...] = (
    "setup",  # chance: a citizen is drawn for a citizen field before placement
    "placement",  # a player places one family member
    "move",  # the active player moves members, or activates a card (ending the move step)
    "reveal",  # chance: the top common card is revealed
    "prefect",  # the active player chooses where a "choose" prefect card sends the prefect
    "draw",  # chance: a citizen is drawn from the bag
    "place",  # the chooser puts a drawn citizen in one of its home institutions
    "power",  # the family with most influence uses (or declines) an institution's power
    "over",  # the game has ended
)

DRAW_PURPOSES: tuple[str, ...] = ("setup", "field", "card", "emporium", "basilica", "")


@attrs.frozen(slots=False)
class PlayerState:
    """One family: its members on the board, the tokens in front of it and its cards."""

    members: dict[str, int] = attrs.field(validator=counts_not_negative)
    """Plain (unwreathed) members in each institution."""
    wreathed: dict[str, int] = attrs.field(validator=counts_not_negative)
    """Members wearing a Wreath of Distinction in each institution (influence 2 each)."""
    unplaced: int = attrs.field(validator=not_negative)
    """Members not yet placed (only during the initial placement)."""
    citizens: dict[str, int] = attrs.field(validator=counts_not_negative)
    """Citizens held, by kind."""
    favours: int = attrs.field(validator=not_negative)
    decurions: int = attrs.field(validator=not_negative)
    family_cards: tuple[str, ...]
    """Family cards still face up (usable), by card id."""
    spent_cards: tuple[str, ...]
    """Family cards turned face down (used)."""


@attrs.frozen(slots=False)
class Institution:
    """What lies in one institution apart from the family members."""

    citizens: int = attrs.field(validator=not_negative)
    """Citizens in the common area; they are always of the institution's home kind."""
    favour: bool
    """Whether the meeting room's favour field holds a prefect favour."""
    citizen_field: str | None
    """The kind of citizen on the meeting room's citizen field (3-4 players), or None."""


@attrs.frozen(slots=False)
class State:
    """A whole position of Municipium."""

    phase: Phase = attrs.field(validator=attrs.validators.in_(PHASES))
    current: str
    """The active player (the placer during placement)."""
    round: int = attrs.field(validator=not_negative)
    """Game round, 1 for the first round of turns (0 during setup and placement)."""
    players: dict[str, PlayerState]
    institutions: dict[str, Institution]
    prefect: str
    """The institution whose prefect field holds the prefect."""
    bag: dict[str, int] = attrs.field(validator=counts_not_negative)
    favour_supply: Stock = attrs.field(validator=attrs.validators.optional(not_negative))
    """Favours in the supply; null when a profile makes it unlimited (components.favours
    null, reference/core/stock.py): it never runs out and takes back what is returned."""
    wreath_supply: Stock = attrs.field(validator=attrs.validators.optional(not_negative))
    """Wreaths in the supply; null when unlimited (components.wreaths null)."""
    temple_order: tuple[str, ...]
    """Families from space I down; earlier wins influence ties."""
    common_deck: tuple[str, ...]
    """Common cards still face down, by id (kept sorted: the order is drawn by chance)."""
    common_discard: tuple[str, ...]
    """Common cards face up in the discard pile, oldest first."""
    moved: tuple[str, ...] = ()
    """This turn's one-step moves, as '<institution>' or '<institution>+wreath' landed on."""
    moved_far: bool = False
    """Whether a member has made a two-step move this turn."""
    card: str | None = None
    """The card being carried out."""
    draw_for: str = attrs.field(default="", validator=attrs.validators.in_(DRAW_PURPOSES))
    """Why a citizen is being drawn or placed (setup, field, card, emporium, basilica)."""
    draws_left: int = attrs.field(default=0, validator=not_negative)
    """Citizens the citizen card still draws after the one in hand."""
    drawn: str | None = None
    """A drawn citizen waiting to be put in a home institution."""
    field_for: str | None = None
    """The institution whose citizen field the next draw refills."""
    chooser: str | None = None
    """Who places a drawn citizen (the active player, or the emporium's user)."""
    powers: tuple[str, ...] = ()
    """Institutions whose power is still to activate for the card in hand."""
    power: str | None = None
    """The institution whose power is being used."""
    power_user: str | None = None
    """The family with most influence there, who uses it."""
    relocated: tuple[str, ...] = ()
    """Praetorium: members already relocated this use, as in ``moved``."""
