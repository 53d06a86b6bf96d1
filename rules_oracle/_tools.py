"""Profiles, seeded play-outs, replay pages, rule explanations, scenario coverage, serving."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from reference.core.errors import BadOptions
from reference.registry import game_names, make_game
from rules_oracle import _args

if TYPE_CHECKING:
    from oracle.games import GameCache
    from oracle.replay import Verdict
    from oracle.scenarios import ScenarioResult
    from reference.core.catalogue import Catalogue, Rule
    from reference.core.game import Game

__all__ = [
    "ReplayPages",
    "check_options",
    "check_profile",
    "citing_scenarios",
    "coverage",
    "explain_name",
    "explain_rule",
    "load_profile",
    "play_log",
    "read_json",
    "serve",
    "similar_rule_ids",
]


def read_json(text: str) -> Any:
    """JSON text as data, strictly (no NaN, no duplicate keys, bounded depth).
    Raises ``BadOptions`` saying what is wrong."""
    from oracle.formats.log import NotJSON, strict_json

    try:
        return strict_json(_args.text("text", text))
    except NotJSON as exc:
        raise BadOptions(exc.reason) from exc


def load_profile(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A data profile from a YAML or JSON file: data keys to values. Raises ``BadOptions``
    naming the file when it is unreadable or not such a mapping (see ``check_profile``)."""
    from reference.core.datafile import load_profile_file

    return load_profile_file(_args.path("path", path))


def check_options(options: Mapping[str, Any], game: str | None = None) -> None:
    """Raise ``BadOptions`` unless every option is one ``game`` has (with no game named:
    one some game has) with a value it takes, and a ``profile`` among them passes
    ``check_profile``. Options given for files of several games apply each to the games
    that have it (as ``validate_files`` applies them)."""
    from oracle.games import options_problem, profile_problem

    given = _args.mapping("options", options)
    names = [game] if game else list(game_names())
    problem = options_problem(given, names)
    profile = given.get("profile")
    if problem is None and profile:
        found = profile_problem(profile, names)
        problem = f"profile: {found}" if found else None
    if problem:
        raise BadOptions(problem)


def check_profile(profile: Mapping[str, Any], game: str | None = None) -> None:
    """Raise ``BadOptions`` unless ``profile`` fits ``game`` (with no game named: at least
    one game): its values are of the right shape, the setup at every player count is sound,
    and seeded games at every player count end (a bounded check; the shipped data's games
    end in a few thousand events)."""
    from oracle.games import profile_problem

    given = _args.mapping("profile", profile)
    problem = profile_problem(given, [game] if game else list(game_names()))
    if problem:
        raise BadOptions(problem)


