"""The body of ``rules-oracle conform`` (rules_oracle_cli/cli.py holds only its options)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import typer

from rules_oracle import BadOptions, load
from rules_oracle.conformance import (
    DEFAULT_PARTS,
    PARTS,
    BadBaseline,
    Conformance,
    Report,
    Settings,
    apply_baseline,
    baseline_text,
    load_baseline,
    report_json,
    report_junit,
    report_text,
)


def run_conform(
    engine: str,
    game: str,
    players: int | None,
    seed: int,
    games: int,
    baseline: Path | None,
    write_baseline: Path | None,
    timeout: float,
    strict_rules: bool,
    fmt: str,
    parts: list[str] | None,
    scenarios_dir: Path | None,
    shrink_seconds: float,
    save: Path | None,
    usage: Callable[[str], NoReturn],
    min_coverage: float | None = None,
    reach: bool = True,
) -> int:
    """Run conform; the exit code (0 passed, 1 failed). Usage errors go through ``usage``."""
    try:
        rules = load(game)
    except BadOptions as exc:
        usage(exc.message)
    if players is not None and not rules.min_players <= players <= rules.max_players:
        usage(f"{game} takes {rules.min_players} to {rules.max_players} players")
    unknown = [p for p in parts or [] if p not in PARTS]
    if unknown:
        usage(f"unknown part {unknown[0]!r} (known: {', '.join(PARTS)})")
    if games < 0 or timeout <= 0:
        usage("--games must be 0 or more and --timeout above 0")
    if not engine.strip():
        usage("--engine is empty")
    if min_coverage is not None and not 0 <= min_coverage <= 100:
        usage(f"--min-coverage must be a share in percent, 0 to 100 (got {min_coverage:g})")
    entries = []
    if baseline is not None:
        try:
            entries = load_baseline(baseline)
        except BadBaseline as exc:
            usage(str(exc))
    counts = (players,) if players else tuple(range(rules.min_players, rules.max_players + 1))
    settings = Settings(
        engine=engine,
        game=game,
        players=counts,
        seed=seed,
        games=games,
        timeout=timeout,
        strict_rules=strict_rules,
        parts=tuple(parts) if parts else DEFAULT_PARTS,
        scenarios_dir=scenarios_dir,
        shrink_seconds=shrink_seconds,
        min_coverage=min_coverage,
        reach=reach,
    )
    try:
        report = Conformance(settings).run()
    except ValueError as exc:  # an engine command shlex cannot split
        usage(f"--engine: {exc}")
    if baseline is not None:
        apply_baseline(report, entries)
    if save is not None:
        _save(report, save, usage)
    if write_baseline is not None:
        try:
            write_baseline.write_text(baseline_text(report), encoding="utf-8")
        except OSError as exc:
            usage(f"cannot write {write_baseline}: {exc.strerror or exc}")
    if fmt == "json":
        typer.echo(json.dumps(report_json(report), indent=1, allow_nan=False))
    elif fmt == "junit":
        typer.echo(report_junit(report))
    else:
        typer.echo(report_text(report))
    return 0 if report.passed() else 1


def _save(report: Report, folder: Path, usage: Callable[[str], NoReturn]) -> None:
    """Each finding's ready-to-commit log and scenario file, numbered in finding order."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for i, f in enumerate(report.findings):
            if f.log is not None:
                (folder / f"finding-{i}.jsonl").write_text(f.log, encoding="utf-8")
            if f.scenario is not None:
                (folder / f"finding-{i}.yaml").write_text(f.scenario, encoding="utf-8")
    except OSError as exc:
        usage(f"cannot write to {folder}: {exc.strerror or exc}")
