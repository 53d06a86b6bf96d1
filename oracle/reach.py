"""Play-outs that reach on purpose the rules random play leaves out (docs/conformance.md,
"Play-outs that reach on purpose"): from positions near each game's rare ends and from the
positions of the bundled scenarios that cite a rule still unexercised (oracle/starts.py),
each played with ``Favouring``, a seeded policy that prefers events under rules not yet
exercised (oracle/coverage.py counts them), with probes that favour such rules too (near
misses: a legal event here with one field changed).

A start that sets values needs ``set_state`` on the engine under test; without it only the
play-outs from the setup run, and the coverage report says so. conform (oracle/conform.py)
plays each start (``play_start``); this module chooses them, and writes the scenario file of
a finding from one.
"""

from __future__ import annotations

import random
import re
import typing
from collections.abc import Mapping
from typing import Any, Protocol

import attrs
import yaml

from oracle.coverage import Coverage
from oracle.findings import FAULTS, Finding, Report, Settings
from oracle.formats.converter import structure_event, unstructure_event
from oracle.formats.scenario import BUNDLED_SCENARIOS
from oracle.games import GameCache
from oracle.probes import Pool, odd_values
from oracle.protocol import EngineError
from oracle.refengine import LocalEngine
from oracle.starts import SCENARIO, Start, rare_ends, scenario_start

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


class Reach:
    """The deliberate play-outs of one conform run, counted by its ``coverage``."""

    def __init__(self, settings: Settings, games: GameCache, coverage: Coverage) -> None:
        self.settings = settings
        self.games = games
        self.coverage = coverage
        self._scenario_starts: list[Start] | None = None

    def run(self, run: StartRunner) -> None:
        """The deliberate play-outs: from rare ends (one per play-out game), then from the
        positions of scenarios citing a rule still unexercised (one scenario per rule)."""
        s = self.settings
        if not s.reach or "playout" not in s.parts:
            return
        can_set = "set_state" in run.capabilities
        if not can_set:
            self.coverage.summary.notes.append(
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
            if not self.coverage.unexercised(rule):
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
            self.coverage.summary.starts_skipped += 1
            return
        limit = SCENARIO_EVENTS if start.kind == SCENARIO else RARE_END_EVENTS
        chooser = Favouring(self.coverage, random.Random(seed), limit)
        if run.play_start(start, chooser, name, seed):
            self.coverage.summary.starts_played += 1
        else:
            self.coverage.summary.starts_skipped += 1

    def wanted_rules(self) -> list[str]:
        """The rules still unexercised and not listed as unreachable, in catalogue order,
        those a scenario's step is refused by first (its start exercises them for sure)."""
        summary = self.coverage.summary
        wanted = [
            r.id
            for r in summary.rules
            if self.coverage.unexercised(r.id) and r.id not in summary.unreachable
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
        wanted = self.coverage.unexercised
        ranked = sorted(by_rule.items(), key=lambda item: not wanted(item[0] or ""))
        return [event for _, event in ranked[:PROBES_PER_POSITION]]


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
