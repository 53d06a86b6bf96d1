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

``by_event`` names events only one rule makes legal (accepted under it), and ``used_by``
definitions counted as often as the rules that decide with them. The same file lists the
rules no play can exercise, with the reason (``unreachable``); the report shows them as
"unreachable by play". The share exercised is of the whole catalogue. oracle/reach.py plays
on purpose towards the rules random play leaves out.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import cattrs
import yaml

from oracle.findings import Report, RuleCount, RuleCoverage, Settings
from oracle.formats.converter import structure_event
from oracle.formats.scenario import BadScenario, load_scenario
from oracle.games import GameCache
from oracle.protocol import EngineError, Refusal
from oracle.refengine import LocalEngine
from reference.core import yamlfile
from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import Game
from reference.core.trace import Recorder

COVERAGE_FILE = "coverage.yaml"
"""Each game's coverage file, beside its engine (reference/<game>/coverage.yaml)."""


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
class UnreachableWhen:
    """A rule no play can exercise while the data in force (a profile's values) has every
    value ``data`` names: a limit that an unlimited supply (null) never reaches."""

    rule: str
    data: dict[str, Any]
    reason: str

    def applies(self, game: Game) -> bool:
        """Whether ``game``'s data in force has every value named."""
        data = getattr(game, "data", None)
        if data is None:
            return False
        return all(data.value(key) == value for key, value in self.data.items())


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
    unreachable_when: tuple[UnreachableWhen, ...] = ()

    def listed(self) -> list[str]:
        """Every rule id the file names."""
        entries = (*self.setup, *self.each_event, *self.result, *self.shared_result)
        users = [rule for rules in self.used_by.values() for rule in rules]
        named = [*self.by_event, *self.used_by, *users, *self.unreachable]
        return [e.rule for e in entries] + named + [u.rule for u in self.unreachable_when]

    def unreachable_in(self, game: Game) -> dict[str, str]:
        """The rules no play can exercise in ``game`` (its options and data in force), each
        with the reason."""
        found = dict(self.unreachable)
        found.update({u.rule: u.reason for u in self.unreachable_when if u.applies(game)})
        return found

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


def new_rule_coverage(game: Game, minimum: float | None = None) -> RuleCoverage:
    """Empty counts for every rule of ``game``'s catalogue."""
    rules = game.catalogue.rules if hasattr(game, "catalogue") else ()
    listed = load_coverage_file(game)
    return RuleCoverage(
        game.name,
        tuple(rules),
        listed.unreachable_in(game),
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


class Coverage:
    """The rule coverage of one conform run, counted as the run goes (docs at the top)."""

    def __init__(self, settings: Settings, games: GameCache) -> None:
        self.settings = settings
        self.games = games
        self.tracker = Tracker()
        try:
            game = games.get(settings.game, settings.options)
        except BadOptions:  # the run reports its options; the catalogue is the same
            game = games.get(settings.game, {})
        self.listed = load_coverage_file(game)
        self.summary = new_rule_coverage(game, settings.min_coverage)

    # -- counting (conform calls these only for its own games, not a shrink's replays)

    def count(self, rule: str | None, part: str, refused: bool = False) -> None:
        if rule is None:
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
        game = ref.internals()[0]
        rules = [*self.tracker.setup_rules(game, players), *self._listed(self.listed.setup, game)]
        for rule in dict.fromkeys(rules):
            self.count(rule, part)

    def result(self, ref: LocalEngine, part: str) -> None:
        """The result of a finished game was compared: the game's scoring rule, and the
        file's ``result`` rules (and ``shared_result`` ones for two or more winners)."""
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
        """Whether ``rule`` is a catalogue rule not exercised so far."""
        entry = self.summary.counts.get(rule)
        return entry is not None and not (entry.accepted or entry.refused)

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
        report.rules_exercised = self.summary


def game_options(game: Game) -> object:
    """A rule set's parsed options (what ``Entry.when`` is read against)."""
    return getattr(game, "options", None)


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


def coverage_properties(summary: RuleCoverage) -> dict[str, str]:
    """The coverage as JUnit properties of the test suite (``rules_exercised``: "N of M")."""
    props = {
        "rules_exercised": f"{len(summary.exercised())} of {len(summary.rules)}",
        "rules_exercised.percent": f"{summary.percent():.1f}",
        "rules_exercised.unreachable_listed": str(len(summary.unreachable)),
        "rules_exercised.not_exercised": " ".join(summary.not_exercised()),
    }
    if summary.minimum is not None:
        props["rules_exercised.minimum"] = f"{summary.minimum:g}"
    return props
