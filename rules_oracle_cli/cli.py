"""The ``rules-oracle`` command: play, validate, scenarios, explain, coverage.

Exit codes: 0 all good; 1 a log or scenario failed; 2 usage error (bad option, missing
file); 3 internal error in rules-oracle (our bug, never the user's).
"""

import sys
from collections.abc import Iterable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from rules_oracle import game_names

if TYPE_CHECKING:  # imported where used: a command imports only what it needs (fast start)
    from collections.abc import Iterable, Iterator

    from rules_oracle import ValidateReport, Verdict

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


Jobs = Annotated[
    int,
    typer.Option("--jobs", "-j", help="Worker processes, at most one per core (0: every core)."),
]
Profile = Annotated[Path | None, typer.Option(help="Data profile (YAML/JSON).")]
LogOptions = Annotated[
    str | None,
    typer.Option(help="Game options as a JSON object, over each log header's own."),
]
FromList = Annotated[
    Path | None,
    typer.Option("--from-list", help="A file of log paths, one a line (- : standard input)."),
]
Dask = Annotated[
    str | None,
    typer.Option(help="Dask scheduler address, or 'local' (needs the dask extra)."),
]


def _usage(message: str) -> NoReturn:
    typer.echo(f"rules-oracle: error: {message}", err=True)
    raise typer.Exit(EXIT_USAGE)


def _profile(path: Path | None, game: str | None = None) -> dict[str, Any]:
    """The ``--profile`` file, checked before any work: it must fit ``game`` (or, with no
    game named, at least one game), else a usage error (exit 2) naming the file."""
    from rules_oracle_cli.shared import profile_file

    return profile_file(path, game, _usage)


def _default_scenarios_dir() -> Path:
    """The bundled suite, wherever rules-oracle is installed (never a folder of the cwd)."""
    from rules_oracle import SCENARIOS_DIR

    return SCENARIOS_DIR


@app.command()
def play(
    game: Annotated[str, typer.Option(help="Game name: " + ", ".join(game_names()))],
    players: Annotated[int, typer.Option(help="Number of players.")],
    seed: Annotated[int, typer.Option(help="Seed of the random choices.")] = 0,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here.")] = None,
    options: Annotated[str, typer.Option(help="Game options as a JSON object.")] = "{}",
    profile: Profile = None,
    claims: Annotated[
        ClaimsMode, typer.Option(help="acting: the actor's plain values; full: every path.")
    ] = ClaimsMode.acting,
) -> None:
    """Write a seeded random legal game as a complete v1 log, with state claims."""
    from rules_oracle import BadOptions, play_log

    if output is not None:
        _output_file(output, "--output")
    opts = _json_object("--options", options)
    if opts and game in game_names():
        _check_options(opts, game)
    extra = _profile(profile, game if game in game_names() else None)
    if extra:
        embedded = opts.get("profile") or {}
        if not isinstance(embedded, dict):
            _usage("--options: profile must be an object of data keys to values")
        opts["profile"] = {**embedded, **extra}
    try:  # an unknown game or option, a player count, a profile refused at set-up
        lines = play_log(game, players, seed=seed, options=opts, full=claims is ClaimsMode.full)
    except BadOptions as exc:
        _usage(exc.message)
    text = "\n".join(lines) + "\n"
    if output is None:
        sys.stdout.write(text)
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            _usage(f"cannot write {output}: {exc.strerror or exc}")


def _game_options(text: str | None) -> dict[str, Any]:
    """``--options`` for files of any game, checked before any file is read: each option
    applies to the games that have it; one no game has, or a value refused, is a usage
    error (never a good log's verdict)."""
    opts = _json_object("--options", text)
    if opts:
        _check_options(opts)
    return opts


def _check_options(opts: dict[str, Any], game: str | None = None) -> None:
    """Options no game (or not ``game``) has, a value refused, or a profile among them that
    no game takes, or under which no game ends: a usage error before any work."""
    from rules_oracle import BadOptions, check_options

    try:
        check_options(opts, game)
    except BadOptions as exc:
        _usage(f"--options: {exc.message}")


def _output_file(path: Path, flag: str) -> None:
    """A file a command will write, checked before any work (a long replay is never lost
    to a path that cannot be written): not a folder, in a folder that exists, writable."""
    import os

    if path.is_dir():
        _usage(f"{flag} {path} is a folder: name the file to write")
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        _usage(f"cannot write {path}: {folder} {what}")
    if not os.access(path if path.exists() else folder, os.W_OK):
        _usage(f"cannot write {path}: {path if path.exists() else folder} is not writable")


