"""Rule coverage of a conform run: which rules of the game's catalogue the run put to the
engine under test, and play-outs that go looking for the ones random play leaves out.

A rule is **exercised** when the run asked the engine under test a question that the rule
decides on our side, and compared its answer with ours (docs/conformance.md says it in
full):

- *accepted under* it: our engine applied an event (a play-out's, an engine game's, a
  scenario's step) and the rule did work in it: a trace point noted it (the recording rule
  set of reference/core/trace.py, ``Recorder.note(rule_id, state)``), or it is the rule the
  event's class is put down to (``RuleSet.event_rules``);
- *refused by* it: our engine refused an event (a probe, an engine's event, a scenario's
  illegal step) with its id;
- and the rules a game's coverage file (``reference/<game>/coverage.yaml``) ties to checks
  that always run: ``each_event`` (the turn rule: every event accepted was checked by it,
  and the player to act it names is compared at every position), ``setup`` (made by the
  setup: every game started from the setup and compared), ``result`` (every result
  compared) and ``shared_result`` (every result compared with two or more winners), each
  entry only under the options it names in ``when``.

The same file lists the rules no play can exercise, with the reason (``unreachable``); the
report shows them as "unreachable by play". The share exercised is of the whole catalogue.

Play-outs that reach on purpose (``Coverage.reach``, after the random play-outs): from
positions near the game's rare ends (oracle/starts.py) and from the positions of the bundled
scenarios that cite a rule still unexercised, each played with ``Favouring``, a seeded
policy that prefers events under rules not yet exercised (and probes refused by such rules).
They need ``set_state`` on the engine under test where a start sets values; without it only
the play-outs from the setup run, and the report says so.
"""

from __future__ import annotations

import random
import re
import typing
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import attrs
import cattrs
import yaml

from oracle.findings import FAULTS, Finding, Report, Settings
from oracle.formats.converter import structure_event, unstructure_event
from oracle.formats.scenario import BUNDLED_SCENARIOS, BadScenario, load_scenario
from oracle.games import GameCache
from oracle.probes import Pool, odd_values
from oracle.protocol import EngineError, Refusal
from oracle.refengine import LocalEngine
from oracle.starts import SCENARIO, Start, rare_ends, scenario_start
from reference.core import yamlfile
from reference.core.catalogue import Rule
from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import Game
from reference.core.trace import Recorder

COVERAGE_FILE = "coverage.yaml"
"""Each game's coverage file, beside its engine (reference/<game>/coverage.yaml)."""
LOOKAHEAD = 8
"""Legal events ``Favouring`` tries on our engine at each decision (all of them at a start's
first decisions, up to ``LOOKAHEAD_AT_START``)."""
LOOKAHEAD_AT_START = 200
FIRST_DECISIONS = 3
"""Decisions after a start at which every legal event is looked at."""
SCENARIO_STARTS_PER_GAME = 4
"""Scenario positions played from, at most, per play-out game of the run (``--games``)."""
SCENARIO_EVENTS = 20
"""Events played on from a scenario's position (its own steps first)."""
RARE_END_EVENTS = 4000
"""At most this many events from a rare end's position (its game ends long before)."""
PROBE_CHANCE = 0.25
"""The share of positions of a deliberate play-out where refused events are sent."""
PROBE_CANDIDATES = 60
PROBES_PER_POSITION = 3


# --- what each game's coverage file says ----------------------------------------------------


@attrs.frozen
class Entry:
    """A rule exercised by a check that always runs, under the options ``when`` names
    (an option's name -> the values under which the rule applies; empty: always)."""

    rule: str
    when: dict[str, list[Any]] = attrs.field(factory=dict)

    def applies(self, options: object) -> bool:
        """Whether the rule applies under a rule set's parsed options."""
        return all(getattr(options, name, None) in values for name, values in self.when.items())


