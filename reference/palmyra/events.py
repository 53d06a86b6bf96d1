"""Palmyra's events: one class per player decision, and the chance draw of a tile.

A turn is one action, split into small steps so every choice can be listed:
Conquer = ``conquer`` then 1-4 ``place_tile`` then ``end_action`` (then perhaps
``choose_extra_tile`` and ``draw_tile`` draws); Collect taxes = ``collect_taxes``,
optionally ``flip_tile``, 1-4 ``place_tile``, ``end_action``; Reorganise =
``reorganise`` (a ``draw_tile`` follows), up to two ``move_piece``, ``end_action``.
"""

from __future__ import annotations

from typing import ClassVar

import attrs


@attrs.frozen
class Conquer:
    """Start a Conquer action with ``piece`` ('legion'; 'censor' only with the emperor)."""

    type: ClassVar[str] = "conquer"
    player: str
    piece: str


@attrs.frozen
class CollectTaxes:
    """Start a Collect-taxes action with ``piece`` ('censor'; 'legion' with the emperor)."""

    type: ClassVar[str] = "collect_taxes"
    player: str
    piece: str


@attrs.frozen
class FlipTile:
    """During Collect taxes: turn the face-up tile ``tile`` (a code) face down for good."""

    type: ClassVar[str] = "flip_tile"
    player: str
    tile: str


@attrs.frozen
class PlaceTile:
    """Place ``tile`` (a code from the supply) on ``cell`` ('x,y'); the piece moves onto it."""

    type: ClassVar[str] = "place_tile"
    player: str
    tile: str
    cell: str


@attrs.frozen
class EndAction:
    """Finish the action in progress (the chain, or Reorganise's moves)."""

    type: ClassVar[str] = "end_action"
    player: str


@attrs.frozen
class ChooseExtraTile:
    """With an odd number of earned tiles: which stack ('large'/'small') gives the extra one."""

    type: ClassVar[str] = "choose_extra_tile"
    player: str
    size: str


@attrs.frozen
class Reorganise:
    """Reorganise: draw a tile from ``stack`` ('large'/'small'); optionally buy the emperor."""

    type: ClassVar[str] = "reorganise"
    player: str
    stack: str
    take_emperor: bool = False


@attrs.frozen
class MovePiece:
    """During Reorganise: move ``piece`` to ``to`` (an empty land tile's cell, 'centre',
    or the cell of the player's other piece, which swaps the two)."""

    type: ClassVar[str] = "move_piece"
    player: str
    piece: str
    to: str


@attrs.frozen
class DrawTile:
    """Chance: the top tile of the stack a draw is due from turns out to be ``tile``."""

    type: ClassVar[str] = "draw_tile"
    tile: str


PalmyraEvent = (
    Conquer
    | CollectTaxes
    | FlipTile
    | PlaceTile
    | EndAction
    | ChooseExtraTile
    | Reorganise
    | MovePiece
    | DrawTile
)

EVENT_TYPES: tuple[type[PalmyraEvent], ...] = (
    Conquer,
    CollectTaxes,
    FlipTile,
    PlaceTile,
    EndAction,
    ChooseExtraTile,
    Reorganise,
    MovePiece,
    DrawTile,
)
