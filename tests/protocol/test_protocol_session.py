"""The sample session of docs/protocol.md is what ``rules-oracle serve`` answers, word for word.

The requests are the ones below; the answers are made by running our ``serve`` on them (in
process, as ``rules-oracle serve --game municipium --seed 1`` runs it), so the page can never
drift from the engine again. After a change of wording, rewrite the page's block with

    python -m tests.protocol.test_protocol_session --write
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from oracle.serve import serve

PAGE = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
GAME, SEED = "municipium", 1
REQUESTS: list[dict[str, object]] = [
    {"op": "hello", "protocol": 1},
    {"op": "new_game", "game": GAME, "players": ["red", "blue"], "options": {}},
    {"op": "to_act"},
    {"op": "legal"},
    {"op": "perft", "depth": 2},
    {"op": "apply", "event": {"type": "place_member", "player": "red", "institution": "temple"}},
    {"op": "apply", "event": {"type": "place_member", "player": "red", "institution": "tavern"}},
    {"op": "apply", "event": {"type": "place_member", "player": "red", "institution": "arena"}},
    {"op": "apply", "event": {"type": "place_member", "player": "grey", "institution": "forum"}},
    {"op": "apply", "event": {"type": "hire_member", "player": "blue"}},
    {
        "op": "state",
        "paths": [
            "current",
            "players.red.members.temple",
            "players.red.unplaced",
            "bag.soldier",
            "players.red.citizens.soldier",
            "players.red.gold",
        ],
    },
    {"op": "set_state", "values": {"bag.soldier": 12, "players.red.citizens.soldier": 1}},
    {"op": "set_state", "values": {"bag.soldier": 10}},
    {"op": "set_state", "values": {"players.red.gold": 5}},
    {"op": "state", "paths": ["bag.soldier", "players.red.citizens.soldier"]},
    {"op": "next"},
    {"op": "to_act"},
    {"op": "result"},
    {"op": "bye"},
]


def session_lines() -> list[str]:
    """The session as the page shows it: each request, then our ``serve``'s answer."""
    requests = [json.dumps(r) for r in REQUESTS]
    out = io.StringIO()
    serve((GAME,), SEED, io.BytesIO(("\n".join(requests) + "\n").encode()), out)
    answers = out.getvalue().splitlines()
    assert len(answers) == len(requests)
    lines = []
    for request, answer in zip(requests, answers, strict=True):
        lines += [f"→ {request}", f"← {answer}"]
    return lines


def page_block(text: str) -> tuple[int, int]:
    """Where the session's lines are in the page's text (start and end offsets)."""
    start = text.index("```text\n", text.index("## A session")) + len("```text\n")
    return start, text.index("```", start)


def test_the_pages_session_is_what_serve_answers() -> None:
    text = PAGE.read_text(encoding="utf-8")
    start, end = page_block(text)
    assert text[start:end].splitlines() == session_lines()


def test_the_session_shows_the_points_an_implementer_asks_about() -> None:
    answers = {i: json.loads(line[2:]) for i, line in enumerate(session_lines()[1::2])}
    # each family places its first member in any of the seven institutions: 7 x 7
    assert answers[4]["count"] == 7 * 7
    assert answers[6]["illegal"] and answers[6]["rule"] == "MUN-TURN-01"  # out of turn
    # unreadable, though out of turn too: read before any rule, a failure not a refusal
    assert "error" in answers[7] and "not an institution" in answers[7]["error"]
    assert "error" in answers[8] and "not in this game" in answers[8]["error"]  # no such player
    assert "error" in answers[9] and "unknown event type" in answers[9]["error"]


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    page = PAGE.read_text(encoding="utf-8")
    begin, finish = page_block(page)
    PAGE.write_text(page[:begin] + "\n".join(session_lines()) + "\n" + page[finish:])