def _json_object(flag: str, text: str | None) -> dict[str, Any]:
    """A command-line JSON object (None gives {}); anything else is a usage error."""
    from rules_oracle_cli.shared import json_object

    return json_object(flag, text, _usage)


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
    profile: Profile = None,
    options: LogOptions = None,
    html: Annotated[
        Path | None, typer.Option(help="Write an HTML replay of each failing log here.")
    ] = None,
    from_list: FromList = None,
    jobs: Jobs = 1,
    dask: Dask = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Text: print only failures and the totals.")
    ] = False,
    readings: Annotated[
        bool | None,
        typer.Option(
            "--readings/--no-readings",
            help="For a failing log, replay it under the other readings of the game's "
            "options and report those it validates or gets further under "
            "(default: on for one log file in text).",
        ),
    ] = None,
) -> None:
    """Replay logs through the reference engine; one verdict per log, then the totals."""
    from rules_oracle import BadCorpus, ValidateReport, progress, validate_files

    if at is not None and at < 0:
        _usage("--at counts events from 0 (the setup)")
    names = [str(p) for p in logs or []]
    listed = None if from_list is None else str(from_list)
    _check_inputs(names, listed, jobs, dask)
    extra, opts = _profile(profile), _game_options(options)
    pages = _ReplayPages(html, extra, opts) if html else None
    report = ValidateReport(fmt.value, at=at, strict=strict, quiet=quiet)
    if readings is None:  # on by default for one log read in text
        readings = fmt is Format.text and listed is None and _one_log(names)
    try:
        verdicts = validate_files(
            names,
            from_list=listed,
            profile=extra,
            options=opts,
            at=at,
            jobs=jobs,
            dask=dask,
            readings=readings,
        )
        _report_verdicts(_paged(progress(verdicts, "logs"), pages, strict), report)
    except BadCorpus as exc:
        _usage(str(exc))
    # 3: our bug (an internal-error verdict, or one the report could not render); 2: a page
    # could not be written (said on stderr); 1: failed
    code = report.exit_code()
    if pages is not None and pages.unwritten and code < EXIT_USAGE:
        code = EXIT_USAGE
    raise typer.Exit(code)


def _one_log(names: list[str]) -> bool:
    """Whether ``names`` is one log file (or standard input), not a folder or several."""
    return len(names) == 1 and (names[0] == "-" or Path(names[0]).is_file())


@app.command()
def fairness(
    logs: Annotated[
        list[Path] | None,
        typer.Argument(help="Log files or folders (*.jsonl, *.jsonl.gz); - reads standard input."),
    ] = None,
    fmt: Annotated[PlainFormat, typer.Option("--format", help="Report format.")] = PlainFormat.text,
    html: Annotated[
        Path | None, typer.Option(help="Also write the charts as an HTML page here.")
    ] = None,
    effect: Annotated[
        float, typer.Option(help="Effect size (Cohen's w) the sample size is worked out for.")
    ] = 0.1,
    power: Annotated[float, typer.Option(help="Power to detect that effect.")] = 0.9,
    alpha: Annotated[
        float, typer.Option(help="Significance level, after Holm's correction.")
    ] = 0.01,
    seed: Annotated[int, typer.Option(help="Seed of the randomized PIT values.")] = 0,
    profile: Profile = None,
    options: LogOptions = None,
    from_list: FromList = None,
    jobs: Jobs = 1,
    dask: Dask = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Text: print only failing logs and the totals.")
    ] = False,
) -> None:
    """Test the chance outcomes of logs against the reference's distributions: fit,
    independence, sample size; exit 1 when a game's chance kind is biased."""
    from rules_oracle import (
        STATS_MISSING,
        BadCorpus,
        BadOptions,
        ChanceTally,
        FairnessReport,
        fairness_files,
        fairness_page,
        progress,
        stats_available,
    )

    if not stats_available():
        _usage(STATS_MISSING)
    names = [str(p) for p in logs or []]
    listed = None if from_list is None else str(from_list)
    _check_inputs(names, listed, jobs, dask)
    extra, opts = _profile(profile), _json_object("--options", options)
    try:
        report = FairnessReport(fmt.value, quiet=quiet, effect=effect, power=power, alpha=alpha)
    except BadOptions as exc:
        _usage(exc.message)
    tally = ChanceTally(seed)
    try:
        verdicts = fairness_files(
            names, tally=tally, from_list=listed, profile=extra, options=opts, jobs=jobs, dask=dask
        )
        for chunk in report.chunks(progress(verdicts, "logs"), tally):
            sys.stdout.write(chunk)
    except BadCorpus as exc:
        _usage(str(exc))
    if html is not None and report.result is not None:
        _write_page(fairness_page(report.result), html)
    if report.exit_code() == 2:
        counts = report.logs.counts
        read = sum(counts.values())
        _usage(
            f"no test could run: no chance draw with two or more outcomes in {read} "
            f"log{'' if read == 1 else 's'} ({counts['valid']} valid): never a pass"
        )
    raise typer.Exit(report.exit_code())