@attrs.frozen
class CoverageFile:
    """One game's coverage file: the rules tied to checks that always run, and the rules no
    play can exercise with the reason for each."""

    setup: tuple[Entry, ...] = ()
    each_event: tuple[Entry, ...] = ()
    result: tuple[Entry, ...] = ()
    shared_result: tuple[Entry, ...] = ()
    by_event: dict[str, list[dict[str, Any]]] = attrs.field(factory=dict)
    """A rule -> events (some of their fields) only it makes legal: every accepted event
    with those fields is accepted under it (the emperor's censor conquering)."""
    used_by: dict[str, list[str]] = attrs.field(factory=dict)
    """A definition (which cells touch) -> the rules that decide with it: it is exercised
    as often as they are, accepted and refused."""
    unreachable: dict[str, str] = attrs.field(factory=dict)

    def listed(self) -> list[str]:
        """Every rule id the file names."""
        entries = (*self.setup, *self.each_event, *self.result, *self.shared_result)
        users = [rule for rules in self.used_by.values() for rule in rules]
        named = [*self.by_event, *self.used_by, *users, *self.unreachable]
        return [e.rule for e in entries] + named

    def event_rules(self, event: Mapping[str, Any]) -> list[str]:
        """The ``by_event`` rules an accepted ``event`` is accepted under."""
        return [
            rule
            for rule, patterns in self.by_event.items()
            if any(all(event.get(k) == v for k, v in p.items()) for p in patterns)
        ]


_plain = cattrs.Converter(forbid_extra_keys=True)
_converter = cattrs.Converter(forbid_extra_keys=True)
_converter.register_structure_hook(
    Entry, lambda raw, _: Entry(raw) if isinstance(raw, str) else _plain.structure(raw, Entry)
)
"""An entry is a rule id, or ``{rule: ID, when: {OPTION: [VALUES]}}``."""


def coverage_file_path(game: Game) -> Path | None:
    """Where ``game``'s coverage file is (None for a game without a package)."""
    package_dir = getattr(game, "package_dir", None)
    return None if package_dir is None else Path(package_dir) / COVERAGE_FILE


def load_coverage_file(game: Game) -> CoverageFile:
    """``game``'s coverage file (empty when it has none). It ships with rules-oracle, so a
    broken one is our bug: ValueError naming the file."""
    path = coverage_file_path(game)
    if path is None or not path.exists():
        return CoverageFile()
    try:
        raw = yamlfile.load(path.read_text(encoding="utf-8"))
        return _converter.structure(raw, CoverageFile)
    except (OSError, yaml.YAMLError, cattrs.BaseValidationError) as exc:
        raise ValueError(f"{path}: not a valid coverage file: {exc}") from exc


# --- the counts ---------------------------------------------------------------------------


@attrs.define
class RuleCount:
    """How often one rule was exercised, and by which parts of the run."""

    accepted: int = 0
    refused: int = 0
    parts: set[str] = attrs.field(factory=set)


@attrs.define
class RuleCoverage:
    """The rule coverage of one run: every catalogue rule's counts, in catalogue order."""

    game: str
    rules: tuple[Rule, ...]
    unreachable: dict[str, str]
    counts: dict[str, RuleCount]
    minimum: float | None = None
    starts_played: int = 0
    starts_skipped: int = 0
    notes: list[str] = attrs.field(factory=list)
    """What the run could not do to reach rules (e.g. no ``set_state``)."""

    def exercised(self) -> list[str]:
        """The catalogue rules accepted or refused at least once."""
        return [r.id for r in self.rules if self.counts[r.id].accepted or self.counts[r.id].refused]

    def not_exercised(self) -> list[str]:
        """The catalogue rules never exercised (listed as unreachable or not)."""
        done = set(self.exercised())
        return [r.id for r in self.rules if r.id not in done]

    def percent(self) -> float:
        """The share of the catalogue exercised, in percent (100 for an empty catalogue)."""
        return 100.0 * len(self.exercised()) / len(self.rules) if self.rules else 100.0

    def passed(self) -> bool:
        """Whether the share reaches ``--min-coverage`` (always, without one)."""
        return self.minimum is None or self.percent() >= self.minimum


def new_rule_coverage(game: Game, minimum: float | None = None) -> RuleCoverage:
    """Empty counts for every rule of ``game``'s catalogue."""
    rules = game.catalogue.rules if hasattr(game, "catalogue") else ()
    listed = load_coverage_file(game)
    return RuleCoverage(
        game.name,
        tuple(rules),
        dict(listed.unreachable),
        {r.id: RuleCount() for r in rules},
        minimum,
    )


