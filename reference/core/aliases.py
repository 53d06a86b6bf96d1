"""Other names for a game's cards, spaces and pieces: other languages' and other
implementations' words (SAULEN's German card names, a review's translation), each with its
source. A game keeps them in ``aliases.yaml`` beside its engine::

    aliases:
      - {alias: Wollmesse, means: wool_fair, what: advantage card, language: German,
         source: "SAULEN Advantage.kt (digest §3.3)"}

They are for people (``rules-oracle explain Wollmesse``); logs and scenarios keep one
vocabulary, our ids, and accept no alias.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import attrs
import cattrs
import yaml

from reference.core import yamlfile
from reference.core.errors import BadOptions

ALIASES_FILE = "aliases.yaml"


@attrs.frozen
class Alias:
    """One other name: what it means in our vocabulary, and where it comes from."""

    alias: str
    means: str
    """Our id (a card, space, event, craftsman family, piece)."""
    what: str
    language: str
    source: str
    note: str = ""


@attrs.frozen
class AliasFile:
    """The contents of one game's aliases file."""

    aliases: tuple[Alias, ...]


_converter = cattrs.Converter(forbid_extra_keys=True)


def load_aliases(package_dir: Path) -> tuple[Alias, ...]:
    """A game's aliases (none when it has no file); a broken file raises BadOptions."""
    path = package_dir / ALIASES_FILE
    if not path.exists():
        return ()
    try:
        raw = yamlfile.load(path.read_text(encoding="utf-8"))
        return _converter.structure(raw, AliasFile).aliases
    except (OSError, yaml.YAMLError, cattrs.BaseValidationError) as exc:
        raise BadOptions(f"{path}: not a valid aliases file: {exc}") from exc


def folded(word: str) -> str:
    """A word for matching: case, accents, spaces, '-' and '_' ignored (Mörtelmischer,
    mortelmischer and MORTEL-MISCHER match)."""
    plain = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode()
    return "".join(ch for ch in plain.lower() if ch.isalnum())


def named(aliases: tuple[Alias, ...], word: str) -> tuple[Alias, ...]:
    """The aliases that are ``word`` (the other names matching it)."""
    key = folded(word)
    return tuple(a for a in aliases if folded(a.alias) == key)


def aliases_of(aliases: tuple[Alias, ...], our_id: str) -> tuple[Alias, ...]:
    """The other names of one of our ids."""
    key = folded(our_id)
    return tuple(a for a in aliases if folded(a.means) == key)


@attrs.frozen
class Term:
    """One of a game's own ids, the names logs and scenarios use: a card, craftsman, tile,
    institution, space, piece or event type (``RuleSet.vocabulary``)."""

    id: str
    what: str
    """What it is, in the game's words (``advantage card``, ``space``, ``event type``)."""
    data: str = ""
    """The data key its values are read from, if any (``advantages.cards``)."""
    rules: tuple[str, ...] = ()
    """Rule ids about it that its name alone would not find (an event type's rule)."""


def terms_named(terms: tuple[Term, ...], word: str) -> tuple[Term, ...]:
    """The game's own ids that are ``word`` (case, accents, spaces, '-' and '_' aside)."""
    key = folded(word)
    return tuple(t for t in terms if folded(t.id) == key)
