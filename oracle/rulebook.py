"""Looking rules up across every catalogue: the games' and the oracle's own (CORE-*)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import attrs

from reference.core.catalogue import Catalogue, Rule, load_catalogue
from reference.core.game import Game

_CORE_RULES = Path(__file__).resolve().parent.parent / "reference" / "core" / "data" / "rules.yaml"


@cache
def core_catalogue() -> Catalogue:
    """The rules every game shares (CORE-*)."""
    return load_catalogue(_CORE_RULES)


def find_rule(game: Game, rule_id: str) -> Rule | None:
    """The rule with this id in the game's catalogue or the core one."""
    return game.catalogue.get(rule_id) or core_catalogue().get(rule_id)


def citation(rule: Rule | None) -> str:
    """The rule's sources on one line."""
    if rule is None:
        return ""
    return "; ".join(f"{s.ref} ({s.note})" if s.note else s.ref for s in rule.sources)


def placeholder_keys(game: Game, rule: Rule | None) -> tuple[str, ...]:
    """The data keys ``rule`` rests on whose value in force nobody has confirmed."""
    if rule is None:
        return ()
    in_force = set(game.data.placeholders())
    return tuple(key for key in rule.data if key in in_force)


def option_values(game: Game, option: str) -> tuple[Any, ...]:
    """Every value an option of ``game`` may take: both for a flag, else the choices its
    validator allows (empty when the option is unknown or takes any value)."""
    options_type = type(game.options)
    if not attrs.has(options_type):
        return ()
    field = attrs.fields_dict(options_type).get(option)
    if field is None:
        return ()
    if field.type in (bool, "bool"):
        return (False, True)
    allowed = getattr(field.validator, "options", None)
    return tuple(allowed) if isinstance(allowed, (tuple, list, set, frozenset)) else ()