# --- which rules our engine applies ---------------------------------------------------------


class Tracker:
    """The rules our engine applies in accepting an event: the event is applied once more,
    from the same state, through a recording copy of the rule set (kept per rule set)."""

    def __init__(self) -> None:
        self.recorder = Recorder()
        self._copies: dict[int, tuple[Game, Game]] = {}

    def recording(self, game: Game) -> Game:
        kept = self._copies.get(id(game))
        if kept is None or kept[0] is not game:
            recording = getattr(game, "recording", None)
            copy: Game = recording(self.recorder) if callable(recording) else game
            kept = (game, copy)
            self._copies[id(game)] = kept
        return kept[1]

    def accepted_rules(self, game: Game, state: Any, raw: Mapping[str, Any]) -> tuple[str, ...]:
        """The rules under which ``raw`` is accepted at ``state`` (empty if it is not): the
        rules noted while it is applied, then the rule its class is put down to."""
        try:
            event = structure_event(game, raw)
        except MalformedEvent:
            return ()
        copy = self.recording(game)
        self.recorder.marks.clear()
        try:
            copy.apply(state, event)
        except RuleViolation:
            return ()
        noted = [mark.rule_id for mark in self.recorder.marks]
        event_rule = getattr(game, "event_rule", None)
        if callable(event_rule):
            noted.append(event_rule(event))
        return tuple(dict.fromkeys(noted))

    def setup_rules(self, game: Game, players: tuple[str, ...]) -> tuple[str, ...]:
        """The rules a recording copy of ``game`` notes while it makes the setup."""
        copy = self.recording(game)
        self.recorder.marks.clear()
        copy.new_game(players)
        return tuple(dict.fromkeys(mark.rule_id for mark in self.recorder.marks))


# --- the hooks conform calls ----------------------------------------------------------------


class StartRunner(Protocol):
    """What ``reach`` needs of a conform run: its settings, the engine's capabilities, and a
    play-out from a start with a chooser (conform's ``play_start``)."""

    settings: Settings
    report: Report

    @property
    def capabilities(self) -> frozenset[str]: ...

    def players_for(self, k: int) -> tuple[str, ...]: ...

    def play_start(self, start: Start, chooser: Favouring, name: str, seed: int) -> bool:
        """Play from ``start``; False when the engine cannot take the start (its options
        or values refused), which is then skipped."""


