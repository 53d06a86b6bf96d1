"""Since when a player owes what blocks the game: the event that put a player over a limit.

A refusal while a player owes something (a discard over the craftsman limit: PIL-CRAFT-01)
says who owes it; the event at fault in another implementation is usually the earlier one
that made it owed (the sixth craftsman taken, the Shiring step that gave it). On an illegal
verdict only, the log's prefix is replayed once more, asking the game after each event what
each player owes (``RuleSet.owes``), to find the event since which it has been owed:

    ; since event 44 (take_craftsman), red owes a discard: red holds 6 craftsmen, over the
    limit of 5; the newest, mason_1, was bought in Phase I; the discard was due at once
    (PIL-CRAFT-01)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from oracle.formats.converter import structure_event
from oracle.formats.log import ResultRecord, parse_header, parse_record
from reference.core.game import Game, step


def _owes(game: Game) -> Callable[[Any, str], str] | None:
    """The game's ``owes`` (a game on the shared shell has it; another may not)."""
    owes = getattr(game, "owes", None)
    return owes if callable(owes) else None


def owing(game: Game, state: Any, players: Sequence[str]) -> list[str]:
    """The players who owe something at ``state`` (none for a game that says nothing)."""
    owes = _owes(game)
    return [name for name in players if owes(state, name)] if owes else []


def owed_since(
    lines: Iterator[tuple[int, dict[str, Any]]], game: Game, state: Any, upto: int
) -> str:
    """For each player owing something at ``state`` (the state before event ``upto`` of
    the log read afresh as ``lines``): since which event, and what, in the words the game
    used right after that event; "" when nobody owes anything."""
    first = next(lines, None)
    if first is None:
        return ""
    players = parse_header(*first).players
    wanted = owing(game, state, players)
    owes = _owes(game)
    if not wanted or owes is None:
        return ""
    now = game.new_game(players)
    since: dict[str, tuple[int, str, str]] = {}
    """Player -> (event index, event type, what they owe) since they have owed it."""
    index = -1
    for number, raw in lines:
        record = parse_record(number, raw)
        if isinstance(record, ResultRecord) or index + 1 >= upto:
            break
        index += 1
        now = step(game, now, structure_event(game, record.raw))
        for name in wanted:
            what = owes(now, name)
            if not what:
                since.pop(name, None)
            elif name not in since:
                since[name] = (index, str(record.raw.get("type")), what)
    return "".join(
        f"; since event {since[name][0]} ({since[name][1]}), {name} owes {since[name][2]}"
        for name in wanted
        if name in since
    )
