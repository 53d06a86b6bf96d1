"""The ``rules-oracle`` command: play, validate, scenarios, explain, coverage.

Exit codes: 0 all good; 1 a log or scenario failed; 2 usage error (bad option, missing
file); 3 internal error in rules-oracle (our bug, never the user's).
"""

from __future__ import annotations

import difflib
import importlib.util
import json
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from enum import StrEnum
from functools import partial
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from oracle.games import GameCache
from reference.core.datafile import load_profile_file
from reference.core.errors import BadOptions
from reference.core.game import player_names_ok
from reference.registry import game_names, make_game

if TYPE_CHECKING:  # imported where used: a command imports only what it needs (fast start)
    from oracle.replay import Verdict
    from oracle.report import JunitCase
    from oracle.scenarios import ScenarioResult
    from reference.core.catalogue import Catalogue, Rule
    from reference.core.game import Game

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Rules-compliance oracle for Pillars of the Earth, Milestones, Palmyra, Municipium.",
)


def _show_version(value: bool) -> None:
    if value:
        from rules_oracle import __version__

        typer.echo(f"rules-oracle {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Rules-compliance oracle for Pillars of the Earth, Milestones, Palmyra, Municipium."""


class Format(StrEnum):
    """Report formats."""

    text = "text"
    json = "json"
    junit = "junit"


class ClaimsMode(StrEnum):
    """What ``play`` claims after each event."""

    acting = "acting"
    full = "full"


class PlainFormat(StrEnum):
    """Report formats of commands that report no pass or fail."""

    text = "text"
    json = "json"


Jobs = Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (0: every core).")]


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
    from oracle.play import PLAYER_NAMES

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


UNRENDERABLE = "unrenderable"
"""The count, beside the verdict kinds, of verdicts the report could not render (our bug)."""


def _name(item: Verdict | ScenarioResult) -> str:
    """The file a verdict or scenario result is about."""
    return str(getattr(item, "log", None) or getattr(item, "path", "?"))


def _text_failed(item: Verdict | ScenarioResult, exc: Exception) -> str:
    from oracle.report import text_safe, unrenderable

    return f"{text_safe(_name(item))}: {unrenderable(_name(item), exc)}"


def _json_failed(item: Verdict | ScenarioResult, exc: Exception) -> dict[str, str]:
    from oracle.report import json_safe, unrenderable

    return {
        "file": json_safe(_name(item)),
        "status": "internal_error",
        "message": unrenderable(_name(item), exc),
    }


def _rendered(
    render: Callable[[Verdict], Any],
    failed: Callable[[Verdict, Exception], Any],
    verdict: Verdict,
    counts: Counter[str],
) -> Any:
    """``render(verdict)``; if that fails (our bug), ``failed`` says so and it is counted."""
    try:
        return render(verdict)
    except Exception as exc:  # noqa: BLE001 - reported as ours, never hidden, never fatal
        counts[UNRENDERABLE] += 1
        return failed(verdict, exc)


def _default_scenarios_dir() -> Path:
    from rules_oracle import SCENARIOS_DIR

    here = Path.cwd() / "scenarios"
    return here if here.is_dir() else SCENARIOS_DIR


@app.command()
def play(
    game: Annotated[str, typer.Option(help="Game name: " + ", ".join(game_names()))],
    players: Annotated[int, typer.Option(help="Number of players.")],
    seed: Annotated[int, typer.Option(help="Seed of the random choices.")] = 0,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here.")] = None,
    options: Annotated[str, typer.Option(help="Game options as a JSON object.")] = "{}",
    profile: Annotated[Path | None, typer.Option(help="Data profile (YAML/JSON).")] = None,
    claims: Annotated[
        ClaimsMode, typer.Option(help="acting: the actor's plain values; full: every path.")
    ] = ClaimsMode.acting,
) -> None:
    """Write a seeded random legal game as a complete v1 log, with state claims."""
    from oracle.play import PLAYER_NAMES, play_lines

    opts = _json_object("--options", options)
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
        lines = list(play_lines(rules, names, seed, opts, full=claims is ClaimsMode.full))
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


def _json_object(flag: str, text: str | None) -> dict[str, Any]:
    """A command-line JSON object (None gives {}); anything else is a usage error."""
    from oracle.formats.log import NotJSON, strict_json

    if text is None:
        return {}
    try:
        value = strict_json(text)
    except NotJSON as exc:
        _usage(f"{flag}: {exc.reason}")
    if not isinstance(value, dict):
        _usage(f"{flag} must be a JSON object")
    return value


@app.command()
def validate(
    logs: Annotated[
        list[Path] | None,
        typer.Argument(help="Log files or folders (*.jsonl, *.jsonl.gz); - reads standard input."),
    ] = None,
    fmt: Annotated[Format, typer.Option("--format", help="Report format.")] = Format.text,
    at: Annotated[
        int | None, typer.Option(help="Also print the reference state after N events.")
    ] = None,
    strict: Annotated[bool, typer.Option(help="An incomplete log fails too.")] = False,
    profile: Annotated[Path | None, typer.Option(help="Data profile (YAML/JSON).")] = None,
    options: Annotated[
        str | None,
        typer.Option(help="Game options as a JSON object, over each log header's own."),
    ] = None,
    html: Annotated[
        Path | None, typer.Option(help="Write an HTML replay of each failing log here.")
    ] = None,
    from_list: Annotated[
        Path | None,
        typer.Option("--from-list", help="A file of log paths, one a line (- : standard input)."),
    ] = None,
    jobs: Jobs = 1,
    dask: Annotated[
        str | None,
        typer.Option(help="Dask scheduler address, or 'local' (needs the dask extra)."),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Text: print only failures and the totals.")
    ] = False,
) -> None:
    """Replay logs through the reference engine; one verdict per log, then the totals."""
    from oracle import corpus

    if at is not None and at < 0:
        _usage("--at counts events from 0 (the setup)")
    names = [str(p) for p in logs or []]
    listed = None if from_list is None else str(from_list)
    _check_inputs(names, listed, jobs, dask)
    settings = corpus.Settings(_profile(profile), _json_object("--options", options), at)
    pages = _ReplayPages(html, GameCache(settings.profile, settings.options)) if html else None
    found = _first_or_usage(corpus.log_paths(names, listed))
    if dask is not None:
        verdicts = corpus.run_dask(corpus.validate_batch, found, settings, dask)
    else:
        verdicts = corpus.run_local(corpus.validate_batch, found, settings, corpus.every_core(jobs))
    counts: Counter[str] = Counter()
    try:
        _report_verdicts(_paged(verdicts, pages, strict, counts), counts, fmt, at, strict, quiet)
    except corpus.BadCorpus as exc:
        _usage(str(exc))
    # our bug: an internal-error verdict, or a verdict the report could not render
    internal = counts["internal_error"] > 0 or counts[UNRENDERABLE] > 0
    failed = any(counts[k] for k in ("malformed", "illegal", "divergent")) or (
        strict and counts["incomplete"] > 0
    )
    raise typer.Exit(EXIT_INTERNAL if internal else EXIT_FAILED if failed else EXIT_OK)


class _ReplayPages:
    """``validate --html DIR``: one replay page per failing log, named after the log."""

    def __init__(self, folder: Path, games: GameCache) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            _usage(f"cannot make {folder}: {exc.strerror or exc}")
        self.folder, self.games, self.names = folder, games, set[str]()

    def write(self, log: Path) -> None:
        name, n = log.stem, 1
        while name in self.names:
            n += 1
            name = f"{log.stem}-{n}"
        self.names.add(name)
        from oracle.html import log_page

        _write_page(log_page(log, self.games)[0], self.folder / f"{name}.html")


def _write_page(page: str, output: Path) -> None:
    try:
        output.write_text(page, encoding="utf-8")
    except OSError as exc:
        _usage(f"cannot write {output}: {exc.strerror or exc}")


@app.command()
def replay(
    source: Annotated[Path, typer.Argument(help="A log (*.jsonl) or a scenario (*.yaml).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.")],
    profile: Annotated[Path | None, typer.Option(help="Data profile (YAML/JSON).")] = None,
) -> None:
    """Write a self-contained HTML page that steps through a log or scenario, board drawn,
    with the verdict highlighted at its event. Exit code as validate / scenarios."""
    from oracle.html import log_page, scenario_page
    from oracle.report import scenario_text, verdict_text

    if not source.is_file():
        _usage(f"no such file: {source}")
    games = GameCache(_profile(profile))
    if source.suffix in (".yaml", ".yml"):
        page, result = scenario_page(source, games)
        typer.echo(scenario_text(result))
        internal, failed = result.status == "internal_error", result.status != "pass"
    else:
        page, verdict = log_page(source, games)
        typer.echo(verdict_text(verdict))
        internal, failed = verdict.kind == "internal_error", verdict.fails()
    _write_page(page, output)
    raise typer.Exit(EXIT_INTERNAL if internal else EXIT_FAILED if failed else EXIT_OK)


def _check_inputs(names: list[str], listed: str | None, jobs: int, dask: str | None) -> None:
    """Usage errors found before any log is read."""
    if not names and listed is None:
        _usage("name log files or folders, or give --from-list FILE")
    if jobs < 0:
        _usage("--jobs counts worker processes (0: every core)")
    if dask is not None and jobs != 1:
        _usage("--dask spreads the work itself: give --dask or --jobs, not both")
    if listed == "-" and "-" in names:
        _usage("standard input can hold logs or a list of paths, not both")
    if dask is not None and "-" in names:
        _usage("standard input cannot be sent to a Dask cluster: write it to a file")
    for name in [*names, *([listed] if listed and listed != "-" else [])]:
        if name != "-" and not Path(name).exists():
            _usage(f"no such file or folder: {name}")
    if dask is not None and importlib.util.find_spec("distributed") is None:
        _usage("--dask needs Dask: pip install 'rules-oracle[dask]'")


def _first_or_usage(found: Iterator[str]) -> Iterator[str]:
    """The names found, after making sure there is at least one."""
    from oracle.corpus import BadCorpus

    try:
        first = next(found, None)
    except BadCorpus as exc:
        _usage(str(exc))
    if first is None:
        _usage("no log files found (a folder is searched for *.jsonl and *.jsonl.gz)")
    return chain([first], found)


def _paged(
    verdicts: Iterable[Verdict], pages: _ReplayPages | None, strict: bool, counts: Counter[str]
) -> Iterator[Verdict]:
    """The verdicts, counted; with ``--html`` a replay page is written for each failing one."""
    for verdict in _counted(verdicts, counts):
        if pages is not None and verdict.fails(strict) and Path(verdict.log).is_file():
            pages.write(Path(verdict.log))
        yield verdict


def _counted(verdicts: Iterable[Verdict], counts: Counter[str]) -> Iterator[Verdict]:
    """The verdicts, counted by kind as they pass (with a progress bar on a terminal)."""
    from oracle.progress import ProgressBar

    with ProgressBar("logs") as bar:
        for verdict in bar.watch(verdicts):
            counts[verdict.kind] += 1
            yield verdict


def _out(text: str) -> None:
    sys.stdout.write(text)


def _report_verdicts(
    verdicts: Iterator[Verdict],
    counts: Counter[str],
    fmt: Format,
    at: int | None,
    strict: bool,
    quiet: bool,
) -> None:
    """Write the report as the verdicts arrive (a long run is never held in memory)."""
    from oracle import report

    if fmt is Format.json:
        items = (_rendered(report.verdict_json, _json_failed, v, counts) for v in verdicts)
        for chunk in report.validate_report_chunks(items, counts, strict):
            _out(chunk)
        _out("\n")
        return
    if fmt is Format.junit:
        started = time.monotonic()
        cases = (_case(report.verdict_case(v, strict), v, counts) for v in verdicts)
        clock = lambda: time.monotonic() - started  # noqa: E731
        for chunk in report.junit_chunks("rules-oracle validate", cases, clock):
            _out(chunk)
        _out("\n")
        return
    noted: set[tuple[str | None, tuple[str, ...]]] = set()
    for verdict in verdicts:
        if quiet and not verdict.fails(strict):
            continue
        # The placeholder data in force is noted once per run (per game and data).
        key = (verdict.game, verdict.placeholders)
        render = partial(report.verdict_text, placeholders_noted=key in noted)
        text = _rendered(render, _text_failed, verdict, counts)
        _out(text + "\n")
        if verdict.kind not in ("illegal", "malformed"):
            noted.add(key)
        if at is not None and verdict.state_at is not None:
            _out(json.dumps(verdict.state_at, indent=1) + "\n")
        elif at is not None and verdict.kind != "malformed":
            _out(f"  (the log has fewer than {at} events that replayed)\n")
    _out(report.totals_text(counts) + "\n")


def _case(case: JunitCase, verdict: Verdict, counts: Counter[str]) -> JunitCase:
    """A verdict's JUnit case; one ``verdict_case`` could not render is counted as ours."""
    if case[3] == "internal_error" and verdict.kind != "internal_error":
        counts[UNRENDERABLE] += 1
    return case


@app.command()
def scenarios(
    paths: Annotated[
        list[Path] | None, typer.Argument(help="Scenario files or folders (default: all).")
    ] = None,
    game: Annotated[str | None, typer.Option(help="Only this game's scenarios.")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="Report format.")] = Format.text,
    profile: Annotated[Path | None, typer.Option(help="Data profile (YAML/JSON).")] = None,
    jobs: Jobs = 1,
) -> None:
    """Run scenario files: pass or fail each, with the reason."""
    started = time.monotonic()
    from oracle.corpus import every_core
    from oracle.report import (
        each_rendered,
        scenario_json,
        scenario_text,
        scenarios_junit,
        scenarios_report,
    )
    from oracle.scenarios import run_all

    if jobs < 0:
        _usage("--jobs counts worker processes (0: every core)")
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
    results = run_all(targets, GameCache(_profile(profile, game)), game, jobs=every_core(jobs))
    broken = 0
    if fmt is Format.json:
        items, broken = each_rendered(results, scenario_json, _json_failed)
        typer.echo(json.dumps(scenarios_report(items), indent=1))
    elif fmt is Format.junit:
        _, broken = each_rendered(results, scenario_text, _text_failed)  # the cases' text
        typer.echo(scenarios_junit(results, time.monotonic() - started))
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
    from oracle.rulebook import core_catalogue

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