class Coverage:
    """The rule coverage of one conform run, counted as the run goes (docs at the top)."""

    def __init__(self, settings: Settings, games: GameCache) -> None:
        self.settings = settings
        self.games = games
        self.tracker = Tracker()
        self._paused = 0
        self._scenario_starts: list[Start] | None = None
        try:
            game = games.get(settings.game, settings.options)
        except BadOptions:  # the run reports its options; the catalogue is the same
            game = games.get(settings.game, {})
        self.listed = load_coverage_file(game)
        self.summary = new_rule_coverage(game, getattr(settings, "min_coverage", None))

    # -- counting

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Nothing is counted inside (the replays of shrinking)."""
        self._paused += 1
        try:
            yield
        finally:
            self._paused -= 1

    def count(self, rule: str | None, part: str, refused: bool = False) -> None:
        if self._paused or rule is None:
            return
        entry = self.summary.counts.get(rule)
        if entry is None:
            return  # not a rule of this catalogue (CORE-*): not part of the share
        if refused:
            entry.refused += 1
        else:
            entry.accepted += 1
        entry.parts.add(part)

    def apply(self, ref: LocalEngine, event: Mapping[str, Any], part: str) -> Refusal | None:
        """``ref.apply(event)``, counting the rules it is accepted under or refused by."""
        game, state = ref.internals()
        refused = ref.apply(event)
        if self._paused:
            return refused
        if refused is not None:
            self.count(refused.rule, part, refused=True)
            return refused
        rules = [
            *self.tracker.accepted_rules(game, state, event),
            *self._listed(self.listed.each_event, game),
            *self.listed.event_rules(event),
        ]
        for rule in dict.fromkeys(rules):
            self.count(rule, part)
        return None

    def refused(self, rule: str | None, part: str) -> None:
        """An event ours refuses by ``rule`` was sent to the engine (a probe)."""
        self.count(rule, part, refused=True)

    def setup(self, ref: LocalEngine, players: tuple[str, ...], part: str) -> None:
        """A game started from the setup on both engines, its position compared: the rules
        the setup's trace points note, and the file's ``setup`` rules."""
        if self._paused:
            return
        game = ref.internals()[0]
        rules = [*self.tracker.setup_rules(game, players), *self._listed(self.listed.setup, game)]
        for rule in dict.fromkeys(rules):
            self.count(rule, part)

    def result(self, ref: LocalEngine, part: str) -> None:
        """The result of a finished game was compared: the game's scoring rule, and the
        file's ``result`` rules (and ``shared_result`` ones for two or more winners)."""
        if self._paused:
            return
        game = ref.internals()[0]
        _, winners = ref.result()
        scoring = getattr(game, "scoring_rule", None)
        rules = [scoring()] if callable(scoring) else []
        rules += self._listed(self.listed.result, game)
        if len(winners) > 1:
            rules += self._listed(self.listed.shared_result, game)
        for rule in dict.fromkeys(rules):
            self.count(rule, part)

    def _listed(self, entries: tuple[Entry, ...], game: Game) -> list[str]:
        """The rules of ``entries`` that apply under ``game``'s options."""
        options = game_options(game)
        return [entry.rule for entry in entries if entry.applies(options)]

    def scenario(self, path: Path) -> None:
        """A scenario the engine under test ran: its steps, replayed on ours, are counted
        (accepted under the rules they are applied by, an illegal one refused)."""
        if self._paused:
            return
        try:
            sc = load_scenario(path).scenario
        except BadScenario:
            return
        ref = LocalEngine(games=self.games)
        try:  # a scenario ours cannot run is reported by its own run: nothing to count
            ref.new_game(sc.game, sc.players, sc.options)
            if any(ref.apply(event) is not None for event in sc.given.events):
                return
            if sc.given.state:
                ref.set_state(sc.given.state)
            for event in sc.steps:
                if self.apply(ref, event, "scenarios") is not None:
                    return
        except EngineError:
            return
        if sc.expect.result is not None and ref.to_act()[1]:
            self.result(ref, "scenarios")

    def unexercised(self, rule: str) -> bool:
        entry = self.summary.counts.get(rule)
        return entry is not None and not (entry.accepted or entry.refused)

    # -- reaching on purpose

    def reach(self, run: StartRunner) -> None:
        """The deliberate play-outs: from rare ends (one per play-out game), then from the
        positions of scenarios citing a rule still unexercised (one scenario per rule)."""
        s = self.settings
        if not s.reach or "playout" not in s.parts:
            return
        can_set = "set_state" in run.capabilities
        if not can_set:
            self.summary.notes.append(
                "the engine has no set_state: play-outs only from the setup (no rare ends, "
                "no scenario positions that set values)"
            )
        for k in range(s.games):
            players, seed = run.players_for(k), s.seed + k
            ends = rare_ends(self.games, s.game, players, s.options, seed)
            if ends:
                end = ends[k % len(ends)]
                self.play(
                    run, end, f"rare-{k}-{end.name}-{len(players)}p-seed{seed}", seed, can_set
                )
        played: set[str] = set()
        for rule in self.wanted_rules():
            if len(played) >= SCENARIO_STARTS_PER_GAME * s.games:
                break
            if not self.unexercised(rule):
                continue
            for start in self.scenario_starts_for(rule):
                if start.name in played or (start.state and not can_set):
                    continue
                played.add(start.name)
                self.play(run, start, f"start-{start.name}", s.seed, can_set)
                break

    def play(self, run: StartRunner, start: Start, name: str, seed: int, can_set: bool) -> None:
        """One deliberate play-out, unless the engine cannot take it or has failed hard
        already (a crash, hang, garbage or a wrong shape: every further game would too)."""
        if (start.state and not can_set) or any(f.kind in FAULTS for f in run.report.findings):
            self.summary.starts_skipped += 1
            return
        limit = SCENARIO_EVENTS if start.kind == SCENARIO else RARE_END_EVENTS
        chooser = Favouring(self, random.Random(seed), limit)
        if run.play_start(start, chooser, name, seed):
            self.summary.starts_played += 1
        else:
            self.summary.starts_skipped += 1

    def wanted_rules(self) -> list[str]:
        """The rules still unexercised and not listed as unreachable, in catalogue order,
        those a scenario's step is refused by first (its start exercises them for sure)."""
        wanted = [
            r.id
            for r in self.summary.rules
            if self.unexercised(r.id) and r.id not in self.summary.unreachable
        ]
        sure = {r for r in wanted if any(r in s.refused_by for s in self.scenario_starts_for(r))}
        return sorted(wanted, key=lambda r: r not in sure)

    def scenario_starts_for(self, rule: str) -> list[Start]:
        """The bundled scenarios of this game that cite ``rule``, as starts, by file name
        (those whose step ours refuses by ``rule`` first)."""
        if self._scenario_starts is None:
            folder = BUNDLED_SCENARIOS / self.settings.game
            paths = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
            found = (scenario_start(p, self.settings.game, self.settings.options) for p in paths)
            self._scenario_starts = [start for start in found if start is not None]
        citing = [start for start in self._scenario_starts if rule in start.rules]
        return sorted(citing, key=lambda start: rule not in start.refused_by)

    def probes_here(self, ref: LocalEngine, pool: Pool, rng: random.Random) -> list[dict[str, Any]]:
        """A few events ours refuses here: near misses (a legal event here with one field
        changed: in turn and in phase, so the game's own checks refuse them) and fuzzed
        events (oracle/probes.py), those refused by a rule not yet exercised first, one
        per rule."""
        found = [*near_misses(ref, pool, rng, PROBE_CANDIDATES), *ref.refused_probes(pool, rng, 8)]
        by_rule: dict[str | None, dict[str, Any]] = {}
        for event in found:
            by_rule.setdefault(_refusal_rule(ref, event), event)
        by_rule.pop(None, None)  # not refused after all (a near miss can be legal)
        ranked = sorted(by_rule.items(), key=lambda item: not self.unexercised(item[0] or ""))
        return [event for _, event in ranked[:PROBES_PER_POSITION]]

    def finish(self, report: Report) -> None:
        """Put the coverage into the report, with each definition counted as often as the
        rules that decide with it (``used_by``)."""
        counts = self.summary.counts
        for rule, users in self.listed.used_by.items():
            entry = counts.get(rule)
            if entry is None:
                continue
            for user in users:
                used = counts.get(user, RuleCount())
                entry.accepted += used.accepted
                entry.refused += used.refused
                entry.parts |= used.parts
        report.coverage = self.summary


