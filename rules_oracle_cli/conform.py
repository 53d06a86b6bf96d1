"""The body of ``rules-oracle conform`` (rules_oracle_cli/cli.py holds only its options)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import typer

from rules_oracle import STATS_MISSING, BadOptions, load, stats_available
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
    saved_at,
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
    options: dict[str, Any] | None = None,
    option_matrix: bool = False,
    chance_draws: int = 4000,
    min_coverage: float | None = None,
    reach: bool = True,
) -> int:
    """Run conform; the exit code (0 passed, 1 failed). Usage errors go through ``usage``:
    bad settings, a run with nothing to run, and a run that checked nothing (never a pass).
    ``options`` are the game options (with any profile under ``profile``)."""
    options = dict(options or {})
    try:
        rules = load(game, options)
    except BadOptions as exc:
        usage(exc.message)
    if players is not None and not rules.min_players <= players <= rules.max_players:
        usage(f"{game} takes {rules.min_players} to {rules.max_players} players")
    unknown = [p for p in parts or [] if p not in PARTS]
    if unknown:
        usage(f"unknown part {unknown[0]!r} (known: {', '.join(PARTS)})")
    if parts and "chance" in parts and not stats_available():
        usage(STATS_MISSING)
    if chance_draws < 1:
        usage("--chance-draws must be 1 or more")
    if games < 0 or timeout <= 0 or shrink_seconds < 0:
        usage("--games must be 0 or more, --timeout above 0 and --shrink-seconds 0 or more")
    if scenarios_dir is not None and not scenarios_dir.is_dir():
        usage(f"--scenarios-dir {scenarios_dir}: no such folder")
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
        options=options,
        option_matrix=option_matrix,
        chance_draws=chance_draws,
        min_coverage=min_coverage,
        reach=reach,
    )
    try:
        run = Conformance(settings)
    except ValueError as exc:  # an engine command shlex cannot split
        usage(f"--engine: {exc}")
    nothing = nothing_to_run(run)
    if nothing:
        usage(nothing)
    report = run.run()
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
    if report.checked_nothing():
        usage(f"the run checked nothing ({checked_nothing_why(report)}): never a pass")
    return 0 if report.passed() else 1


def nothing_to_run(run: Conformance) -> str | None:
    """Why the run has nothing to run, found before it starts (None: something to run)."""
    s = run.settings
    games = s.games if {"playout", "probes", "engine"} & set(s.parts) else 0
    if games or "scenarios" in s.parts and run.scenario_files():
        return None
    if {"perft", "chance"} & set(s.parts):  # the perft suite; chance plays its own games
        return None
    if "scenarios" in s.parts:
        where = s.scenarios_dir or "the bundled suite"
        return f"nothing to run: --games {s.games} and no {s.game} scenario in {where}"
    return f"nothing to run: --games {s.games} with --part {' --part '.join(s.parts)}"


def checked_nothing_why(report: Report) -> str:
    """What the run did that compared nothing."""
    c, caps = report.counts, set(report.capabilities)
    why = []
    if "engine" in report.settings.parts and report.settings.games and "next" not in caps:
        why.append("engine games need the engine's 'next' capability")
    if c.scenarios_skipped:
        why.append(f"{c.scenarios_skipped} scenarios skipped: the engine lacks what they need")
    return "; ".join(why) or "no game, event, probe or scenario was compared with ours"


def _save(report: Report, folder: Path, usage: Callable[[str], NoReturn]) -> None:
    """Each finding's ready-to-commit scenario and log, named by the scenario's id (unique
    in the run); each finding then says where its case is."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for i, f in enumerate(report.findings):
            if f.case_id is None or f.log is None and f.scenario is None:
                continue
            written = []
            if f.scenario is not None:
                written.append(folder / f"{f.case_id}.yaml")
                written[-1].write_text(f.scenario, encoding="utf-8")
            if f.log is not None:
                written.append(folder / f"{f.case_id}.jsonl")
                written[-1].write_text(f.log, encoding="utf-8")
            report.findings[i] = saved_at(f, " and ".join(str(p) for p in written))
    except OSError as exc:
        usage(f"cannot write to {folder}: {exc.strerror or exc}")
