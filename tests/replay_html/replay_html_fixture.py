"""Failing logs of each verdict kind, each made by hand from the valid Pillars example.

examples/pillars.jsonl (2 players, red starts): line 4 sets aside forest_small and
quarry_small, so line 5's red may not take forest_small (PIL-CARDS-02: only cards in the
supply); line 11 claims red holds 10 gold after placing at market_1; line 20 is event 18.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "pillars.jsonl"


def write_failing_logs(folder: Path) -> dict[str, Path]:
    """illegal, divergent, malformed and incomplete logs in ``folder``, by verdict kind."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    edits = {
        "illegal": {5: lines[4].replace("gravel_medium", "forest_small")},
        "divergent": {11: lines[10].replace('"players.red.gold": 10', '"players.red.gold": 11')},
        "malformed": {20: '{"type": "fly", "player": "red"}'},
    }
    folder.mkdir(parents=True, exist_ok=True)
    made = {}
    for kind, changes in edits.items():
        edited = [changes.get(number, line) for number, line in enumerate(lines, 1)]
        if edited == lines:
            raise AssertionError(f"the {kind} edit changed nothing: has the example changed?")
        made[kind] = folder / f"{kind}.jsonl"
        made[kind].write_text("\n".join(edited) + "\n", encoding="utf-8")
    made["incomplete"] = folder / "incomplete.jsonl"
    made["incomplete"].write_text("\n".join(lines[:60]) + "\n", encoding="utf-8")
    return made