def game_options(game: Game) -> object:
    """A rule set's parsed options (what ``Entry.when`` is read against)."""
    return getattr(game, "options", None)


def _refusal_rule(ref: LocalEngine, event: Mapping[str, Any]) -> str | None:
    try:
        refused = ref.probe(event)
    except EngineError:  # a value the game cannot read: malformed, not a rule question
        return None
    return None if refused is None else refused.rule


def near_misses(
    ref: LocalEngine, pool: Pool, rng: random.Random, count: int
) -> list[dict[str, Any]]:
    """Up to ``count`` events made from the legal events here, each with one field changed
    to another value seen for it (``pool``) or an odd one (oracle/probes.py), as wire
    events; seeded by ``rng``. Some may still be legal: the caller probes them."""
    game, _ = ref.internals()
    legal = [structure_event(game, raw) for raw in ref.legal()]
    if not legal:
        return []
    out: list[dict[str, Any]] = []
    for _ in range(count):
        event = rng.choice(legal)
        fields = [f.name for f in attrs.fields(type(event))]
        if not fields:
            continue
        name = rng.choice(fields)
        # Values seen for a field of this name in any event (metal, sold, may be bought).
        seen = [v for (_, field), vs in pool.items() if field == name for v in vs]
        values = [v for v in dict.fromkeys(seen) if v != getattr(event, name)]
        values += odd_values(typing.get_type_hints(type(event))[name])
        try:
            changed = attrs.evolve(event, **{name: rng.choice(values)}) if values else None
        except (TypeError, ValueError):
            continue
        if changed is not None:
            record = unstructure_event(changed)
            if record not in out:
                out.append(record)
    return out


