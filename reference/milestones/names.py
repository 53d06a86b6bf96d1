"""The rulebook's vocabulary for Milestones: worker kinds, goods and the player-board spaces."""

from __future__ import annotations

from typing import Final, Literal

GAME = "milestones"

KINDS: tuple[str, ...] = ("quarryman", "lumberjack", "sand_worker", "grain_grower", "coiner")
"""The five worker kinds, in the order the rulebook lists them."""

GOODS: tuple[str, ...] = ("stone", "wood", "sand", "grain")
"""The four kinds of goods cubes."""

COIN = "coin"
ITEMS: tuple[str, ...] = (*GOODS, COIN)
"""Everything a worker produces and the castle taxes: the goods and coins."""

PRODUCT: dict[str, str] = {
    "quarryman": "stone",
    "lumberjack": "wood",
    "sand_worker": "sand",
    "grain_grower": "grain",
    "coiner": COIN,
}
"""What each worker kind produces (DE-RULES, EN-RULES)."""

WORKER_SPACES: tuple[str, ...] = ("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8")
TRADING_HOUSE = "trading_house"
BOARD_OF_WORKS = "board_of_works"
MILL = "mill"
CASTLE = "castle"
LOOP: tuple[str, ...] = (*WORKER_SPACES, TRADING_HOUSE, BOARD_OF_WORKS, MILL, CASTLE)
"""The player board's loop in clockwise order; after the Castle comes W1 again."""
LOOP_INDEX: dict[str, int] = {space: i for i, space in enumerate(LOOP)}
TILE_SPACES: tuple[str, ...] = WORKER_SPACES[:-1]
"""Where a worker tile's left half may lie: W1..W7 (the tile covers that space and the next)."""

# Phases of the game.
SETUP: Final = "setup"
DRAFT: Final = "draft"
TURNS: Final = "turns"
OVER: Final = "over"
Phase = Literal["setup", "draft", "turns", "over"]
PHASES: tuple[Phase, ...] = (SETUP, DRAFT, TURNS, OVER)

LEFT = "left"
RIGHT = "right"

PIECES: tuple[str, ...] = (
    "road_pieces",
    "milestones",
    "houses",
    "marketplaces",
    "flour_sacks",
    "cover_tiles",
)
"""The piece stocks of the general supply (besides goods cubes and coins)."""