class _ReplayPages:
    """``validate --html DIR``: one replay page per failing log, named after the log."""

    def __init__(self, folder: Path, profile: dict[str, Any], options: dict[str, Any]) -> None:
        from rules_oracle import ReplayPages

        if folder.exists() and not folder.is_dir():
            _usage(f"--html {folder} is a file: name a folder for the pages")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            _usage(f"cannot make {folder}: {exc.strerror or exc}")
        self.folder, self.pages, self.names = folder, ReplayPages(profile, options), set[str]()
        self.unwritten = 0
        """Pages that could not be written: said on stderr at once, the run goes on."""

    def write(self, log: Path) -> None:
        name, n = log.stem, 1
        while name in self.names:
            n += 1
            name = f"{log.stem}-{n}"
        self.names.add(name)
        output = self.folder / f"{name}.html"
        try:
            output.write_text(self.pages.log_page(log)[0], encoding="utf-8")
        except OSError as exc:  # this page is lost, never the other logs' verdicts
            self.unwritten += 1
            typer.echo(f"rules-oracle: cannot write {output}: {exc.strerror or exc}", err=True)


def _write_page(page: str, output: Path) -> None:
    try:
        output.write_text(page, encoding="utf-8")
    except OSError as exc:
        _usage(f"cannot write {output}: {exc.strerror or exc}")


@app.command()
def replay(
    source: Annotated[Path, typer.Argument(help="A log (*.jsonl) or a scenario (*.yaml).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.")],
    profile: Profile = None,
) -> None:
    """Write a self-contained HTML page that steps through a log or scenario, board drawn,
    with the verdict highlighted at its event. Exit code as validate / scenarios."""
    from rules_oracle import ReplayPages, describe

    if source.is_dir():
        _usage(f"{source} is a folder: name a log (*.jsonl) or a scenario (*.yaml)")
    if not source.is_file():
        _usage(f"no such file: {source}")
    _output_file(output, "--output")
    pages = ReplayPages(_profile(profile))
    if source.suffix in (".yaml", ".yml"):
        page, result = pages.scenario_page(source)
        typer.echo(describe(result))
        internal, failed = result.status == "internal_error", result.status != "pass"
    else:
        page, verdict = pages.log_page(source)
        typer.echo(describe(verdict))
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
    if listed and listed != "-" and Path(listed).is_dir():
        _usage(f"--from-list {listed} is a folder: give a file of log paths, one a line")
    if dask is not None:
        from importlib.util import find_spec

        if find_spec("distributed") is None:
            _usage("--dask needs Dask: pip install 'rules-oracle[dask]'")


def _paged(
    verdicts: Iterable["Verdict"], pages: _ReplayPages | None, strict: bool
) -> Iterator["Verdict"]:
    """The verdicts; with ``--html`` a replay page is written for each failing one."""
    for verdict in verdicts:
        if pages is not None and verdict.fails(strict) and Path(verdict.log).is_file():
            pages.write(Path(verdict.log))
        yield verdict


def _report_verdicts(verdicts: Iterator["Verdict"], report: "ValidateReport") -> None:
    """Write the report as the verdicts arrive (a long run is never held in memory)."""
    for chunk in report.chunks(verdicts):
        sys.stdout.write(chunk)


@app.command()
def scenarios(
    paths: Annotated[
        list[Path] | None, typer.Argument(help="Scenario files or folders (default: all).")
    ] = None,
    game: Annotated[str | None, typer.Option(help="Only this game's scenarios.")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="Report format.")] = Format.text,
    profile: Profile = None,
    jobs: Jobs = 1,
) -> None:
    """Run scenario files: pass or fail each, with the reason."""
    import time

    started = time.monotonic()
    from rules_oracle import run_scenarios, scenarios_report

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
    results = run_scenarios(targets, game=game, profile=_profile(profile, game), jobs=jobs)
    text, broken = scenarios_report(results, fmt.value, time.monotonic() - started)
    typer.echo(text)
    if broken or any(r.status == "internal_error" for r in results):
        raise typer.Exit(EXIT_INTERNAL)
    if not results:
        _usage("no scenario files found")
    raise typer.Exit(EXIT_OK if all(r.status == "pass" for r in results) else EXIT_FAILED)


