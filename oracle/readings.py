"""Readings search: under which reading of the game's options a failing log validates, or
gets further.

Another implementation may read a disputed rule differently (the archbishop's choice asked
at step 13, two market builders trading at the later space); its logs then fail under our
default at a point that says little about why. On a failing log the search replays it
again, with its claims, under each other value of every option of the game, then under
pairs of values of the options whose rules the failure touches (the rule broken or
cited, a rule that made a divergent value, an option whose own change moved the failure),
within a time bound. A reading is reported only when its replay validated the log or got
further than the failure: the replay is the proof, a reading is never guessed.

    search = readings_search(verdict, records, games)
    [r.text() for r in search.found]   # ["valid with archbishop_timing=cathedral"]

Every game takes part the same way: its options are its options object's fields with a
fixed list of values (``reference.core.options.option_values``), and its catalogue says
which rule each option switches (``dispute.option``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from itertools import combinations, product
from pathlib import Path
from typing import Any

import attrs

from oracle.formats.log import STDIN, Malformed, parse_header, read_lines
from oracle.games import GameCache
from oracle.replay import (
    FAILING,
    Reading,
    ReadingsSearch,
    Records,
    StateHook,
    Verdict,
    validate_records,
)
from reference.core.errors import BadOptions
from reference.core.game import Game
from reference.core.options import option_values

SECONDS = 10.0
"""The search's time bound: no new reading is replayed once this much time has passed
(a 4-player Pillars log takes about a tenth of it: benchmarks/bench_readings.py)."""
SEARCHED = frozenset({"illegal", "divergent"})
"""The verdicts a reading could change (a malformed line or our own bug it cannot)."""
_RULE_ID = re.compile(r"\b[A-Z]{3,4}-[A-Z]+-\d{2}\b")


def validate_log_with_readings(
    path: Path,
    games: GameCache,
    at: int | None = None,
    on_state: StateHook | None = None,
    seconds: float = SECONDS,
) -> Verdict:
    """``oracle.replay.validate_log`` with, for a failing log, the readings search."""
    return validate_records_with_readings(str(path), _source(path), games, at, on_state, seconds)


def with_readings(
    verdict: Verdict, path: Path, games: GameCache, seconds: float = SECONDS
) -> Verdict:
    """``verdict``, the verdict on the log file ``path`` (not standard input: it is read
    again), with the readings search when it fails."""
    if verdict.kind not in SEARCHED:
        return verdict
    search = readings_search(verdict, lambda: read_lines(path), games, seconds)
    return attrs.evolve(verdict, readings=search)


def validate_records_with_readings(
    log: str,
    records: Callable[[], Records],
    games: GameCache,
    at: int | None = None,
    on_state: StateHook | None = None,
    seconds: float = SECONDS,
) -> Verdict:
    """``oracle.replay.validate_records`` with, for a failing log, the readings search."""
    verdict = validate_records(log, records, games, at, on_state)
    if verdict.kind not in SEARCHED:
        return verdict
    return attrs.evolve(verdict, readings=readings_search(verdict, records, games, seconds))


def _source(path: Path) -> Callable[[], Records]:
    """The log's lines afresh on each call; standard input, which can be read only once,
    is read once and kept (with the error that ended it, raised again each time)."""
    if str(path) != STDIN:
        return lambda: read_lines(path)
    kept: list[tuple[int, dict[str, Any]]] = []
    error: Malformed | None = None
    try:
        kept.extend(read_lines(path))
    except Malformed as exc:
        error = exc

    def again() -> Records:
        yield from kept
        if error is not None:
            raise error

    return again


def reached(verdict: Verdict) -> int:
    """How far a log got: the events replayed without fault (all of them when valid,
    incomplete, or only the claimed result differs)."""
    return verdict.events


def readings_search(
    verdict: Verdict,
    records: Callable[[], Records],
    games: GameCache,
    seconds: float = SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> ReadingsSearch:
    """The readings of the game's options under which the log of ``verdict`` (a failing
    verdict on ``records`` with ``games``) validates or gets further, each proven by a
    replay, until ``seconds`` have passed: each other value of every option alone; then
    pairs among the options the failure touches; then, from the reading that got furthest,
    one more option at a time among those its own failure touches, while that gets
    further still."""
    game, header_options = _log_game(records, games)
    if game is None or verdict.kind not in FAILING:
        return ReadingsSearch(found=(), tried=0, complete=True)
    search = _Search(verdict, records, games, game, header_options, clock() + seconds, clock)
    try:
        search.run()
    except _OutOfTime:
        return search.result(complete=False)
    return search.result(complete=True)


class _OutOfTime(Exception):
    """The search's time bound has passed."""


Key = tuple[tuple[str, Any], ...]
"""A reading as (option, value) pairs, in the game's order of options."""


