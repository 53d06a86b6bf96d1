"""What a Palmyra event's fields must name: a piece, a tile code, a stack, a cell written
``x,y``. A field that names none of them makes the event malformed, whatever the position:
it is read before any rule is judged, even the end and whose turn it is (the shell's
``check_names``), so the verdict on an unreadable event never depends on when it comes."""

from __future__ import annotations

from reference.core.errors import MalformedEvent
from reference.palmyra.events import (
    ChooseExtraTile,
    CollectTaxes,
    Conquer,
    DrawTile,
    FlipTile,
    MovePiece,
    PlaceTile,
    Reorganise,
)
from reference.palmyra.lattice import CENTRE, parse_cell
from reference.palmyra.state import PIECES
from reference.palmyra.tiles import STACK_SIZES, TILES


def check_fields(state: object, event: object) -> None:
    """Every named field of ``event`` names something of the game; else MalformedEvent."""
    del state  # the names are the game's own, the same in every position
    if isinstance(event, Conquer | CollectTaxes | MovePiece):
        check_piece(event.piece)
    if isinstance(event, PlaceTile | FlipTile | DrawTile):
        check_tile_code(event.tile)
    if isinstance(event, PlaceTile) and parse_cell(event.cell) is None:
        raise MalformedEvent(f"cell must look like 'x,y', not {event.cell!r}", "cell")
    if isinstance(event, MovePiece) and event.to != CENTRE and parse_cell(event.to) is None:
        raise MalformedEvent(f"to must be 'centre' or a cell 'x,y', not {event.to!r}", "to")
    if isinstance(event, Reorganise) and event.stack not in STACK_SIZES:
        raise MalformedEvent(f"stack must be 'large' or 'small', not {event.stack!r}", "stack")
    if isinstance(event, ChooseExtraTile) and event.size not in STACK_SIZES:
        raise MalformedEvent(f"size must be 'large' or 'small', not {event.size!r}", "size")


def check_piece(piece: str) -> None:
    """A piece field names the legion or the censor (else the event is malformed)."""
    if piece not in PIECES:
        raise MalformedEvent(f"piece must be 'legion' or 'censor', not {piece!r}", "piece")


def check_tile_code(code: str) -> None:
    """A tile field is a tile code like 'L:D' or 'S:H+W' (else the event is malformed)."""
    if code not in TILES:
        raise MalformedEvent(f"{code!r} is no tile code (e.g. 'L:D', 'S:H+W')", "tile")
