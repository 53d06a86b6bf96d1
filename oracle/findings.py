"""What a conform run is asked to do and what it finds: its settings, findings, counts and
report (data only; oracle.conform runs it, oracle.shrink and oracle.reproduce work on its
findings, oracle.conform_report and oracle.baseline write and filter them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from reference.core.catalogue import Rule

PARTS: tuple[str, ...] = ("playout", "probes", "scenarios", "engine", "perft", "chance")
DEFAULT_PARTS: tuple[str, ...] = ("playout", "probes", "scenarios", "engine")
"""The parts a run without ``--part`` runs: ``perft`` (the longest) and ``chance``
(oracle.conform_chance) only when asked for."""
FAULTS: frozenset[str] = frozenset({"crash", "hang", "garbage", "shape"})


@attrs.frozen
class Settings:
    """What one conform run does."""

    engine: str
    game: str
    players: tuple[int, ...]
    seed: int = 0
    games: int = 4
    timeout: float = 10.0
    strict_rules: bool = False
    parts: tuple[str, ...] = DEFAULT_PARTS
    scenarios_dir: Path | None = None
    shrink: bool = True
    shrink_seconds: float = 120.0
    """One budget for all the shrinking of the run (oracle.shrink.ShrinkBudget)."""
    options: dict[str, Any] = attrs.field(factory=dict)
    """The game's options for every game (a ``profile`` key included), as in a log header."""
    option_matrix: bool = False
    """Play every documented option value and mode in turn over the games
    (oracle.option_matrix), each on top of ``options``."""

    chance_draws: int = 4000
    """Part ``chance``: the engine's draws to count before its tests run."""
    reach: bool = True
    """Play on purpose towards rules random play leaves out: from rare ends and from the
    positions of the bundled scenarios (oracle/reach.py)."""
    min_coverage: float | None = None
    """Fail the run when it exercises less than this share of the rules, in percent
    (oracle/coverage.py)."""


REFUSED_KINDS = frozenset({"accepted_illegal", "changed_by_refusal", "rule_id", "perft_extra"})
"""Findings whose rule is the one ours refused an event by, known where they are found."""


@attrs.frozen
class Finding:
    """One disagreement of the engine under test with ours (or its fault).

    ``events`` is the game prefix (wire events, from the setup) after which it shows;
    ``probe`` the event involved there, if any (the one the engine accepted, refused or
    played); ``soft`` findings (another rule id) fail only with --strict-rules. A finding
    shrunk by its position also has ``given`` (values set on the setup by path, as a
    scenario's ``given.state``) and ``steps`` (the events played from there). ``log`` and
    ``scenario`` are ready-to-commit files of the shrunk case, ``case_id`` the scenario's
    id and ``saved`` where ``--save`` wrote it.
    """

    part: str
    kind: str
    message: str
    game_no: int | None = None
    players: tuple[str, ...] = ()
    seed: int | None = None
    event_index: int | None = None
    request: dict[str, Any] | None = None
    path: str | None = None
    ours: Any = None
    theirs: Any = None
    rule: str | None = None
    their_rule: str | None = None
    citation: str | None = None
    soft: bool = False
    scenario_id: str | None = None
    events: tuple[dict[str, Any], ...] = ()
    choices: tuple[int, ...] = ()
    probe: dict[str, Any] | None = None
    stderr: tuple[str, ...] = ()
    shrunk_from: int | None = None
    shrink: str | None = None
    """How it was shrunk: ``position``, ``prefix``, or why not (``budget spent``)."""
    options: dict[str, Any] | None = None
    """The game's options of its game (None: the run's)."""
    given: dict[str, Any] | None = None
    steps: tuple[dict[str, Any], ...] = ()
    log: str | None = None
    scenario: str | None = None
    case_id: str | None = None
    saved: str | None = None
    baselined: bool = False
    case: str = ""
    rule_reason: str | None = None
    """How ours made its value under ``rule``, or why no rule applies (oracle.provenance)."""

    def signature(self) -> tuple[str, str | None, str | None]:
        """What shows: the kind, with its path or the rule ours refused by (the same bug,
        for shrinking). A rule named afterwards by its provenance (oracle.provenance: the
        rule that made a state value, the turn rule, the scoring rule) is no part of it: a
        replay found while shrinking has not been named yet."""
        return (self.kind, self.path, self.rule if self.kind in REFUSED_KINDS else None)

    def same_kind(self, other: Finding) -> bool:
        """Whether ``other`` shows the same kind of disagreement (for shrinking)."""
        return self.signature() == other.signature()


