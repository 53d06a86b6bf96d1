"""Looking rules up across every catalogue: the games' and the oracle's own (CORE-*)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from reference.core.aliases import Alias, load_aliases
from reference.core.catalogue import Catalogue, Rule, load_catalogue
from reference.core.game import Game
from reference.core.ruleset import RuleSet

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


def game_aliases(game: Game) -> tuple[Alias, ...]:
    """The other names of a game's cards, spaces and pieces (its aliases.yaml), if any."""
    if not isinstance(game, RuleSet):
        return ()
    return load_aliases(game.package_dir)


def alias_text(alias: Alias, game: str) -> str:
    """``Wollmesse (pillars): German name of advantage card wool_fair [source]``."""
    note = f"; {alias.note}" if alias.note else ""
    return (
        f"{alias.alias} ({game}): {alias.language} name of {alias.what} {alias.means} "
        f"[{alias.source}{note}]; logs use {alias.means}, never {alias.alias}"
    )


def rules_naming(catalogue: Catalogue, our_id: str) -> tuple[str, ...]:
    """Ids of the rules whose title or statement names ``our_id`` (underscores as spaces)."""
    words = our_id.replace("_", " ").lower()
    return tuple(r.id for r in catalogue.rules if words in f"{r.title} {r.statement}".lower())
