"""What the command line and the pytest plugin share: reading and checking conform's settings
(game options, a data profile, parts, numbers, the minimum coverage) into the one
``rules_oracle.conformance.Settings``, and writing a finding's case files.

Each front end names its own options in the messages (``Flags``): ``rules-oracle conform``
says ``--part``, the plugin ``--rules-oracle-part``; a bad value goes to the front end's
``usage``, which never returns (the CLI exits 2, the plugin raises ``pytest.UsageError``).
Loaded only when a command or a plugin run needs it: nothing heavy is imported at the top.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from rules_oracle.conformance import Conformance, Report, Settings

Usage = Callable[[str], NoReturn]


class Flags:
    """How a front end spells conform's options (by the CLI's names: ``part``,
    ``scenarios-dir``, ...) in its messages. With ``name_all``, a message on a bad value
    names its option first even where the CLI's does not (a test run shows one line)."""

    def __init__(
        self, prefix: str, renamed: Mapping[str, str] | None = None, name_all: bool = False
    ) -> None:
        self.prefix = prefix
        self.renamed = dict(renamed or {})
        self.name_all = name_all

    def __call__(self, name: str) -> str:
        """The front end's option for the CLI's ``--name``."""
        return self.prefix + self.renamed.get(name, name)

    def about(self, name: str, message: str) -> str:
        """The message on a bad value of option ``name`` that does not name it itself."""
        return f"{self(name)}: {message}" if self.name_all else message


CLI = Flags("--")
PLUGIN = Flags("--rules-oracle-", {"scenarios-dir": "scenarios"}, name_all=True)


def json_object(flag: str, text: str | None, usage: Usage) -> dict[str, Any]:
    """A JSON object given on the command line (None gives {}); anything else is a usage
    error naming ``flag``."""
    if text is None:
        return {}
    from rules_oracle import BadOptions, read_json

    try:
        value = read_json(text)
    except BadOptions as exc:
        usage(f"{flag}: {exc.message}")
    if not isinstance(value, dict):
        usage(f"{flag} must be a JSON object")
    return value


def profile_file(
    path: Path | None, game: str | None, usage: Usage, flags: Flags = CLI
) -> dict[str, Any]:
    """The ``--profile`` file, checked before any work: it must fit ``game`` (or, with no
    game named, at least one game), else a usage error naming the file."""
    if path is None:
        return {}
    from rules_oracle import BadOptions, check_profile, load_profile

    try:
        extra = load_profile(path)
    except BadOptions as exc:
        usage(flags.about("profile", exc.message))
    try:
        check_profile(extra, game)
    except BadOptions as exc:
        usage(f"{flags('profile')} {path}: {exc.message}")
    return extra


def game_options(
    text: str | None, profile: Path | None, game: str, usage: Usage, flags: Flags = CLI
) -> dict[str, Any]:
    """Conform's game options: the ``--options`` object with the ``--profile`` file's data
    under ``profile`` (over any the object has); the options themselves are checked with
    the other settings (``conform_settings``)."""
    from rules_oracle import game_names

    opts = json_object(flags("options"), text, usage)
    extra = profile_file(profile, game if game in game_names() else None, usage, flags)
    if extra:
        embedded = opts.get("profile") or {}
        if not isinstance(embedded, dict):
            usage(f"{flags('options')}: profile must be an object of data keys to values")
        opts["profile"] = {**embedded, **extra}
    return opts


MAX_SECONDS = 86_400
"""The longest time a conform setting may give (a day): an engine request's timeout goes to
the operating system's wait, which takes no more than about 24 days, and no NaN or
infinity."""