def _citing(folders: list[Path]) -> dict[str, list[str]]:
    """Rule id -> ids of the scenarios that cite it (unreadable files are skipped)."""
    from oracle.formats.scenario import BadScenario, load_scenario, scenario_files

    cites: dict[str, list[str]] = {}
    for path in scenario_files(folders):
        try:
            sc = load_scenario(path).scenario
        except BadScenario:
            continue
        for rule_id in sc.rules:
            cites.setdefault(rule_id, []).append(sc.id)
    return cites


@app.command()
def explain(
    rule_id: Annotated[str, typer.Argument(help="A rule id, e.g. PIL-MARKET-04 (any case).")],
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Scenario files or folders to search (default: all).", show_default=False
        ),
    ] = None,
    scenarios_dir: Annotated[Path | None, typer.Option(hidden=True)] = None,
) -> None:
    """A rule: statement, status, sources, dispute and resolution, citing scenarios."""
    known: list[str] = []
    for catalogue, rules in _catalogues():
        known += catalogue.ids()
        rule = catalogue.get(rule_id) or catalogue.get(rule_id.upper())
        if rule is not None:
            typer.echo(_explain_text(rule, rules, catalogue.game))
            folders = _scenario_folders(paths, scenarios_dir)
            if folders is None:
                typer.echo("scenarios: no scenarios folder here (name the files or folders)")
                raise typer.Exit(EXIT_OK)
            cited = _citing(folders).get(rule.id, [])
            typer.echo("scenarios: " + (", ".join(cited) if cited else "none cites this rule"))
            raise typer.Exit(EXIT_OK)
    if _explain_name(rule_id):
        raise typer.Exit(EXIT_OK)
    close = difflib.get_close_matches(rule_id.upper(), known, n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    _usage(f"no rule {rule_id!r} in any catalogue, and no alias or aliased name{hint}")


def _scenario_folders(paths: list[Path] | None, scenarios_dir: Path | None) -> list[Path] | None:
    """The scenario files or folders named, or the default folder; None if there is none."""
    if paths:
        for path in paths:
            if not path.exists():
                _usage(f"no such file or folder: {path}")
        return paths
    folder = scenarios_dir or _default_scenarios_dir()
    return [folder] if folder.is_dir() else None


def _explain_name(word: str) -> bool:
    """Print what another name means (``Wollmesse``), or one of our ids' other names
    (``wool_fair``); False when ``word`` is neither."""
    from oracle.rulebook import alias_text, game_aliases, rules_naming
    from reference.core.aliases import aliases_of, named

    found = False
    for catalogue, rules in _catalogues():
        if rules is None:
            continue
        aliases = game_aliases(rules)
        for alias in named(aliases, word):
            typer.echo(alias_text(alias, catalogue.game))
            naming = rules_naming(catalogue, alias.means)
            if naming:
                typer.echo(f"  rules naming {alias.means}: {', '.join(naming)}")
            found = True
        others = aliases_of(aliases, word)
        if others:
            typer.echo(f"{word} ({catalogue.game}): other names (not accepted in logs):")
            for alias in others:
                typer.echo(f"  - {alias.alias} ({alias.language}; {alias.source})")
            found = True
    return found


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
            from reference.core.options import option_values

            found = option_values(rules.options, rule.dispute.option) if rules else ()
            values = [v if isinstance(v, str) else json.dumps(v) for v in found]
            shown = f" (values: {', '.join(values)}; default {values[0]})" if values else ""
            out.append(f"option: {rule.dispute.option}{shown}")
    return "\n".join(out)


@app.command()
def coverage(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Scenario files or folders (default: all).", show_default=False),
    ] = None,
    game: Annotated[str | None, typer.Option(help="Only this game.")] = None,
    scenarios_dir: Annotated[Path | None, typer.Option(hidden=True)] = None,
    fmt: Annotated[PlainFormat, typer.Option("--format", help="Report format.")] = PlainFormat.text,
) -> None:
    """Which scenarios cite each rule, and the rules none cites."""
    if game is not None and game not in game_names():
        _usage(f"unknown game {game!r} (known: {', '.join(game_names())})")
    folders = _scenario_folders(paths, scenarios_dir)
    if folders is None:
        _usage("no scenarios folder here: name the scenario files or folders")
    cites = _citing(folders)
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


