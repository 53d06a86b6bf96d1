"""Looking rules up across every catalogue: the games' and the oracle's own (CORE-*)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from reference.core.aliases import Alias, Term, load_aliases, terms_named
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
    return _aliases_in(game.package_dir)


@cache
def _aliases_in(package_dir: Path) -> tuple[Alias, ...]:
    """A game's aliases file, read once."""
    return load_aliases(package_dir)


def alias_text(alias: Alias, game: str) -> str:
    """``Wollmesse (pillars): German name of advantage card wool_fair [source]``."""
    note = f"; {alias.note}" if alias.note else ""
    return (
        f"{alias.alias} ({game}): {alias.language} name of {alias.what} {alias.means} "
        f"[{alias.source}{note}]; logs use {alias.means}, never {alias.alias}"
    )


def rules_naming(catalogue: Catalogue, our_id: str) -> tuple[str, ...]:
    """Ids of the rules whose title or statement names ``our_id`` (underscores as spaces,
    apostrophes aside: ``kings_court`` is named by "King's Court")."""
    words = _plain(our_id.replace("_", " "))
    return tuple(r.id for r in catalogue.rules if words in _plain(f"{r.title} {r.statement}"))


def _plain(text: str) -> str:
    return text.lower().replace("'", "").replace("\u2019", "")


def game_terms(game: Game, word: str) -> tuple[Term, ...]:
    """The game's own ids that are ``word`` (its cards, pieces, places, event types)."""
    vocabulary = getattr(game, "vocabulary", None)
    return terms_named(vocabulary(), word) if callable(vocabulary) else ()


def term_text(term: Term, game: Game) -> list[str]:
    """What one of the game's own ids is: ``jack (pillars): advantage card (permanent)``,
    its data in force with status and source, and the rules that name it."""
    out = [f"{term.id} ({game.name}): {term.what}"]
    entry = game.data.entries.get(term.data) if term.data else None
    if entry is not None:
        value = _value_of(entry.value, term)
        shown = "" if value is _NOTHING else f" = {json.dumps(value)}"
        out.append(f"  data {term.data}{shown} [{entry.status}: {entry.source}]")
    naming = dict.fromkeys([*term.rules, *rules_naming(game.catalogue, term.id)])
    if naming:
        out.append(f"  rules naming {term.id}: {', '.join(naming)}")
    return out


_NOTHING = object()


def _value_of(value: Any, term: Term) -> Any:
    """The part of a data value about ``term``: its entry in a mapping or a list of
    records with ids, or the whole value of a key named after it."""
    if isinstance(value, dict) and term.id in value:
        return value[term.id]
    if isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and item.get("id") == term.id:
                return item
    if term.data.endswith(term.id):
        return value
    return _NOTHING
