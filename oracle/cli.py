"""The ``rules-oracle`` command: play, validate, scenarios, explain, coverage.

Exit codes: 0 all good; 1 a log or scenario failed; 2 usage error (bad option, missing
file); 3 internal error in rules-oracle (our bug, never the user's).
"""

from __future__ import annotations

import json
import sys
import traceback
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from oracle.formats.log import NotJSON, strict_json
from oracle.formats.scenario import BadScenario, load_scenario, scenario_files
from oracle.games import GameCache
from oracle.play import PLAYER_NAMES, play_lines
from oracle.replay import Verdict, validate_log
from oracle.report import (
    each_rendered,
    json_safe,
    scenario_json,
    scenario_text,
    scenarios_junit,
    text_safe,
    unrenderable,
    verdict_json,
    verdict_text,
    verdicts_junit,
)
from oracle.rulebook import core_catalogue
from oracle.scenarios import ScenarioResult, run_all
from reference.core.catalogue import Catalogue, Rule
from reference.core.datafile import load_profile_file
from reference.core.errors import BadOptions
from reference.core.game import Game, player_names_ok
from reference.registry import game_names, make_game

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Rules-compliance oracle for Pillars of the Earth, Milestones, Palmyra, Municipium.",
)


class Format(StrEnum):
    """Report formats."""

    text = "text"
    json = "json"
    junit = "junit"


class PlainFormat(StrEnum):
    """Report formats of commands that report no pass or fail."""

    text = "text"
    json = "json"


def _usage(message: str) -> NoReturn:
    typer.echo(f"rules-oracle: error: {message}", err=True)
    raise typer.Exit(EXIT_USAGE)


def _profile(path: Path | None, game: str | None = None) -> dict[str, Any]:
    """The ``--profile`` file, checked before any work: it must fit ``game`` (or, with no
    game named, at least one game), else a usage error (exit 2) naming the file."""
    if path is None:
        return {}
    try:
        extra = load_profile_file(path)
    except BadOptions as exc:
        _usage(exc.message)
    names = [game] if game else list(game_names())
    knowing = [n for n in names if set(extra) <= set(make_game(n, {}).data.entries)]
    if not knowing:
        keys = ", ".join(sorted(extra))
        where = game or "any one game"
        _usage(f"--profile {path}: data keys not all of {where}: {keys[:500]}")
    refusals = []
    for name in knowing:
        try:
            rules = make_game(name, {"profile": extra})
            rules.new_game(PLAYER_NAMES[: rules.min_players])  # set-up checks run here too
        except BadOptions as exc:
            refusals.append(f"{name}: {exc.message}")
            continue
        return extra
    _usage(f"--profile {path}: " + "; ".join(refusals))


def _name(item: Verdict | ScenarioResult) -> str:
    return item.log if isinstance(item, Verdict) else item.path


def _text_failed(item: Verdict | ScenarioResult, exc: Exception) -> str:
    return f"{text_safe(_name(item))}: {unrenderable(_name(item), exc)}"


def _json_failed(item: Verdict | ScenarioResult, exc: Exception) -> dict[str, str]:
    kind = "kind" if isinstance(item, Verdict) else "status"
    field = "log" if isinstance(item, Verdict) else "path"
    return {
        field: json_safe(_name(item)),
        kind: "internal_error",
        "message": unrenderable(_name(item), exc),
    }


def _default_scenarios_dir() -> Path:
    here = Path.cwd() / "scenarios"
    return here if here.is_dir() else Path(__file__).resolve().parent.parent / "scenarios"


@app.command()
def play(
    game: Annotated[str, typer.Option(help="Game name: " + ", ".join(game_names()))],
    players: Annotated[int, typer.Option(help="Number of players.")],
    seed: Annotated[int, typer.Option(help="Seed of the random choices.")] = 0,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here.")] = None,
    options: Annotated[str, typer.Option(help="Game options as a JSON object.")] = "{}",
    profile: Annotated[Path | None, typer.Option(help="Data profile (YAML/JSON).")] = None,
) -> None:
    """Write a seeded random legal game as a complete v1 log, with state claims."""
    try:
        opts = strict_json(options)
    except NotJSON as exc:
        _usage(f"--options: {exc.reason}")
    if not isinstance(opts, dict):
        _usage("--options must be a JSON object")
    extra = _profile(profile, game if game in game_names() else None)
    if extra:
        embedded = opts.get("profile") or {}
        if not isinstance(embedded, dict):
            _usage("--options: profile must be an object of data keys to values")
        opts["profile"] = {**embedded, **extra}
    names = PLAYER_NAMES[:players]
    try:
        rules = make_game(game, opts)
    except BadOptions as exc:
        _usage(exc.message)
    problem = player_names_ok(names, rules.min_players, rules.max_players)
    if problem or players > len(PLAYER_NAMES):
        _usage(problem or f"at most {len(PLAYER_NAMES)} players")
    try:
        lines = list(play_lines(rules, names, seed, opts))
    except BadOptions as exc:  # refused at set-up, e.g. a profile the players cannot use
        _usage(exc.message)
    text = "\n".join(lines) + "\n"
    if output is None:
        sys.stdout.write(text)
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            _usage(f"cannot write {output}: {exc.strerror or exc}")


