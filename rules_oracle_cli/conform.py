"""The body of ``rules-oracle conform`` (rules_oracle_cli/cli.py holds only its options)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import typer

from rules_oracle.conformance import (
    BadBaseline,
    apply_baseline,
    baseline_text,
    load_baseline,
    report_json,
    report_junit,
    report_text,
)
from rules_oracle_cli.shared import checked_nothing_why, conform_run, conform_settings, save_cases


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
    options: dict[str, Any] | None = None,
    option_matrix: bool = False,
    chance_draws: int = 4000,
    min_coverage: float | None = None,
    reach: bool = True,
) -> int:
    """Run conform; the exit code (0 passed, 1 failed). Usage errors go through ``usage``:
    bad settings, a run with nothing to run, and a run that checked nothing (never a pass).
    ``options`` are the game options (with any profile under ``profile``)."""
    settings = conform_settings(
        engine=engine,
        game=game,
        players=players,
        seed=seed,
        games=games,
        timeout=timeout,
        strict_rules=strict_rules,
        parts=parts,
        scenarios_dir=scenarios_dir,
        shrink_seconds=shrink_seconds,
        options=options,
        option_matrix=option_matrix,
        chance_draws=chance_draws,
        min_coverage=min_coverage,
        reach=reach,
        usage=usage,
    )
    entries = []
    if baseline is not None:
        try:
            entries = load_baseline(baseline)
        except BadBaseline as exc:
            usage(str(exc))
    run = conform_run(settings, usage)
    report = run.run()
    if baseline is not None:
        apply_baseline(report, entries)
    if save is not None:
        try:
            save_cases(report, save)
        except OSError as exc:
            usage(f"cannot write to {save}: {exc.strerror or exc}")
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
    if report.checked_nothing():
        usage(f"the run checked nothing ({checked_nothing_why(report)}): never a pass")
    return 0 if report.passed() else 1
