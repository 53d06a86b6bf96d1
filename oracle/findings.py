"""What a conform run is asked to do and what it finds: its settings, findings, counts and
report (data only; oracle.conform runs it, oracle.shrink and oracle.reproduce work on its
findings, oracle.conform_report and oracle.baseline write and filter them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

PARTS: tuple[str, ...] = ("playout", "probes", "scenarios", "engine", "perft")
DEFAULT_PARTS: tuple[str, ...] = ("playout", "probes", "scenarios", "engine")
"""The parts a run without ``--part`` runs (perft, the longest, only when asked for)."""
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
    shrink_seconds: float = 60.0
    options: dict[str, Any] = attrs.field(factory=dict)
    reach: bool = True
    """Play on purpose towards rules random play leaves out: from rare ends and from the
    positions of the bundled scenarios (oracle/coverage.py)."""
    min_coverage: float | None = None
    """Fail the run when it exercises less than this share of the rules, in percent
    (oracle/coverage.py)."""


@attrs.frozen
class Finding:
    """One disagreement of the engine under test with ours (or its fault).

    ``events`` is the game prefix (wire events) after which it shows; ``probe`` the refused
    event sent there, if any; ``soft`` findings (another rule id) fail only with
    --strict-rules. ``log`` and ``scenario`` are ready-to-commit files of the shrunk case.
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
    log: str | None = None
    scenario: str | None = None
    baselined: bool = False
    case: str = ""
    rule_reason: str | None = None
    """How ours made its value under ``rule``, or why no rule applies (oracle.provenance)."""

    def same_kind(self, other: Finding) -> bool:
        """Whether ``other`` shows the same kind of disagreement (for shrinking)."""
        return (self.kind, self.path, self.rule) == (other.kind, other.path, other.rule)


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
    cases: list[tuple[str, str]] = attrs.field(factory=list)
    """(part, name) of every test case run: a play-out game, a scenario, an engine game."""
    coverage: Any = None
    """The run's rule coverage (an oracle.coverage.RuleCoverage), once the run is over."""

    def failing(self) -> list[Finding]:
        """Findings that fail the run: hard ones not in the baseline (soft ones if strict)."""
        strict = self.settings.strict_rules
        return [f for f in self.findings if not f.baselined and (strict or not f.soft)]

    def passed(self) -> bool:
        """Whether the run passes: nothing failing, no stale baseline entry, and the rule
        coverage at least ``--min-coverage``."""
        covered = self.coverage is None or self.coverage.passed()
        return not self.failing() and not self.stale and covered
