"""Failing logs of each verdict kind for each game, each made by hand from the game's valid
example (``examples/<game>.jsonl``, 2 players: red and blue).

Why each edit fails, read from the rules and the examples, not from the engine's output:

- pillars, illegal (PIL-CARDS-02, only cards in the supply): line 4 sets aside forest_small
  and quarry_small, so line 5's red may not take forest_small (event 3).
- pillars, illegal_placeholder (PIL-BUILD-07, one builder per space; its capacities are
  placeholders): red's builder stands on market_1 since line 11, so red may not place
  another one there at line 13 (event 11).
- pillars, illegal_late (PIL-CARDS-02 again, in round 5): line 139 sets aside forest_large,
  so blue may not take it at line 143 (event 141).
- pillars, divergent: line 11 claims red holds 11 gold after paying the cost marker's 7 of
  the 17 red held (20 by seat, minus 3 for the master woodworker): the reference says 10.
- milestones, illegal (MIL-ROAD-06, a road is two adjacent map edges): line 124's road
  0,0-1,0-5,0 ends 4 points from its milestone (event 122).
- milestones, divergent: line 33 claims blue holds 4 coins; the example's claim is 1.
- palmyra, illegal (PAL-PLACE-04, the first tile touches the city centre): red's first tile
  (line 7, event 5) goes on 5,3, far from the 2-player centre 0,0 / 1,0 / -1,0.
- palmyra, illegal_late (PAL-PLACE-02, only on an empty cell): blue's L:H lies on 0,2 since
  line 67, so blue's tile may not go there at line 86 (event 84).
- palmyra, divergent: line 6 claims red's legion stands on 0,1; it is still in the centre.
- municipium, illegal (MUN-MOVE-01, members walk along roads): no road joins the tavern and
  the forum (board.roads: a ring in number order), so line 32's move fails (event 30).
- municipium, illegal_late (MUN-MOVE-01 again): no road joins the baths and the forum, so
  line 138's two-step walk emporium-baths-forum fails (event 136).
- municipium, divergent: line 23 claims 14 priests in the bag; the example's claim is 13.
- every game, malformed: line 20 is an event of a type no game has (event 18).
- every game, incomplete: the first 60 lines only (event 58 is the last).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "pillars.jsonl"
GAMES = ("pillars", "milestones", "palmyra", "municipium")

# game -> kind -> (line number, text in the line, its replacement)
EDITS: dict[str, dict[str, tuple[int, str, str]]] = {
    "pillars": {
        "illegal": (5, '"gravel_medium"', '"forest_small"'),
        "illegal_placeholder": (13, '"shiring_2"', '"market_1"'),
        "illegal_late": (143, '"forest_medium"', '"forest_large"'),
        "divergent": (11, '"players.red.gold": 10', '"players.red.gold": 11'),
    },
    "milestones": {
        "illegal": (124, '"end": "2,0"', '"end": "5,0"'),
        "divergent": (33, '"players.blue.coins": 1', '"players.blue.coins": 4'),
    },
    "palmyra": {
        "illegal": (7, '"cell": "-2,0"', '"cell": "5,3"'),
        "illegal_late": (86, '"cell": "1,-1"', '"cell": "0,2"'),
        "divergent": (6, '"players.red.legion": "centre"', '"players.red.legion": "0,1"'),
    },
    "municipium": {
        "illegal": (32, '["tavern", "baths"]', '["tavern", "forum"]'),
        "illegal_late": (138, '"baths", "tavern"]', '"baths", "forum"]'),
        "divergent": (23, '"bag.priest": 13', '"bag.priest": 14'),
    },
}
RULES: dict[tuple[str, str], str] = {
    ("pillars", "illegal"): "PIL-CARDS-02",
    ("pillars", "illegal_placeholder"): "PIL-BUILD-07",
    ("pillars", "illegal_late"): "PIL-CARDS-02",
    ("milestones", "illegal"): "MIL-ROAD-06",
    ("palmyra", "illegal"): "PAL-PLACE-04",
    ("palmyra", "illegal_late"): "PAL-PLACE-02",
    ("municipium", "illegal"): "MUN-MOVE-01",
    ("municipium", "illegal_late"): "MUN-MOVE-01",
}
"""The rule each illegal edit breaks (see the module's text)."""
MALFORMED_LINE = 20
INCOMPLETE_LINES = 60


def example(game: str) -> Path:
    return ROOT / "examples" / f"{game}.jsonl"


def failing_line(game: str, kind: str) -> int:
    """The line the verdict on a failing log points at (incomplete: its last line)."""
    if kind == "malformed":
        return MALFORMED_LINE
    if kind == "incomplete":
        return INCOMPLETE_LINES
    return EDITS[game][kind][0]


def kinds(game: str) -> list[str]:
    """The failing logs ``write_failing_logs`` makes for one game."""
    return [*EDITS[game], "malformed", "incomplete"]


def write_failing_logs(folder: Path, game: str = "pillars") -> dict[str, Path]:
    """The failing logs of one game in ``folder``, by verdict kind (see the module's text)."""
    lines = example(game).read_text(encoding="utf-8").splitlines()
    edits = {
        kind: {number: _replaced(lines[number - 1], old, new)}
        for kind, (number, old, new) in EDITS[game].items()
    }
    edits["malformed"] = {MALFORMED_LINE: '{"type": "fly", "player": "red"}'}
    folder.mkdir(parents=True, exist_ok=True)
    made = {}
    for kind, changes in edits.items():
        edited = [changes.get(number, line) for number, line in enumerate(lines, 1)]
        made[kind] = folder / f"{game}-{kind}.jsonl"
        made[kind].write_text("\n".join(edited) + "\n", encoding="utf-8")
    made["incomplete"] = folder / f"{game}-incomplete.jsonl"
    made["incomplete"].write_text("\n".join(lines[:INCOMPLETE_LINES]) + "\n", encoding="utf-8")
    return made


def _replaced(line: str, old: str, new: str) -> str:
    if old not in line:
        raise AssertionError(f"{old} is not in {line[:80]}: has the example changed?")
    return line.replace(old, new)


CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Debian's chromium, headless, with nothing that reaches the network on its own."""