@attrs.define
class _Search:
    """One readings search: the replays made so far, by reading."""

    verdict: Verdict
    records: Callable[[], Records]
    games: GameCache
    game: Game
    header_options: Any
    deadline: float
    clock: Callable[[], float]
    options: dict[str, tuple[Any, ...]] = attrs.field(init=False)
    tried: dict[Key, Verdict] = attrs.field(init=False, factory=dict)

    def __attrs_post_init__(self) -> None:
        self.options = _options(self.game)

    @property
    def base(self) -> int:
        return reached(self.verdict)

    def run(self) -> None:
        for name, values in self.options.items():
            for value in values:
                self.replay(((name, value),))
        touched = self.touched(self.verdict) + self.moved()
        touched += [name for key, found in self.further() for name in self.touched(found)]
        touched = list(dict.fromkeys(touched))
        valid_alone = {key[0] for key, found in self.tried.items() if found.kind == "valid"}
        for first, second in combinations(touched, 2):
            for a, b in product(self.options[first], self.options[second]):
                if not valid_alone.intersection({(first, a), (second, b)}):
                    self.replay(self.ordered({first: a, second: b}))
        if not any(found.kind == "valid" for found in self.tried.values()):
            self.extend()

    def extend(self) -> None:
        """From the reading that got furthest, add one option among those its failure
        touches (any other option when it names no rule that an option switches: a
        divergence replayed without its causes) while that gets further (each step proven
        by its replay)."""
        best = max(self.further(), key=lambda kf: reached(kf[1]), default=None)
        while best is not None and best[1].kind != "valid":
            key, found = best
            chosen = dict(key)
            names = [name for name in self.touched(found) if name not in chosen]
            steps = [
                self.ordered({**chosen, name: value})
                for name in names or [n for n in self.options if n not in chosen]
                for value in self.options[name]
            ]
            best = None
            for step in steps:
                after = self.replay(step)
                if after is None or not _beats(after, found):
                    continue
                if best is None or _beats(after, best[1]):
                    best = (step, after)

    def further(self) -> list[tuple[Key, Verdict]]:
        """The readings so far that got further than the log's own verdict."""
        return [(k, v) for k, v in self.tried.items() if _better(v, self.base)]

    def ordered(self, reading: dict[str, Any]) -> Key:
        return tuple((name, reading[name]) for name in self.options if name in reading)

    def replay(self, key: Key) -> Verdict | None:
        """The verdict on the log under ``key`` (None when the game refuses those options)."""
        if key in self.tried:
            return self.tried[key]
        if self.clock() > self.deadline:
            raise _OutOfTime
        reading = dict(key)
        try:
            under = GameCache(self.games.profile, {**self.games.options, **reading})
            under.get(self.game.name, self.header_options)
        except BadOptions:
            return None
        found = validate_records(self.verdict.log, self.records, under, None, explain=False)
        self.tried[key] = found
        return found

    def touched(self, verdict: Verdict) -> list[str]:
        """The options whose rules a failure touches: the rule it breaks, the rules its
        message cites (why a player is asked), the rules that made a divergent value."""
        named = {verdict.rule_id} if verdict.rule_id else set()
        named |= set(_RULE_ID.findall(verdict.message))
        for divergence in verdict.divergences:
            for cause in divergence.causes:
                named |= set(_RULE_ID.findall(cause))
        switched = {
            rule.dispute.option
            for rule in self.game.catalogue.rules
            if rule.id in named and rule.dispute is not None and rule.dispute.option
        }
        return [name for name in self.options if name in switched]

    def moved(self) -> list[str]:
        """The options whose own change moved the failure (elsewhere, or another one)."""
        own = (self.verdict.kind, self.base, self.verdict.rule_id)
        return [
            key[0][0]
            for key, found in self.tried.items()
            if len(key) == 1 and (found.kind, reached(found), found.rule_id) != own
        ]

    def result(self, complete: bool) -> ReadingsSearch:
        """The readings that validated the log or got it further, best first: valid ones,
        then by how far they got; a reading of several options only when it does better
        than each reading of fewer of them that was tried."""
        found: list[Reading] = []
        order = {key: i for i, key in enumerate(self.tried)}
        for key, verdict in self.tried.items():
            if not _better(verdict, self.base):
                continue
            parts = [k for k in self.tried if len(k) < len(key) and set(k) <= set(key)]
            if not all(_beats(verdict, self.tried[k]) for k in parts):
                continue
            found.append(
                Reading(
                    options=dict(key),
                    status=verdict.kind,
                    events=reached(verdict),
                    rule_id=verdict.rule_id,
                )
            )
        found.sort(key=lambda r: (r.status != "valid", -r.events, order[self.ordered(r.options)]))
        return ReadingsSearch(found=tuple(found), tried=len(self.tried), complete=complete)


def _log_game(records: Callable[[], Records], games: GameCache) -> tuple[Game | None, Any]:
    """The rule set the log is judged by, and its header's options (None when the header
    cannot be read: no reading can help then)."""
    try:
        first = next(records(), None)
        if first is None:
            return None, {}
        header = parse_header(*first)
        return games.get(header.game, header.options), header.options
    except (Malformed, BadOptions):
        return None, {}


def _options(game: Game) -> dict[str, tuple[Any, ...]]:
    """Each option of the game with a fixed list of values -> its values other than the
    one in force, in the order the game lists them."""
    found: dict[str, tuple[Any, ...]] = {}
    kind = type(game.options)
    names = [field.name for field in attrs.fields(kind)] if attrs.has(kind) else []
    for name in names:
        current = getattr(game.options, name)
        others = tuple(v for v in option_values(game.options, name) if v != current)
        if others:
            found[name] = others
    return found


def _better(verdict: Verdict, base: int) -> bool:
    """Whether a replay validated the log or got further than ``base`` events."""
    return verdict.kind == "valid" or reached(verdict) > base


def _beats(verdict: Verdict, other: Verdict) -> bool:
    """Whether ``verdict`` does better than ``other``: valid where it is not, or further."""
    if other.kind == "valid":
        return False
    return verdict.kind == "valid" or reached(verdict) > reached(other)
