"""Play-outs that reach on purpose the rules random play leaves out (docs/conformance.md,
"Play-outs that reach on purpose"): from positions near each game's rare ends and from the
positions of the bundled scenarios that cite a rule still unexercised (oracle/starts.py),
each played with ``Favouring``, a seeded policy that prefers events under rules not yet
exercised (oracle/coverage.py counts them), with probes that favour such rules too (near
misses: a legal event here with one field changed).

A start that sets values needs ``set_state`` on the engine under test; without it only the
play-outs from the setup and from the scenarios that set no values run, and the coverage
report says so. This module chooses the starts; conform plays each as it plays any game
(oracle/conform.py ``play_from``: the same play, findings, shrinking and case files).
"""

from __future__ import annotations

import random
import typing
from collections.abc import Mapping
from typing import Any, Protocol

import attrs

from oracle.coverage import Coverage
from oracle.findings import FAULTS, Report, Settings
from oracle.formats.converter import structure_event, unstructure_event
from oracle.formats.scenario import BUNDLED_SCENARIOS
from oracle.games import GameCache
from oracle.probes import Pool, odd_values
from oracle.protocol import EngineError
from oracle.refengine import LocalEngine
from oracle.shrink import Chooser, Prober
from oracle.starts import SCENARIO, Aimed, Start, rare_ends, scenario_start

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
    """What ``Reach`` needs of a conform run: its settings and report, the engine's
    capabilities, each game's players and options, and a play-out from a start (conform's
    ``play_from``)."""

    settings: Settings
    report: Report

    @property
    def capabilities(self) -> frozenset[str]: ...

    def setup_for(self, k: int) -> tuple[tuple[str, ...], dict[str, Any]]: ...

    def play_from(self, start: Start, name: str, chooser: Chooser, prober: Prober) -> None: ...


class Reach:
    """The deliberate play-outs of one conform run, counted by its ``coverage``."""

    def __init__(self, settings: Settings, games: GameCache, coverage: Coverage) -> None:
        self.settings = settings
        self.games = games
        self.coverage = coverage
        self._scenario_starts: list[Aimed] | None = None

    def run(self, run: StartRunner) -> None:
        """The deliberate play-outs: from rare ends (one per play-out game, with its players
        and options), then from the positions of scenarios citing a rule still unexercised
        (one scenario per rule)."""
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
            players, options = run.setup_for(k)
            seed = s.seed + k
            ends = rare_ends(self.games, s.game, players, options, seed)
            if ends:
                end = ends[k % len(ends)]
                self.play(run, end, f"rare-{k}-{end.name}-{len(players)}p-seed{seed}", can_set)
        played: set[str] = set()
        for rule in self.wanted_rules():
            if len(played) >= SCENARIO_STARTS_PER_GAME * s.games:
                break
            if not self.coverage.unexercised(rule):
                continue
            for aimed in self.scenario_starts_for(rule):
                if aimed.name in played or (aimed.start.given and not can_set):
                    continue
                played.add(aimed.name)
                self.play(run, aimed, f"start-{aimed.name}", can_set)
                break

    def play(self, run: StartRunner, aimed: Aimed, name: str, can_set: bool) -> None:
        """One deliberate play-out, unless the engine cannot take it or has failed hard
        already (a crash, hang, garbage or a wrong shape: every further game would too)."""
        if (aimed.start.given and not can_set) or any(
            f.kind in FAULTS for f in run.report.findings
        ):
            self.coverage.summary.starts_skipped += 1
            return
        limit = SCENARIO_EVENTS if aimed.kind == SCENARIO else RARE_END_EVENTS
        chooser = Favouring(self.coverage, random.Random(aimed.start.seed), limit)
        run.play_from(aimed.start, name, chooser, self.prober)
        self.coverage.summary.starts_played += 1

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

    def scenario_starts_for(self, rule: str) -> list[Aimed]:
        """The bundled scenarios of this game that cite ``rule``, as starts, by file name
        (those whose step ours refuses by ``rule`` first)."""
        if self._scenario_starts is None:
            s = self.settings
            folder = BUNDLED_SCENARIOS / s.game
            paths = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
            found = (scenario_start(self.games, p, s.game, s.options, s.seed) for p in paths)
            self._scenario_starts = [aimed for aimed in found if aimed is not None]
        citing = [aimed for aimed in self._scenario_starts if rule in aimed.rules]
        return sorted(citing, key=lambda aimed: rule not in aimed.refused_by)

    def prober(self, ref: LocalEngine, pool: Pool, rng: random.Random) -> list[dict[str, Any]]:
        """A deliberate play-out's probes: at a share ``PROBE_CHANCE`` of its positions,
        ``probes_here``."""
        if rng.random() >= PROBE_CHANCE:
            return []
        return self.probes_here(ref, pool, rng)

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
    ``limit`` events after its first decision (the start's own steps come before it)."""

    def __init__(self, coverage: Coverage, rng: random.Random, limit: int) -> None:
        self.coverage = coverage
        self.rng = rng
        self.limit = limit
        self.started: int | None = None
        """The events played before its first decision (the start's steps)."""

    def __call__(self, ref: LocalEngine, index: int) -> int | None:
        if self.started is None:
            self.started = index
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