class Favouring:
    """A seeded chooser that prefers events under rules not yet exercised: at each decision
    it tries a few legal events on our engine (every one, up to ``LOOKAHEAD_AT_START``, at a
    start's first decisions) and takes the one that would exercise the most such rules; when
    none would, it draws as ``rules-oracle play`` does (chance by its odds). It stops after
    ``limit`` events after the start (``started``: the events played to reach it)."""

    def __init__(self, coverage: Coverage, rng: random.Random, limit: int) -> None:
        self.coverage = coverage
        self.rng = rng
        self.limit = limit
        self.started = 0
        """Events played to reach the start (its events and steps): set by the play-out."""

    def __call__(self, ref: LocalEngine, index: int) -> int | None:
        if index - self.started >= self.limit:
            return None
        legal = ref.legal()
        drawn = ref.choice(self.rng)
        early = index - self.started < FIRST_DECISIONS
        wanted = LOOKAHEAD_AT_START if early else LOOKAHEAD
        if len(legal) <= wanted:
            tried = list(range(len(legal)))
        else:
            tried = self.rng.sample(range(len(legal)), wanted)
        game, state = ref.internals()
        best, best_score = drawn, 0
        for i in tried:
            rules = self.coverage.tracker.accepted_rules(game, state, legal[i])
            score = sum(self.coverage.unexercised(rule) for rule in rules)
            if score > best_score:
                best, best_score = i, score
        return best


def table_rows(summary: RuleCoverage) -> list[tuple[str, int, int, str]]:
    """(rule id, accepted, refused, note) per catalogue rule."""
    rows = []
    for rule in summary.rules:
        count = summary.counts[rule.id]
        note = ""
        if not (count.accepted or count.refused):
            reason = summary.unreachable.get(rule.id)
            note = "unreachable by play (listed)" if reason else "NOT EXERCISED"
        rows.append((rule.id, count.accepted, count.refused, note))
    return rows


def coverage_line(summary: RuleCoverage) -> str:
    """One line: the share exercised, the listed unreachable and the rest."""
    exercised = len(summary.exercised())
    missing = summary.not_exercised()
    listed = [r for r in missing if r in summary.unreachable]
    others = [r for r in missing if r not in summary.unreachable]
    text = (
        f"rule coverage: {exercised} of {len(summary.rules)} rules exercised "
        f"({summary.percent():.1f}%); unreachable by play: {len(summary.unreachable)} (listed)"
    )
    if listed:
        text += f", not exercised among them: {len(listed)}"
    if others:
        text += f"; not exercised: {', '.join(others)}"
    return text


def coverage_text(summary: RuleCoverage) -> str:
    """The coverage table and its line (with the minimum's verdict when one is set)."""
    width = max((len(r.id) for r in summary.rules), default=4)
    lines = [f"{'rule':<{width}}  accepted  refused"]
    for rule, accepted, refused, note in table_rows(summary):
        lines.append(f"{rule:<{width}}  {accepted:>8}  {refused:>7}  {note}".rstrip())
    lines.append(coverage_line(summary))
    if summary.starts_played or summary.starts_skipped:
        lines.append(
            f"deliberate play-outs: {summary.starts_played} played, "
            f"{summary.starts_skipped} skipped"
        )
    lines += [f"note: {note}" for note in summary.notes]
    if summary.minimum is not None and not summary.passed():
        lines.append(
            f"FAIL coverage: {summary.percent():.1f}% of the rules exercised, below "
            f"--min-coverage {summary.minimum:g}%"
        )
    return "\n".join(lines)