@app.command()
def explain(
    rule_id: Annotated[
        str,
        typer.Argument(
            help="A rule id, e.g. PIL-MARKET-04 (any case); or a game's own id (jack, "
            "kings_court, take_craftsman) or another implementation's name (Wollmesse)."
        ),
    ],
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Scenario files or folders to search (default: all).", show_default=False
        ),
    ] = None,
    scenarios_dir: Annotated[Path | None, typer.Option(hidden=True)] = None,
) -> None:
    """A rule: statement, status, sources, dispute and resolution, citing scenarios; or a
    name: what the game's id is (its data, the rules naming it), or what another name means."""
    from rules_oracle import citing_scenarios, explain_name, explain_rule, similar_rule_ids

    found = explain_rule(rule_id)
    if found is not None:
        rule, text = found
        typer.echo(text)
        folders = _scenario_folders(paths, scenarios_dir)
        if folders is None:
            typer.echo("scenarios: no scenarios folder here (name the files or folders)")
            raise typer.Exit(EXIT_OK)
        cited = citing_scenarios(folders).get(rule.id, [])
        typer.echo("scenarios: " + (", ".join(cited) if cited else "none cites this rule"))
        raise typer.Exit(EXIT_OK)
    named = explain_name(rule_id)
    if named is not None:
        typer.echo(named)
        raise typer.Exit(EXIT_OK)
    close = similar_rule_ids(rule_id)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    _usage(f"no rule {rule_id!r} in any catalogue, no id of a game, no alias{hint}")


def _scenario_folders(paths: list[Path] | None, scenarios_dir: Path | None) -> list[Path] | None:
    """The scenario files or folders named, or the default folder; None if there is none."""
    if paths:
        for path in paths:
            if not path.exists():
                _usage(f"no such file or folder: {path}")
        return paths
    folder = scenarios_dir or _default_scenarios_dir()
    return [folder] if folder.is_dir() else None


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
    from rules_oracle import coverage as cited_by

    if game is not None and game not in game_names():
        _usage(f"unknown game {game!r} (known: {', '.join(game_names())})")
    folders = _scenario_folders(paths, scenarios_dir)
    if folders is None:
        _usage("no scenarios folder here: name the scenario files or folders")
    report = cited_by(folders, game)
    if fmt is PlainFormat.json:
        import json

        typer.echo(json.dumps(report, indent=1, allow_nan=False))
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
def perft(
    game: Annotated[str | None, typer.Option(help="Game name: " + ", ".join(game_names()))] = None,
    players: Annotated[
        int | None, typer.Option(help="Number of players (default: the fewest the game takes).")
    ] = None,
    position: Annotated[
        Path | None,
        typer.Option(help="A position file (game, players, options, given) or a scenario."),
    ] = None,
    depth: Annotated[int | None, typer.Option(help="Events in each sequence counted.")] = None,
    divide: Annotated[bool, typer.Option(help="Also the count under each first event.")] = False,
    suite: Annotated[
        str | None,
        typer.Option(help="Check a perft suite on our engine: a file, or a game's bundled one."),
    ] = None,
    options: Annotated[str | None, typer.Option(help="Game options as a JSON object.")] = None,
    profile: Profile = None,
    jobs: Jobs = 1,
    fmt: Annotated[PlainFormat, typer.Option("--format", help="Report format.")] = PlainFormat.text,
) -> None:
    """Count the legal event sequences of --depth events from a position (perft), or check
    a perft suite: every chance outcome is a branch (docs/perft.md)."""
    from rules_oracle import (
        PERFT_MAX_DEPTH,
        PLAYER_NAMES,
        BadOptions,
        InternalError,
        load,
        perft_report,
        read_position,
    )
    from rules_oracle import perft as count_sequences

    if jobs < 0:
        _usage("--jobs counts worker processes (0: every core)")
    if suite is not None:
        if depth is not None or position is not None or divide or game or players:
            _usage("--suite checks a whole suite: give it alone (with --jobs, --format)")
        _perft_suite(suite, jobs, fmt)
    if depth is None or not 0 <= depth <= PERFT_MAX_DEPTH:
        _usage(f"--depth counts events: give a whole number, 0 to {PERFT_MAX_DEPTH}")
    if game is not None and game not in game_names():
        _usage(f"unknown game {game!r} (known: {', '.join(game_names())})")
    opts = _json_object("--options", options)
    where = "setup"
    try:
        if position is not None:
            if players is not None:
                _usage("--position names its players: --players goes with the setup only")
            start = read_position(position, options=opts, profile=_profile(profile))
            if game is not None and start.rules.name != game:
                _usage(f"--position {position} is a {start.rules.name} position, not {game}")
            where = str(position)
        else:
            if game is None:
                _usage("name the game (--game) or a position file (--position)")
            rules = load(game, opts, _profile(profile, game))
            count = rules.min_players if players is None else players
            if not rules.min_players <= count <= rules.max_players:
                _usage(f"{game} takes {rules.min_players} to {rules.max_players} players")
            start = rules.setup(PLAYER_NAMES[:count])
        result = count_sequences(start, depth, divide=divide, jobs=jobs, progress=True)
    except BadOptions as exc:
        _usage(exc.message)
    except InternalError as exc:
        typer.echo(f"rules-oracle: internal error, please report: {exc}", err=True)
        raise typer.Exit(EXIT_INTERNAL) from None
    typer.echo(perft_report(result, start, fmt=fmt.value, source=where))
    raise typer.Exit(EXIT_OK)