@app.command()
def serve(
    game: Annotated[list[str], typer.Option(help="Game to serve (repeat for more).")],
    seed: Annotated[int, typer.Option(help="Seed of the 'next' op's random choices.")] = 0,
) -> None:
    """Our engines behind the engine protocol v1 (JSON Lines on stdin/stdout)."""
    from oracle.serve import serve as serve_session

    unknown = [g for g in game if g not in game_names()]
    if unknown:
        _usage(f"unknown game {unknown[0]!r} (known: {', '.join(game_names())})")
    raise typer.Exit(serve_session(tuple(game), seed, sys.stdin.buffer, sys.stdout))


@app.command()
def conform(
    engine: Annotated[str, typer.Option(help="Command that starts the engine under test.")],
    game: Annotated[str, typer.Option(help="Game name: " + ", ".join(game_names()))],
    players: Annotated[
        int | None, typer.Option(help="Number of players (default: every count in turn).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the first play-out.")] = 0,
    games: Annotated[int, typer.Option(help="Play-outs (and engine-driven games).")] = 4,
    baseline: Annotated[Path | None, typer.Option(help="Known disagreements (YAML).")] = None,
    write_baseline: Annotated[
        Path | None, typer.Option(help="Write a baseline of this run's findings here.")
    ] = None,
    timeout: Annotated[float, typer.Option(help="Seconds the engine has per request.")] = 10.0,
    strict_rules: Annotated[bool, typer.Option(help="Another rule id fails too.")] = False,
    fmt: Annotated[Format, typer.Option("--format", help="Report format.")] = Format.text,
    part: Annotated[
        list[str] | None, typer.Option(help="Only these parts: playout, probes, scenarios, engine.")
    ] = None,
    scenarios_dir: Annotated[Path | None, typer.Option(help="Where scenarios live.")] = None,
    shrink_seconds: Annotated[float, typer.Option(help="Time budget per shrink.")] = 60.0,
    save: Annotated[
        Path | None, typer.Option(help="Write each finding's log and scenario here.")
    ] = None,
) -> None:
    """Drive an engine under test over the engine protocol and compare it with ours."""
    from oracle.conform_cli import run_conform

    raise typer.Exit(
        run_conform(
            engine,
            game,
            players,
            seed,
            games,
            baseline,
            write_baseline,
            timeout,
            strict_rules,
            fmt.value,
            part,
            scenarios_dir,
            shrink_seconds,
            save,
            _usage,
        )
    )


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
