"""Write the perft suites perft/<game>.yaml from tests/perft/recipes.py, counted by our engine.

python tests/perft/make_suites.py [game ...]

Run it when a suite needs a new position, or when a change of the rules changes the counts
(then say why in the commit: the tests compare every count with a second method and with
hand-worked small cases, so a count never changes silently).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import yaml
from recipes import RECIPES, Recipe, found

from oracle.formats.converter import to_json
from oracle.perft import Spot, count, spot_position
from oracle.perft_files import SUITE_FORMAT, SUITE_VERSION

ROOT = Path(__file__).resolve().parents[2]
SUITES = ROOT / "perft"

HEADER = """\
# Perft suite for {title} (docs/perft.md): each position with the number of legal event
# sequences of 1, 2, ... events from it, every chance outcome a branch. Counted by
# rules-oracle's reference engine (tests/perft/make_suites.py); every count is checked by the
# tests, some by a second method that does not ask the engine for its legal events.
"""
TITLES = {
    "pillars": "The Pillars of the Earth",
    "milestones": "Milestones",
    "palmyra": "Palmyra",
    "municipium": "Municipium",
}


def entry_text(game: str, recipe: Recipe) -> tuple[str, float]:
    """One position of the suite as YAML (the events one a line), and its counting time."""
    events, state = found(game, recipe)
    values: dict[str, Any] = {}
    if recipe.state is not None:
        from reference.registry import make_game

        values = recipe.state(make_game(game, recipe.options), state)
    players = tuple(("red", "blue", "green", "yellow", "white")[: recipe.players])
    spot = Spot(game, players, dict(recipe.options), tuple(events), values)
    position = spot_position(spot)
    started = time.monotonic()
    counts = {d: count(position, d) for d in range(1, recipe.depth + 1)}
    seconds = time.monotonic() - started
    lines = [
        f"  - id: {recipe.id}",
        f"    description: {json.dumps(recipe.description)}",
        f"    players: {json.dumps(list(players))}",
    ]
    if recipe.options:
        lines.append(f"    options: {json.dumps(recipe.options)}")
    if events or values:
        lines.append("    given:")
    if events:
        lines.append("      events:")
        lines += [f"        - {json.dumps(e)}" for e in events]
    if values:
        lines.append(f"      state: {json.dumps(to_json(values))}")
    shown = ", ".join(f"{d}: {n}" for d, n in counts.items())
    lines.append(f"    perft: {{{shown}}}")
    return "\n".join(lines), seconds


def write_suite(game: str) -> None:
    parts = [HEADER.format(title=TITLES[game])]
    parts.append(f"format: {SUITE_FORMAT}\nversion: {SUITE_VERSION}\ngame: {game}\npositions:")
    for recipe in RECIPES[game]:
        text, seconds = entry_text(game, recipe)
        print(f"{game} {recipe.id}: depth {recipe.depth} in {seconds:.2f} s", flush=True)
        parts.append(text)
    path = SUITES / f"{game}.yaml"
    text = "\n".join(parts) + "\n"
    yaml.safe_load(text)  # the file reads back
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")


def main(games: list[str]) -> None:
    for game in games or list(RECIPES):
        write_suite(game)


if __name__ == "__main__":
    main(sys.argv[1:])