def conform_settings(
    *,
    engine: str,
    game: str,
    players: int | None,
    seed: int,
    games: int,
    timeout: float,
    strict_rules: bool,
    parts: Sequence[str] | None,
    scenarios_dir: Path | None,
    shrink_seconds: float,
    options: dict[str, Any] | None,
    option_matrix: bool,
    chance_draws: int,
    min_coverage: float | None,
    reach: bool,
    usage: Usage,
    flags: Flags = CLI,
) -> Settings:
    """The settings of a conform run, every value checked first: an unknown game or option,
    a player count the game does not take, an unknown part, numbers out of range, a
    scenario folder that does not exist, an empty engine command (a usage error each).
    ``options`` are the game options (with any profile under ``profile``); ``parts`` None
    runs the default parts."""
    from rules_oracle import STATS_MISSING, BadOptions, game_names, load, stats_available
    from rules_oracle.conformance import DEFAULT_PARTS, PARTS, Settings

    options = dict(options or {})
    try:
        rules = load(game, options)
    except BadOptions as exc:
        usage(flags.about("options" if game in game_names() else "game", exc.message))
    if players is not None and not rules.min_players <= players <= rules.max_players:
        takes = f"{game} takes {rules.min_players} to {rules.max_players} players"
        usage(flags.about("players", takes))
    unknown = [p for p in parts or [] if p not in PARTS]
    if unknown:
        usage(flags.about("part", f"unknown part {unknown[0]!r} (known: {', '.join(PARTS)})"))
    if parts and "chance" in parts and not stats_available():
        usage(flags.about("part", STATS_MISSING))
    if chance_draws < 1:
        usage(f"{flags('chance-draws')} must be 1 or more")
    if games < 0:
        usage(f"{flags('games')} must be 0 or more (got {games})")
    if not 0 < timeout <= MAX_SECONDS:  # NaN fails too
        usage(
            f"{flags('timeout')} must be above 0 seconds, at most {MAX_SECONDS} (got {timeout:g})"
        )
    if not 0 <= shrink_seconds <= MAX_SECONDS:
        usage(
            f"{flags('shrink-seconds')} must be 0 to {MAX_SECONDS} seconds (got {shrink_seconds:g})"
        )
    if scenarios_dir is not None and not scenarios_dir.is_dir():
        usage(f"{flags('scenarios-dir')} {scenarios_dir}: no such folder")
    if not engine.strip():
        usage(f"{flags('engine')} is empty")
    if min_coverage is not None and not 0 <= min_coverage <= 100:
        usage(
            f"{flags('min-coverage')} must be a share in percent, 0 to 100 (got {min_coverage:g})"
        )
    counts = (players,) if players else tuple(range(rules.min_players, rules.max_players + 1))
    return Settings(
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


def conform_run(settings: Settings, usage: Usage, flags: Flags = CLI) -> Conformance:
    """The run of ``settings``, not started: an engine command that cannot be split, or a
    run with nothing to run, is a usage error."""
    from rules_oracle.conformance import Conformance

    try:
        run = Conformance(settings)
    except ValueError as exc:  # an engine command shlex cannot split
        usage(f"{flags('engine')}: {exc}")
    nothing = nothing_to_run(run, flags)
    if nothing:
        usage(nothing)
    return run


def nothing_to_run(run: Conformance, flags: Flags = CLI) -> str | None:
    """Why the run has nothing to run, found before it starts (None: something to run)."""
    s = run.settings
    games = s.games if {"playout", "probes", "engine"} & set(s.parts) else 0
    if games or "scenarios" in s.parts and run.scenario_files():
        return None
    if {"perft", "chance"} & set(s.parts):  # the perft suite; chance plays its own games
        return None
    if "scenarios" in s.parts:
        where = s.scenarios_dir or "the bundled suite"
        return f"nothing to run: {flags('games')} {s.games} and no {s.game} scenario in {where}"
    named = f" {flags('part')} ".join(s.parts)
    return f"nothing to run: {flags('games')} {s.games} with {flags('part')} {named}"


def checked_nothing_why(report: Report) -> str:
    """What the run did that compared nothing."""
    c, caps = report.counts, set(report.capabilities)
    why = []
    if "engine" in report.settings.parts and report.settings.games and "next" not in caps:
        why.append("engine games need the engine's 'next' capability")
    if c.scenarios_skipped:
        why.append(f"{c.scenarios_skipped} scenarios skipped: the engine lacks what they need")
    return "; ".join(why) or "no game, event, probe or scenario was compared with ours"


def save_cases(report: Report, folder: Path, first: int = 0) -> None:
    """Write the ready-to-commit scenario and log of each finding from ``first`` on, named
    by the scenario's id (unique in the run); each finding then says where its case is.
    Raises ``OSError`` when the folder cannot be made or written."""
    from rules_oracle.conformance import saved_at

    folder.mkdir(parents=True, exist_ok=True)
    for i in range(first, len(report.findings)):
        f = report.findings[i]
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