@attrs.define
class Counts:
    """What a run did."""

    games: int = 0
    events: int = 0
    positions: int = 0
    paths_compared: int = 0
    paths_unanswered: int = 0
    legal_sets: int = 0
    probes: int = 0
    scenarios_passed: int = 0
    scenarios_failed: int = 0
    scenarios_skipped: int = 0
    engine_games: int = 0
    engine_events: int = 0
    shrink_runs: int = 0
    perft_positions: int = 0
    perft_sequences: int = 0
    perft_skipped: int = 0

    def checked(self) -> int:
        """How many things were compared with ours: zero means the run checked nothing
        (a usage error, never a pass)."""
        return (
            self.events
            + self.positions
            + self.probes
            + self.scenarios_passed
            + self.scenarios_failed
            + self.engine_events
            + self.perft_positions
        )


@attrs.define
class RuleCount:
    """How often one rule was exercised, and by which parts of the run."""

    accepted: int = 0
    refused: int = 0
    parts: set[str] = attrs.field(factory=set)


@attrs.define
class RuleCoverage:
    """The rule coverage of one run: every catalogue rule's counts, in catalogue order
    (oracle/coverage.py counts them; docs/conformance.md, "Rule coverage")."""

    game: str
    rules: tuple[Rule, ...]
    unreachable: dict[str, str]
    """Rules no play can exercise, with the reason (the game's coverage file)."""
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


@attrs.define
class Report:
    """The outcome of a run; ``findings`` in the order found."""

    settings: Settings
    engine_name: str = ""
    capabilities: tuple[str, ...] = ()
    findings: list[Finding] = attrs.field(factory=list)
    counts: Counts = attrs.field(factory=Counts)
    stale: list[dict[str, Any]] = attrs.field(factory=list)
    seconds: float = 0.0
    shrink_seconds: float = 0.0
    """Of ``seconds``, the time spent shrinking findings."""
    cases: list[tuple[str, str]] = attrs.field(factory=list)
    """(part, name) of every test case run: a play-out game, a scenario, an engine game."""
    option_settings: list[dict[str, Any]] = attrs.field(factory=list)
    """The game options each game was played with, once each, in the order first played."""
    option_matrix_size: int = 0
    """With ``--option-matrix``: how many option settings the matrix has."""
    rules_exercised: RuleCoverage | None = None
    """The run's rule coverage (oracle/coverage.py counts it), once the run is over; None
    when it was not measured (a run that played nothing of the game)."""

    def failing(self) -> list[Finding]:
        """Findings that fail the run: hard ones not in the baseline (soft ones if strict)."""
        strict = self.settings.strict_rules
        return [f for f in self.findings if not f.baselined and (strict or not f.soft)]

    def passed(self) -> bool:
        """Whether the run passes: nothing failing, no stale baseline entry, and the rule
        coverage at least ``--min-coverage``."""
        covered = self.rules_exercised is None or self.rules_exercised.passed()
        return not self.failing() and not self.stale and covered

    def checked_nothing(self) -> bool:
        """Whether the run compared nothing with ours and found nothing: never a pass."""
        return self.counts.checked() == 0 and not self.findings


def saved_at(finding: Finding, where: str) -> Finding:
    """The finding, noting where its case files were written."""
    return attrs.evolve(finding, saved=where)
