"""rules-oracle as a library: the rules of four Euro games, a position you can step, and
checks of your own logs and scenarios against the reference engines.

    import rules_oracle

    rules = rules_oracle.load("pillars")
    position = rules.setup(["red", "blue"])
    while not position.is_over:
        position = position.apply(position.legal()[0])
    verdict = rules_oracle.validate_log("game.jsonl")
    assert verdict.kind == "valid", verdict.message

Everything importable from ``rules_oracle`` is public and stable; the ``oracle`` and
``reference`` packages are private and change without notice. See docs/api.md.
"""

from __future__ import annotations

from importlib import metadata

from oracle.replay import Divergence, Verdict
from oracle.scenarios import ScenarioResult
from reference.core.catalogue import Rule
from reference.core.game import CHANCE, Result
from reference.registry import game_names
from rules_oracle._check import (
    SCENARIOS_DIR,
    SCHEMAS,
    SCHEMAS_DIR,
    run_scenarios,
    schema,
    validate_events,
    validate_log,
)
from rules_oracle._errors import (
    BadOptions,
    Error,
    Illegal,
    InternalError,
    Malformed,
    UnknownPath,
    UsageError,
)
from rules_oracle._position import Position, Rules, load

try:
    __version__ = metadata.version("rules-oracle")
except metadata.PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"

GAMES: tuple[str, ...] = game_names()
"""Every game rules-oracle knows, by the name logs use."""

__all__ = [
    "CHANCE",
    "GAMES",
    "SCENARIOS_DIR",
    "SCHEMAS",
    "SCHEMAS_DIR",
    "BadOptions",
    "Divergence",
    "Error",
    "Illegal",
    "InternalError",
    "Malformed",
    "Position",
    "Result",
    "Rule",
    "Rules",
    "ScenarioResult",
    "UnknownPath",
    "UsageError",
    "Verdict",
    "__version__",
    "load",
    "run_scenarios",
    "schema",
    "validate_events",
    "validate_log",
]