def _log_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.jsonl") if p.is_file())
        elif path.exists():
            files.append(path)
        else:
            _usage(f"no such file or folder: {path}")
    if not files:
        _usage("no log files found (a folder is searched for *.jsonl)")
    return files


@app.command()
def validate(
    logs: Annotated[list[Path], typer.Argument(help="Log files or folders (*.jsonl).")],
    fmt: Annotated[Format, typer.Option("--format", help="Report format.")] = Format.text,
    at: Annotated[
        int | None, typer.Option(help="Also print the reference state after N events.")
    ] = None,
    strict: Annotated[bool, typer.Option(help="An incomplete log fails too.")] = False,
    profile: Annotated[Path | None, typer.Option(help="Data profile (YAML/JSON).")] = None,
) -> None:
    """Replay logs through the reference engine; one verdict per log."""
    if at is not None and at < 0:
        _usage("--at counts events from 0 (the setup)")
    games = GameCache(_profile(profile))
    failed = internal = False
    verdicts = []
    for path in _log_files(logs):
        verdict = validate_log(path, games, at)
        failed |= verdict.fails(strict)
        internal |= verdict.kind == "internal_error"
        if fmt is not Format.text:
            verdicts.append(verdict)
        else:
            (text,), broken = each_rendered([verdict], verdict_text, _text_failed)
            internal |= broken > 0
            typer.echo(text)
            if at is not None and verdict.state_at is not None:
                typer.echo(json.dumps(verdict.state_at, indent=1))
            elif at is not None and verdict.kind != "malformed":
                typer.echo(f"  (the log has fewer than {at} events that replayed)")
    if fmt is Format.json:
        items, broken = each_rendered(verdicts, verdict_json, _json_failed)
        internal |= broken > 0
        typer.echo(json.dumps(items, indent=1))
    elif fmt is Format.junit:
        _, broken = each_rendered(verdicts, verdict_text, _text_failed)  # the cases' text
        internal |= broken > 0
        typer.echo(verdicts_junit(verdicts, strict))
    raise typer.Exit(EXIT_INTERNAL if internal else EXIT_FAILED if failed else EXIT_OK)


@app.command()
def scenarios(
    paths: Annotated[
        list[Path] | None, typer.Argument(help="Scenario files or folders (default: all).")
    ] = None,
    game: Annotated[str | None, typer.Option(help="Only this game's scenarios.")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="Report format.")] = Format.text,
    profile: Annotated[Path | None, typer.Option(help="Data profile (YAML/JSON).")] = None,
) -> None:
    """Run scenario files: pass or fail each, with the reason."""
    if game is not None and game not in game_names():
        _usage(f"unknown game {game!r} (known: {', '.join(game_names())})")
    targets = paths or [_default_scenarios_dir()]
    for path in targets:
        if not path.exists():
            _usage(
                f"no such file or folder: {path}"
                if paths
                else "no scenarios/ folder here: run from the repository or name the files"
            )
    results = run_all(targets, GameCache(_profile(profile, game)), game)
    broken = 0
    if fmt is Format.json:
        items, broken = each_rendered(results, scenario_json, _json_failed)
        typer.echo(json.dumps(items, indent=1))
    elif fmt is Format.junit:
        _, broken = each_rendered(results, scenario_text, _text_failed)  # the cases' text
        typer.echo(scenarios_junit(results))
    else:
        lines, broken = each_rendered(results, scenario_text, _text_failed)
        for line in lines:
            typer.echo(line)
        passed = sum(r.status == "pass" for r in results)
        typer.echo(f"{passed} passed, {len(results) - passed} failed")
    if broken or any(r.status == "internal_error" for r in results):
        raise typer.Exit(EXIT_INTERNAL)
    if not results:
        _usage("no scenario files found")
    raise typer.Exit(EXIT_OK if all(r.status == "pass" for r in results) else EXIT_FAILED)


def _catalogues(game_filter: str | None = None) -> list[tuple[Catalogue, Game | None]]:
    names = [game_filter] if game_filter else list(game_names())
    found: list[tuple[Catalogue, Game | None]] = []
    for name in names:
        try:
            rules = make_game(name, {})
        except BadOptions as exc:
            _usage(exc.message)
        found.append((rules.catalogue, rules))
    if game_filter is None:
        found.append((core_catalogue(), None))
    return found


