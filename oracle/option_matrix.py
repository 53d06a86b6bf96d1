"""``conform --option-matrix``: every documented option value and mode of a game, one at a
time, each a setting the run's games take in turn.

A game's options are the fields of its options class (reference/<game>/options.py; the
"Options" table of docs/games/<game>.md lists the same): a field with a fixed set of values
(an ``in_`` validator) takes each of them, a yes/no field both. The matrix starts with the
options as given (``--options``, defaults for the rest) and adds, for each field and each of
its other values, those options with that one field changed: every value is played, with
the others at their defaults, so a finding names the one setting that shows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from reference.registry import make_game


def option_values(game: str) -> dict[str, tuple[Any, ...]]:
    """Each option of ``game`` with every value it takes, its default first."""
    parsed: Any = make_game(game, {}).options  # an attrs class of each game's own
    found: dict[str, tuple[Any, ...]] = {}
    for field in attrs.fields(type(parsed)):
        default = getattr(parsed, field.name)
        values = _values(field)
        if values:
            found[field.name] = (default, *(v for v in values if v != default))
    return found


def _values(field: attrs.Attribute[Any]) -> tuple[Any, ...]:
    """The values a field takes: its ``in_`` validator's, or both of a yes/no field's."""
    choices = getattr(field.validator, "options", None)
    if choices is not None:
        return tuple(choices)
    if field.type in (bool, "bool"):
        return (False, True)
    return ()


def option_matrix(game: str, base: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The options of each game of the matrix: ``base`` first, then ``base`` with one option
    set to one of its other values, option by option (catalogue order), value by value.
    A setting ``base`` already has is not repeated. Raises BadOptions for bad ``base``."""
    make_game(game, base)  # bad base options are the caller's usage error
    settings = [dict(base)]
    for name, values in option_values(game).items():
        current = base.get(name, values[0])
        for value in values:
            if value != current:
                settings.append({**base, name: value})
    return settings


def players_range(game: str, options: Mapping[str, Any]) -> tuple[int, int]:
    """The fewest and most players the game takes with these options (a mode may differ:
    Palmyra's solo game takes one)."""
    rules = make_game(game, options)  # BadOptions for bad options
    return rules.min_players, rules.max_players
