"""rules-oracle as a library: the rules of four Euro games, a position you can step, and
checks of your own logs and scenarios against the reference engines.

    import rules_oracle

    rules = rules_oracle.load("pillars")
    position = rules.setup(["red", "blue"])
    while not position.is_over:
        position = position.apply(position.legal()[0])
    verdict = rules_oracle.validate_log("game.jsonl")
    assert verdict.kind == "valid", rules_oracle.describe(verdict)

Everything importable from ``rules_oracle`` is public and stable; the ``oracle`` and
``reference`` packages are private and change without notice. See docs/api.md.

A name is imported from its module when it is first used (PEP 562), so ``import
rules_oracle`` costs next to nothing and a command pays only for what it uses.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the same names, for type checkers (at run time: ``__getattr__`` below)
    from oracle.perft import PerftResult
    from oracle.perft_files import PerftCheck
    from oracle.play import PLAYER_NAMES
    from oracle.position import Position, Rules, load
    from oracle.replay import Divergence, Reading, ReadingsSearch, Verdict
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
    from rules_oracle._corpus import BadCorpus, validate_files
    from rules_oracle._errors import (
        BadOptions,
        Error,
        Illegal,
        InternalError,
        Malformed,
        UnknownPath,
        UsageError,
    )
    from rules_oracle._fairness import (
        STATS_MISSING,
        ChanceTally,
        Check,
        FairnessReport,
        FairnessResult,
        GroupResult,
        Outcome,
        StatsMissing,
        fairness_files,
        fairness_page,
        fairness_text,
        stats_available,
    )
    from rules_oracle._perft import (
        PERFT_MAX_DEPTH,
        PERFT_SUITES_DIR,
        check_perft_suite,
        perft,
        perft_report,
        perft_suite_report,
        read_position,
    )
    from rules_oracle._reports import ValidateReport, describe, progress, scenarios_report
    from rules_oracle._schemas import schema_registry, validator
    from rules_oracle._tools import (
        ReplayPages,
        check_options,
        check_profile,
        citing_scenarios,
        coverage,
        explain_name,
        explain_rule,
        load_profile,
        play_log,
        read_json,
        serve,
        similar_rule_ids,
    )

    GAMES: tuple[str, ...]
    __version__: str

_HOMES = {
    "Divergence": "oracle.replay",
    "Reading": "oracle.replay",
    "ReadingsSearch": "oracle.replay",
    "Verdict": "oracle.replay",
    "ScenarioResult": "oracle.scenarios",
    "Rule": "reference.core.catalogue",
    "CHANCE": "reference.core.game",
    "PLAYER_NAMES": "oracle.play",
    "game_names": "reference.registry",
    "PerftResult": "oracle.perft",
    "PerftCheck": "oracle.perft_files",
    "Result": "reference.core.game",
    **dict.fromkeys(
        (
            "SCENARIOS_DIR",
            "SCHEMAS",
            "SCHEMAS_DIR",
            "run_scenarios",
            "schema",
            "validate_events",
            "validate_log",
        ),
        "rules_oracle._check",
    ),
    **dict.fromkeys(("BadCorpus", "validate_files"), "rules_oracle._corpus"),
    **dict.fromkeys(
        (
            "BadOptions",
            "Error",
            "Illegal",
            "InternalError",
            "Malformed",
            "UnknownPath",
            "UsageError",
        ),
        "rules_oracle._errors",
    ),
    **dict.fromkeys(
        (
            "STATS_MISSING",
            "ChanceTally",
            "Check",
            "FairnessReport",
            "FairnessResult",
            "GroupResult",
            "Outcome",
            "StatsMissing",
            "fairness_files",
            "fairness_page",
            "fairness_text",
            "stats_available",
        ),
        "rules_oracle._fairness",
    ),
    **dict.fromkeys(("Position", "Rules", "load"), "oracle.position"),
    **dict.fromkeys(
        (
            "PERFT_MAX_DEPTH",
            "PERFT_SUITES_DIR",
            "check_perft_suite",
            "perft",
            "perft_report",
            "perft_suite_report",
            "read_position",
        ),
        "rules_oracle._perft",
    ),
    **dict.fromkeys(
        ("ValidateReport", "describe", "progress", "scenarios_report"), "rules_oracle._reports"
    ),
    **dict.fromkeys(("schema_registry", "validator"), "rules_oracle._schemas"),
    **dict.fromkeys(
        (
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
        ),
        "rules_oracle._tools",
    ),
}
"""Each public name, by the module that defines it."""


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("rules-oracle")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        return "0.0.0+unknown"


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use and kept."""
    if name == "__version__":
        value: Any = _version()
    elif name == "GAMES":  # every game rules-oracle knows, by the name logs use
        from reference.registry import game_names as _game_names

        value = _game_names()
    elif name in _HOMES:
        value = getattr(import_module(_HOMES[name]), name)
    else:
        raise AttributeError(f"module 'rules_oracle' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "CHANCE",
    "GAMES",
    "PERFT_MAX_DEPTH",
    "PERFT_SUITES_DIR",
    "PLAYER_NAMES",
    "SCENARIOS_DIR",
    "SCHEMAS",
    "SCHEMAS_DIR",
    "STATS_MISSING",
    "BadCorpus",
    "BadOptions",
    "ChanceTally",
    "Check",
    "Divergence",
    "Error",
    "FairnessReport",
    "FairnessResult",
    "GroupResult",
    "Illegal",
    "InternalError",
    "Malformed",
    "PerftCheck",
    "PerftResult",
    "Outcome",
    "Position",
    "Reading",
    "ReadingsSearch",
    "ReplayPages",
    "Result",
    "Rule",
    "Rules",
    "ScenarioResult",
    "StatsMissing",
    "UnknownPath",
    "UsageError",
    "ValidateReport",
    "Verdict",
    "__version__",
    "check_options",
    "check_profile",
    "check_perft_suite",
    "citing_scenarios",
    "coverage",
    "describe",
    "explain_name",
    "explain_rule",
    "fairness_files",
    "fairness_page",
    "fairness_text",
    "game_names",
    "load",
    "load_profile",
    "perft",
    "perft_report",
    "perft_suite_report",
    "play_log",
    "progress",
    "read_json",
    "read_position",
    "run_scenarios",
    "scenarios_report",
    "schema",
    "schema_registry",
    "serve",
    "similar_rule_ids",
    "stats_available",
    "validate_events",
    "validate_log",
    "validate_files",
    "validator",
]
