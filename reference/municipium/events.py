"""Every action and chance outcome of Municipium, with its wire name ``type``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

import attrs

from reference.core.game import Event

TOKEN_ORDER: tuple[str, ...] = ("soldier", "advocate", "merchant", "priest", "favour")
"""The order a basilica exchange lists its tokens in (citizen kinds, then favours)."""


def canonical_tokens(tokens: Iterable[str]) -> tuple[str, ...]:
    """The tokens of a basilica exchange in one fixed order: the three tokens are a handful,
    not a sequence, so ``[favour, soldier, soldier]`` and ``[soldier, soldier, favour]`` are
    the same event (MUN-BASILICA-01). Unknown names sort last, for the rule to refuse."""
    rank = {name: i for i, name in enumerate(TOKEN_ORDER)}
    return tuple(sorted(tokens, key=lambda t: (rank.get(t, len(rank)), str(t))))


# --- chance outcomes -------------------------------------------------------------------


@attrs.frozen
class DrawCitizen:
    """Chance: a citizen of ``kind`` comes out of the bag."""

    type: ClassVar[str] = "draw_citizen"
    kind: str


@attrs.frozen
class RevealCard:
    """Chance: the top common card (after any reshuffle) is ``card``."""

    type: ClassVar[str] = "reveal_card"
    card: str


# --- setup ------------------------------------------------------------------------------


@attrs.frozen
class PlaceMember:
    """Initial placement: put one family member in an institution."""

    type: ClassVar[str] = "place_member"
    player: str
    institution: str


# --- the turn ---------------------------------------------------------------------------


@attrs.frozen
class MoveMember:
    """Move step: one member walks ``path`` (two institutions for one step, three for two)."""

    type: ClassVar[str] = "move_member"
    player: str
    path: tuple[str, ...]
    wreathed: bool = False


@attrs.frozen
class DrawCommon:
    """Card step: activate the top common card (revealed by a chance event)."""

    type: ClassVar[str] = "draw_common"
    player: str


@attrs.frozen
class PlayFamilyCard:
    """Card step: activate one of one's face-up family cards, which is then spent."""

    type: ClassVar[str] = "play_family_card"
    player: str
    card: str


@attrs.frozen
class MovePrefect:
    """A prefect card with a free target: send the prefect to ``institution``."""

    type: ClassVar[str] = "move_prefect"
    player: str
    institution: str


@attrs.frozen
class PlaceCitizen:
    """Put the drawn citizen in ``institution`` (one of its kind's homes)."""

    type: ClassVar[str] = "place_citizen"
    player: str
    institution: str


# --- institution powers -----------------------------------------------------------------


@attrs.frozen
class EndPower:
    """Decline an optional power, or stop using it (emporium draws, praetorium moves)."""

    type: ClassVar[str] = "end_power"
    player: str


@attrs.frozen
class TavernPull:
    """Tavern: move ``plain`` + ``wreathed`` members of ``family`` from ``origin`` to the tavern."""

    type: ClassVar[str] = "tavern_pull"
    player: str
    family: str
    origin: str
    plain: int
    wreathed: int = 0


@attrs.frozen
class UseBaths:
    """Baths: move all one's baths members to the temple and wreathe one of them."""

    type: ClassVar[str] = "use_baths"
    player: str


@attrs.frozen
class EmporiumDraw:
    """Emporium: draw one more citizen from the bag (placed in its home before the next)."""

    type: ClassVar[str] = "emporium_draw"
    player: str


@attrs.frozen
class BasilicaExchange:
    """Basilica option 1: spend three tokens (citizen kinds or 'favour') for one decurion.

    The tokens are kept in one fixed order (``canonical_tokens``), whatever order a log gives.
    """

    type: ClassVar[str] = "basilica_exchange"
    player: str
    tokens: tuple[str, ...] = attrs.field(converter=canonical_tokens)


@attrs.frozen
class BasilicaDraw:
    """Basilica option 2: draw one citizen from the bag and keep it."""

    type: ClassVar[str] = "basilica_draw"
    player: str


@attrs.frozen
class ForumTakeFromPlayer:
    """Forum option 1: take one citizen of ``kind`` from the family ``victim``."""

    type: ClassVar[str] = "forum_take_from_player"
    player: str
    victim: str
    kind: str


@attrs.frozen
class ForumTakeFromInstitution:
    """Forum option 2: take one citizen from ``institution``'s common area."""

    type: ClassVar[str] = "forum_take_from_institution"
    player: str
    institution: str


@attrs.frozen
class RelocateMember:
    """Praetorium: move one of one's members from ``origin`` to any ``destination``."""

    type: ClassVar[str] = "relocate_member"
    player: str
    origin: str
    destination: str
    wreathed: bool = False


EVENT_TYPES: tuple[type[Event], ...] = (
    DrawCitizen,
    RevealCard,
    PlaceMember,
    MoveMember,
    DrawCommon,
    PlayFamilyCard,
    MovePrefect,
    PlaceCitizen,
    EndPower,
    TavernPull,
    UseBaths,
    EmporiumDraw,
    BasilicaExchange,
    BasilicaDraw,
    ForumTakeFromPlayer,
    ForumTakeFromInstitution,
    RelocateMember,
)