def play_log(
    game: str,
    players: int,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    full: bool = False,
    chance: Callable[[list[tuple[dict[str, Any], float]], random.Random], dict[str, Any]]
    | None = None,
) -> list[str]:
    """The lines of a complete v1 log of a seeded random legal game, with state claims
    after each event: the actor's plain values, or with ``full`` every state path.

    Players are named from ``PLAYER_NAMES`` in seat order. ``chance``, if given, draws each
    chance outcome: it is called with the outcomes (``Position.chance_outcomes()``) and the
    game's seeded ``random.Random``, and returns one of them (a biased or broken generator,
    to test a fairness check). Raises ``BadOptions`` for an unknown game, options, or a
    player count the game does not take; ``ValueError`` when ``chance`` draws no outcome.
    """
    from oracle.play import PLAYER_NAMES, play_lines
    from reference.core.game import player_names_ok

    if isinstance(players, bool) or not isinstance(players, int):
        raise BadOptions(f"players is a number of players, not {players!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadOptions(f"seed is a whole number, not {seed!r}")
    opts = _args.mapping("options", options)
    rules = make_game(game, opts)
    # The count is checked before any name is taken: PLAYER_NAMES[:-1] would be 4 names.
    low, high = rules.min_players, min(rules.max_players, len(PLAYER_NAMES))
    if not low <= players <= high:
        raise BadOptions(f"{players} players; {rules.name} takes {low} to {high}")
    names = PLAYER_NAMES[:players]
    problem = player_names_ok(names, low, high)
    if problem:
        raise BadOptions(problem)
    return list(play_lines(rules, names, seed, opts, full=full, chance=chance))


class ReplayPages:
    """Self-contained HTML pages that step through a log or a scenario, board drawn, with
    the verdict highlighted at its event. Rule sets are made once and kept for every page.

    ``profile`` replaces data values (in the games it is about); ``options`` override each
    log header's own.
    """

    def __init__(
        self, profile: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None
    ) -> None:
        from oracle.games import GameCache

        self._games: GameCache = GameCache(
            _args.mapping("profile", profile), _args.mapping("options", options)
        )

    def log_page(self, path: str | os.PathLike[str]) -> tuple[str, Verdict]:
        """The page of a log file, and the log's verdict."""
        from oracle.html import log_page

        return log_page(_args.path("path", path), self._games)

    def scenario_page(self, path: str | os.PathLike[str]) -> tuple[str, ScenarioResult]:
        """The page of a scenario file, and the scenario's result."""
        from oracle.html import scenario_page

        return scenario_page(_args.path("path", path), self._games)


@cache
def _default_rules(name: str) -> Game:
    """A game's rule set with its default options, made once (explain looks names up in
    every game's catalogue, data and vocabulary)."""
    return make_game(name, {})


def _catalogues(game: str | None = None) -> list[tuple[Catalogue, Game | None]]:
    """Each game's catalogue with its rules (or only ``game``'s), then the shared one."""
    from oracle.rulebook import core_catalogue

    found: list[tuple[Catalogue, Game | None]] = []
    for name in [game] if game else list(game_names()):
        rules = _default_rules(name)
        found.append((rules.catalogue, rules))
    if game is None:
        found.append((core_catalogue(), None))
    return found


def explain_rule(rule_id: str) -> tuple[Rule, str] | None:
    """The rule with this id in any catalogue (any case), with what it says: statement,
    status, sources, data in force, dispute and resolution. None when there is none."""
    _args.text("rule_id", rule_id)
    for catalogue, rules in _catalogues():
        rule = catalogue.get(rule_id) or catalogue.get(rule_id.upper())
        if rule is not None:
            return rule, _explain_text(rule, rules, catalogue.game)
    return None


def similar_rule_ids(word: str) -> list[str]:
    """Up to three rule ids of any catalogue close to ``word`` (a likely misspelling)."""
    import difflib

    _args.text("word", word)
    known = [rule_id for catalogue, _ in _catalogues() for rule_id in catalogue.ids()]
    return difflib.get_close_matches(word.upper(), known, n=3, cutoff=0.6)


def explain_name(word: str) -> str | None:
    """What a name is in every game: one of the game's own ids (``jack``, ``kings_court``,
    ``take_craftsman``: what it is, its data, the rules naming it, its other names), or
    another implementation's name for one (``Wollmesse``); None when ``word`` is neither."""
    from oracle.rulebook import alias_text, game_aliases, game_terms, rules_naming, term_text
    from reference.core.aliases import aliases_of, named

    _args.text("word", word)
    out: list[str] = []
    for catalogue, rules in _catalogues():
        if rules is None:
            continue
        aliases = game_aliases(rules)
        for alias in named(aliases, word):
            out.append(alias_text(alias, catalogue.game))
            naming = rules_naming(catalogue, alias.means)
            if naming:
                out.append(f"  rules naming {alias.means}: {', '.join(naming)}")
        for term in game_terms(rules, word):
            out += term_text(term, rules)
        others = aliases_of(aliases, word)
        if others:
            out.append(f"{word} ({catalogue.game}): other names (not accepted in logs):")
            out += [f"  - {a.alias} ({a.language}; {a.source})" for a in others]
    return "\n".join(out) if out else None


def _explain_text(rule: Rule, rules: Game | None, game: str) -> str:
    out = [f"{rule.id} ({game}): {rule.title}", f"status: {rule.status}", rule.statement]
    out.append("sources:")
    out += [f"  - {s.ref}" + (f": {s.note}" if s.note else "") for s in rule.sources]
    if rule.data and rules is not None:
        out.append("data:")
        for key in rule.data:
            entry = rules.data.entries.get(key)
            if entry is None:
                out.append(f"  - {key}: (missing from the data files)")
            else:
                out.append(
                    f"  - {key} = {json.dumps(entry.value)} [{entry.status}: {entry.source}]"
                )
    if rule.status == "placeholder":
        out.append("NOTE: this rule is a placeholder: nobody has confirmed it.")
    if rule.dispute is not None:
        out.append("dispute:")
        out += [f"  - {c.source}: {c.claim}" for c in rule.dispute.claims]
        out.append(f"resolution: {rule.dispute.resolution}")
        if rule.dispute.option:
            from reference.core.options import option_values

            found = option_values(rules.options, rule.dispute.option) if rules else ()
            values = [v if isinstance(v, str) else json.dumps(v) for v in found]
            shown = f" (values: {', '.join(values)}; default {values[0]})" if values else ""
            out.append(f"option: {rule.dispute.option}{shown}")
    return "\n".join(out)


def citing_scenarios(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
) -> dict[str, list[str]]:
    """Rule id -> ids of the scenarios (files, or folders searched for ``*.yaml``) that
    cite it; files that cannot be read as scenarios are skipped."""
    from oracle.formats.scenario import BadScenario, load_scenario, scenario_files

    cites: dict[str, list[str]] = {}
    for path in scenario_files([Path(p) for p in _args.paths("paths", paths)]):
        try:
            sc = load_scenario(path).scenario
        except BadScenario:
            continue
        for rule_id in sc.rules:
            cites.setdefault(rule_id, []).append(sc.id)
    return cites


def coverage(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], game: str | None = None
) -> dict[str, dict[str, list[str]]]:
    """Catalogue (each game's, then ``core``) -> rule id -> the scenarios citing it, in
    catalogue order; with ``game``, only that game's catalogue."""
    cites = citing_scenarios(paths)
    return {
        catalogue.game: {rule.id: cites.get(rule.id, []) for rule in catalogue.rules}
        for catalogue, _ in _catalogues(game)
    }


def serve(games: Iterable[str], seed: int, stdin: IO[bytes], stdout: IO[str]) -> int:
    """Our engines for ``games`` behind the engine protocol v1 (JSON Lines, docs/protocol.md)
    until ``stdin`` ends; the exit code (0: the session ended cleanly)."""
    from oracle.serve import serve as serve_session

    return serve_session(tuple(games), seed, stdin, stdout)