def _perft_suite(name: str, jobs: int, fmt: PlainFormat) -> NoReturn:
    """``perft --suite``: check a suite file (or a game's bundled suite) on our engine."""
    import time

    from rules_oracle import (
        PERFT_SUITES_DIR,
        BadOptions,
        InternalError,
        check_perft_suite,
        perft_suite_report,
    )

    path = Path(name)
    if name in game_names() and not path.exists():
        path = PERFT_SUITES_DIR / f"{name}.yaml"
    if not path.is_file():
        _usage(f"no such suite file: {name} (or name a game: {', '.join(game_names())})")
    started = time.monotonic()
    try:
        checks = check_perft_suite(path, jobs=jobs, progress=True)
    except BadOptions as exc:
        _usage(exc.message)
    except InternalError as exc:
        typer.echo(f"rules-oracle: internal error, please report: {exc}", err=True)
        raise typer.Exit(EXIT_INTERNAL) from None
    seconds = time.monotonic() - started
    typer.echo(perft_suite_report(checks, path, fmt=fmt.value, seconds=seconds))
    raise typer.Exit(EXIT_OK if all(c.passed for c in checks) else EXIT_FAILED)


@app.command()
def serve(
    game: Annotated[list[str], typer.Option(help="Game to serve (repeat for more).")],
    seed: Annotated[int, typer.Option(help="Seed of the 'next' op's random choices.")] = 0,
) -> None:
    """Our engines behind the engine protocol v1 (JSON Lines on stdin/stdout)."""
    from rules_oracle import serve as serve_session

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
        list[str] | None,
        typer.Option(
            help="Only these parts: playout, probes, scenarios, engine (the default: all "
            "four), perft and chance (only when named: docs/perft.md, docs/fairness.md)."
        ),
    ] = None,
    scenarios_dir: Annotated[
        Path | None, typer.Option(help="Scenario folder (default: the bundled suite).")
    ] = None,
    shrink_seconds: Annotated[
        float, typer.Option(help="Time budget for shrinking all of the run's findings.")
    ] = 120.0,
    save: Annotated[
        Path | None, typer.Option(help="Write each finding's scenario and log here.")
    ] = None,
    options: Annotated[
        str | None, typer.Option(help="Game options as a JSON object (sent in new_game).")
    ] = None,
    profile: Profile = None,
    option_matrix: Annotated[
        bool, typer.Option(help="Play every documented option value and mode in turn.")
    ] = False,
    chance_draws: Annotated[
        int, typer.Option(help="Part chance: the engine's draws to test.")
    ] = 4000,
    min_coverage: Annotated[
        float | None,
        typer.Option(help="Fail when less than this share of the rules (%) is exercised."),
    ] = None,
    reach: Annotated[
        bool, typer.Option(help="Also play from rare ends and scenario positions.")
    ] = True,
) -> None:
    """Drive an engine under test over the engine protocol and compare it with ours."""
    from rules_oracle_cli.conform import run_conform
    from rules_oracle_cli.shared import game_options

    opts = game_options(options, profile, game, _usage)
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
            options=opts,
            option_matrix=option_matrix,
            chance_draws=chance_draws,
            min_coverage=min_coverage,
            reach=reach,
        )
    )


def main() -> None:
    """Entry point: run the app; an unexpected exception is our bug (exit 3), in one line."""
    try:
        app()
    except Exception as exc:  # noqa: BLE001 - the last guard: report as ours, never the user's
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        typer.echo(
            f"rules-oracle: internal error, please report: {type(exc).__name__}: {exc} "
            f"({Path(where.filename).name}:{where.lineno})",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)
