"""Palmyra's options: the game mode and the points where players really differ."""

from __future__ import annotations

import attrs
from attrs import validators as v

STANDARD = "standard"
ADVANCED = "advanced"
SOLO = "solo"


@attrs.frozen
class PalmyraOptions:
    """Options of a Palmyra rule set (all optional; defaults are our catalogue decisions).

    - ``mode``: ``standard`` (2-5 players), ``advanced`` (2-5 players with the emperor,
      PAL-EMP-*) or ``solo`` (1 player, PAL-SOLO-*).
    - ``icon_match``: ``replace`` (a neighbour pays the icon reward instead of the
      landscape reward when both match) or ``add`` (both rewards). PAL-MATCH-02.
    - ``match_timing``: ``before_move`` (matches are counted while the acting piece still
      stands on its previous tile, which is occupied) or ``after_move``. PAL-MATCH-05.
    - ``tax_threshold``: ``more_than`` (the face-down bonus needs more coins than
      face-down tiles) or ``at_least``. PAL-TAX-05.
    - ``flip_timing``: ``before_chain`` (the flip comes before the first placement and
      counts this turn) or ``after_chain`` (after the last placement; counts from the next
      tax action on). PAL-TAX-04.
    - ``lone_icon``: ``allowed`` (an icon tile may be placed alone) or ``forbidden`` (it
      needs a plain partner in the same action). PAL-CHAIN-04.
    - ``tiles_end``: ``stacks_empty`` (the game ends as soon as both stacks are empty: no
      more land tiles can be drawn) or ``draw_fails`` (it ends only when a tile must be
      drawn and cannot be). PAL-END-01.
    """

    mode: str = attrs.field(default=STANDARD, validator=v.in_((STANDARD, ADVANCED, SOLO)))
    icon_match: str = attrs.field(default="replace", validator=v.in_(("replace", "add")))
    match_timing: str = attrs.field(
        default="before_move", validator=v.in_(("before_move", "after_move"))
    )
    tax_threshold: str = attrs.field(
        default="more_than", validator=v.in_(("more_than", "at_least"))
    )
    flip_timing: str = attrs.field(
        default="before_chain", validator=v.in_(("before_chain", "after_chain"))
    )
    lone_icon: str = attrs.field(default="allowed", validator=v.in_(("allowed", "forbidden")))
    tiles_end: str = attrs.field(
        default="stacks_empty", validator=v.in_(("stacks_empty", "draw_fails"))
    )