def coverage_json(summary: RuleCoverage) -> dict[str, Any]:
    """The coverage as the JSON report's ``coverage`` object."""
    return {
        "rules": [
            {
                "id": rule.id,
                "accepted": summary.counts[rule.id].accepted,
                "refused": summary.counts[rule.id].refused,
                "parts": sorted(summary.counts[rule.id].parts),
                "unreachable": summary.unreachable.get(rule.id),
            }
            for rule in summary.rules
        ],
        "catalogue": len(summary.rules),
        "exercised": len(summary.exercised()),
        "percent": round(summary.percent(), 2),
        "unreachable_listed": len(summary.unreachable),
        "not_exercised": summary.not_exercised(),
        "minimum": summary.minimum,
        "passed": summary.passed(),
        "starts_played": summary.starts_played,
        "starts_skipped": summary.starts_skipped,
        "notes": list(summary.notes),
    }


def coverage_properties(summary: RuleCoverage) -> list[tuple[str, str]]:
    """The coverage as JUnit properties of the test suite."""
    props = [
        ("rules.catalogue", str(len(summary.rules))),
        ("rules.exercised", str(len(summary.exercised()))),
        ("rules.percent", f"{summary.percent():.1f}"),
        ("rules.unreachable_listed", str(len(summary.unreachable))),
        ("rules.not_exercised", " ".join(summary.not_exercised())),
    ]
    if summary.minimum is not None:
        props.append(("rules.minimum", f"{summary.minimum:g}"))
    return props


# --- the case of a finding from a start -----------------------------------------------------


def start_scenario_text(settings: Settings, start: Start, finding: Finding) -> str | None:
    """The scenario file of a finding of a play-out from ``start``: the start as ``given``
    (its events and values), the events played after it as steps, and what ours says at
    the end, as oracle/reproduce.py writes the case of a play-out from the setup. None when
    the finding holds no position (a fault before the first event)."""
    if not finding.players:
        return None
    played = [dict(e) for e in finding.events[len(start.events) :]]
    ref = LocalEngine()
    ref.new_game(settings.game, start.players, start.options)
    for event in start.events:
        ref.apply(event)
    if start.state:
        ref.set_state(start.state)
    rules = list(start.rules)
    steps = played
    if (
        finding.kind in ("accepted_illegal", "changed_by_refusal")
        and finding.probe
        and finding.rule
    ):
        for event in played:
            ref.apply(event)
        steps = [*played, dict(finding.probe)]
        expect: dict[str, Any] = {"illegal": {"step": len(played), "rule": finding.rule}}
        rules = [finding.rule]
    else:
        if finding.kind == "refused_legal" and finding.probe is not None:
            steps = [*played, dict(finding.probe)]
        for event in steps:
            ref.apply(event)
        expect = _expect_here(ref, finding)
    given: dict[str, Any] = {}
    if start.events:
        given["events"] = [dict(e) for e in start.events]
    if start.state:
        given["state"] = dict(start.state)
    data: dict[str, Any] = {
        "id": re.sub(
            r"[^A-Za-z0-9_-]+", "-", f"conform-{settings.game}-{finding.case}-{finding.kind}"
        ).strip("-"),
        "game": settings.game,
        "rules": rules,
        "source": f"rules-oracle conform --game {settings.game} --seed {settings.seed} "
        f"(play-out {finding.case})",
        "description": finding.message[:300],
        "players": list(start.players),
    }
    if start.options:
        data["options"] = dict(start.options)
    if given:
        data["given"] = given
    if steps:
        data["steps"] = steps
    data["expect"] = expect
    text: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    return text


def _expect_here(ref: LocalEngine, finding: Finding) -> dict[str, Any]:
    """What ours says here about what the finding is about."""
    actor, over = ref.to_act()
    expect: dict[str, Any] = {"over": True} if over else {"to_act": actor}
    if finding.kind == "state" and finding.path is not None:
        expect["state"] = ref.state([finding.path])
    elif finding.kind == "result" and over:
        scores, winners = ref.result()
        expect["result"] = {"scores": scores, "winners": winners}
    elif finding.kind == "legal" and not over:
        expect["legal"] = {"count": len(ref.legal())}
    return expect