def _citing(scenarios_dir: Path) -> dict[str, list[str]]:
    """Rule id -> ids of the scenarios that cite it (unreadable files are skipped)."""
    cites: dict[str, list[str]] = {}
    if not scenarios_dir.exists():
        return cites
    for path in scenario_files([scenarios_dir]):
        try:
            sc = load_scenario(path).scenario
        except BadScenario:
            continue
        for rule_id in sc.rules:
            cites.setdefault(rule_id, []).append(sc.id)
    return cites


@app.command()
def explain(
    rule_id: Annotated[str, typer.Argument(help="A rule id, e.g. PIL-MARKET-04.")],
    scenarios_dir: Annotated[Path | None, typer.Option(help="Where scenarios live.")] = None,
) -> None:
    """A rule: statement, status, sources, dispute and resolution, citing scenarios."""
    for catalogue, rules in _catalogues():
        rule = catalogue.get(rule_id)
        if rule is not None:
            typer.echo(_explain_text(rule, rules, catalogue.game))
            folder = scenarios_dir or _default_scenarios_dir()
            if not folder.is_dir():
                typer.echo(f"scenarios: no scenarios folder at {folder} (use --scenarios-dir)")
                raise typer.Exit(EXIT_OK)
            cited = _citing(folder).get(rule_id, [])
            typer.echo("scenarios: " + (", ".join(cited) if cited else "none cites this rule"))
            raise typer.Exit(EXIT_OK)
    _usage(f"no rule {rule_id!r} in any catalogue")


def _explain_text(rule: Rule, rules: Game | None, game: str) -> str:
    out = [f"{rule.id} ({game}): {rule.title}", f"status: {rule.status}", rule.statement]
    out.append("sources:")
    out += [f"  - {s.ref}" + (f": {s.note}" if s.note else "") for s in rule.sources]
    if rule.data and rules is not None:
        out.append("data:")
        for key in rule.data:
            entry = rules.data.entries.get(key)
            if entry is None:
                out.append(f"  - {key}: (missing from the data files)")
            else:
                out.append(
                    f"  - {key} = {json.dumps(entry.value)} [{entry.status}: {entry.source}]"
                )
    if rule.status == "placeholder":
        out.append("NOTE: this rule is a placeholder: nobody has confirmed it.")
    if rule.dispute is not None:
        out.append("dispute:")
        out += [f"  - {c.source}: {c.claim}" for c in rule.dispute.claims]
        out.append(f"resolution: {rule.dispute.resolution}")
        if rule.dispute.option:
            out.append(f"option: {rule.dispute.option}")
    return "\n".join(out)


@app.command()
def coverage(
    game: Annotated[str | None, typer.Option(help="Only this game.")] = None,
    scenarios_dir: Annotated[Path | None, typer.Option(help="Where scenarios live.")] = None,
    fmt: Annotated[PlainFormat, typer.Option("--format", help="Report format.")] = PlainFormat.text,
) -> None:
    """Which scenarios cite each rule, and the rules none cites."""
    if game is not None and game not in game_names():
        _usage(f"unknown game {game!r} (known: {', '.join(game_names())})")
    folder = scenarios_dir or _default_scenarios_dir()
    if not folder.is_dir():
        _usage(f"no scenarios folder at {folder}: run from the repository or use --scenarios-dir")
    cites = _citing(folder)
    report: dict[str, Any] = {}
    for catalogue, _ in _catalogues(game):
        rows = {rule.id: cites.get(rule.id, []) for rule in catalogue.rules}
        report[catalogue.game] = rows
    if fmt is PlainFormat.json:
        typer.echo(json.dumps(report, indent=1))
        raise typer.Exit(EXIT_OK)
    for name, rows in report.items():
        covered = sum(bool(s) for s in rows.values())
        typer.echo(f"{name}: {covered} of {len(rows)} rules cited by a scenario")
        for rule_id, ids in rows.items():
            typer.echo(f"  {rule_id}: {', '.join(ids) if ids else '-- none'}")
        uncovered = [r for r, s in rows.items() if not s]
        if uncovered:
            typer.echo(f"  uncovered: {', '.join(uncovered)}")


def main() -> None:
    """Entry point: run the app; an unexpected exception is our bug (exit 3), in one line."""
    try:
        app()
    except Exception as exc:  # noqa: BLE001 - the last guard: report as ours, never the user's
        where = traceback.extract_tb(exc.__traceback__)[-1]
        typer.echo(
            f"rules-oracle: internal error, please report: {type(exc).__name__}: {exc} "
            f"({Path(where.filename).name}:{where.lineno})",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)
