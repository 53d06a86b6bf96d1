"""A pytest plugin: conformance tests against rules-oracle in an implementer's own test run.

    pytest --rules-oracle-engine "./my-engine --protocol" --rules-oracle-game palmyra \
        --rules-oracle-options '{"mode": "advanced"}'

Off unless ``--rules-oracle-engine`` is given. It takes ``conform``'s settings (game options,
a profile, the option matrix, parts, the minimum coverage, reach, the shrink budget, saving
cases, chance draws, ...) as ``--rules-oracle-*`` options, read and checked by the code the
command uses (rules_oracle_cli/shared.py): a bad value is a usage error naming the option.
Each play-out game, each scenario file (the bundled suite unless ``--rules-oracle-scenarios``
names a folder) and each engine-driven game becomes its own test item
(``rules-oracle::playout-0-2p-seed0``, ``rules-oracle::scenario::<file>``,
``rules-oracle::engine-0-2p``); the play-outs that reach on purpose, and the parts perft and
chance when named, are one item each (``rules-oracle::reach``, ...); a failure reads like
``conform``'s report, with the shrunk case as a scenario and a v1 log (written to
``--rules-oracle-save``'s folder too). With ``--rules-oracle-min-coverage`` a last item,
``rules-oracle::rule-coverage``, fails below the minimum. With ``--rules-oracle-baseline``,
known findings are expected failures (xfail) and a stale entry fails a last item. As with
``conform``, nothing checked is never a pass: a scenario folder that does not exist or
nothing to run is a usage error, and a run whose items compared nothing with ours ends with
pytest's usage-error exit code.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest

if TYPE_CHECKING:
    from rules_oracle.conformance import Finding

# pytest loads this module in every run of every project where rules-oracle is installed:
# it imports nothing of rules-oracle until a run asks for it (--rules-oracle-engine).

_CONFORM = pytest.StashKey["_Session"]()
_NOTHING = pytest.StashKey[str]()
"""Why the session checked nothing (set when it did: never a pass)."""
_WORKERS = pytest.StashKey[list[dict[str, Any]]]()
"""Under pytest-xdist, on the controller: what each worker's share of the items checked."""
SESSION_CHECKS = ("coverage", "stale")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rules-oracle", "conformance tests against rules-oracle")
    add = group.addoption
    add("--rules-oracle-engine", help="command that starts the engine under test")
    add("--rules-oracle-game", help="game to test (pillars, milestones, ...)")
    # Numbers are read as text and checked by _number, so that a value that is no number
    # gets the plugin's one-line usage error, not argparse's.
    add("--rules-oracle-players", metavar="N", help="players (default: every count)")
    add("--rules-oracle-games", metavar="N", default="2", help="play-outs (default 2)")
    add("--rules-oracle-seed", metavar="N", default="0", help="seed of the first game")
    add("--rules-oracle-timeout", metavar="SECONDS", default="10", help="seconds/request")
    add("--rules-oracle-baseline", help="known disagreements (YAML)")
    add("--rules-oracle-scenarios", help="scenario folder (default: ours)")
    add("--rules-oracle-strict-rules", action="store_true", help="another rule id fails too")
    add("--rules-oracle-options", metavar="JSON", help="game options as a JSON object")
    add("--rules-oracle-profile", metavar="PATH", help="data profile (YAML/JSON)")
    add(
        "--rules-oracle-option-matrix",
        action="store_true",
        help="play every documented option value and mode in turn",
    )
    add(
        "--rules-oracle-part",
        action="append",
        metavar="NAME",
        help="only this part (repeat): playout, probes, scenarios, engine (the default: all "
        "four), perft, chance",
    )
    add(
        "--rules-oracle-min-coverage",
        metavar="PERCENT",
        help="fail when less than this share of the rules is exercised",
    )
    add(
        "--rules-oracle-no-reach",
        action="store_true",
        help="no play-outs from rare ends and scenario positions",
    )
    add(
        "--rules-oracle-shrink-seconds",
        metavar="SECONDS",
        default="120",
        help="time budget for shrinking all findings (default 120)",
    )
    add("--rules-oracle-save", metavar="DIR", help="write each finding's scenario and log here")
    add(
        "--rules-oracle-chance-draws",
        metavar="N",
        default="4000",
        help="part chance: the engine's draws to test (default 4000)",
    )


def _usage(message: str) -> NoReturn:
    """A bad setting: pytest ends the run with its usage error (exit 4) and this line."""
    raise pytest.UsageError(message)


def _number(config: pytest.Config, name: str, kind: type[int] | type[float]) -> Any:
    """The option ``name`` as a whole number (``kind`` int) or a number, None when not
    given; a value that is not one is a usage error naming the option."""
    raw = config.getoption(name)
    if raw is None:
        return None
    try:
        return kind(str(raw).strip())
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        _usage(f"{name} {raw}: not {what}")


class _Session:
    """The one conform run the items share, started at the first item. Its settings are
    read and checked as ``rules-oracle conform`` reads and checks its own
    (rules_oracle_cli/shared.py), each message naming the plugin's option."""

    def __init__(self, config: pytest.Config) -> None:
        from rules_oracle.conformance import BadBaseline, load_baseline
        from rules_oracle_cli.shared import PLUGIN, conform_run, conform_settings, game_options

        opt = config.getoption
        game = str(opt("--rules-oracle-game") or "")
        profile = opt("--rules-oracle-profile")
        options = game_options(
            opt("--rules-oracle-options"), Path(profile) if profile else None, game, _usage, PLUGIN
        )
        folder = opt("--rules-oracle-scenarios")
        self.settings = conform_settings(
            engine=str(opt("--rules-oracle-engine")),
            game=game,
            players=_number(config, "--rules-oracle-players", int),
            seed=_number(config, "--rules-oracle-seed", int),
            games=_number(config, "--rules-oracle-games", int),
            timeout=_number(config, "--rules-oracle-timeout", float),
            strict_rules=bool(opt("--rules-oracle-strict-rules")),
            parts=opt("--rules-oracle-part"),
            scenarios_dir=Path(folder) if folder else None,
            shrink_seconds=_number(config, "--rules-oracle-shrink-seconds", float),
            options=options,
            option_matrix=bool(opt("--rules-oracle-option-matrix")),
            chance_draws=_number(config, "--rules-oracle-chance-draws", int),
            min_coverage=_number(config, "--rules-oracle-min-coverage", float),
            reach=not opt("--rules-oracle-no-reach"),
            usage=_usage,
            flags=PLUGIN,
        )
        self.baseline: list[dict[str, str]] = []
        baseline = opt("--rules-oracle-baseline")
        if baseline:
            try:
                self.baseline = load_baseline(Path(baseline))
            except BadBaseline as exc:
                raise pytest.UsageError(str(exc)) from exc
        save = opt("--rules-oracle-save")
        self.save = Path(save) if save else None
        if self.save is not None and self.save.exists() and not self.save.is_dir():
            _usage(f"--rules-oracle-save {save}: not a folder")
        self.run = conform_run(self.settings, _usage, PLUGIN)
        self.connected: bool | None = None
        self.used: set[int] = set()
        self.ran: set[str] = set()
        """The items that ran in this process (their node ids)."""

    def connect(self) -> list[Finding]:
        """Start the engine once; the session's findings if it would not."""
        if self.connected is None:
            self.connected = self.run.connect()
        return [] if self.connected else list(self.run.report.findings)

    def known(self, finding: Finding) -> bool:
        from rules_oracle.conformance import matches

        hit = [i for i, e in enumerate(self.baseline) if matches(e, finding)]
        self.used.update(hit)
        return bool(hit)

    def save_cases(self, first: int) -> list[str]:
        """With ``--rules-oracle-save``: write the case files of the findings from ``first``
        on; what could not be written."""
        from rules_oracle_cli.shared import save_cases

        if self.save is None or len(self.run.report.findings) <= first:
            return []
        try:
            save_cases(self.run.report, self.save, first)
        except OSError as exc:
            return [f"rules-oracle: cannot write to {self.save}: {exc.strerror or exc}"]
        return []


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    if not config.getoption("--rules-oracle-engine"):
        return
    if not config.getoption("--rules-oracle-game"):
        raise pytest.UsageError("--rules-oracle-engine needs --rules-oracle-game")
    state = _Session(config)
    config.stash[_CONFORM] = state
    s, run = state.settings, state.run
    root = _Root.from_parent(session, name="rules-oracle")
    cases: list[pytest.Item] = []

    def case(name: str, part: str, arg: Any = None) -> None:
        cases.append(ConformItem.from_parent(root, name=name, part=part, arg=arg))

    # the order of conform's run: play-outs (with the probes), scenarios, the play-outs that
    # reach on purpose, engine games, perft, chance; then the coverage, then the baseline
    if {"playout", "probes"} & set(s.parts):
        for k in range(s.games):
            case(run.case_name("playout", k, run.playout_start(k)), "playout", k)
    if "scenarios" in s.parts:
        for path in run.scenario_files():
            case(f"scenario::{path.name}", "scenarios", path)
    if s.reach and "playout" in s.parts and s.games:
        case("reach", "reach")
    if "engine" in s.parts:
        for k in range(s.games):
            case(run.case_name("engine", k, run.engine_start(k)), "engine", k)
    for part in ("perft", "chance"):
        if part in s.parts:
            case(part, part)
    if s.min_coverage is not None:
        case("rule-coverage", "coverage")
    if state.baseline:
        case("baseline-stale", "stale")
    items.extend(cases)


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    state = config.stash.get(_CONFORM, None)
    if state is not None:
        from rules_oracle_cli.shared import checked_nothing_why

        state.run.process.close()
        report = state.run.report
        share: dict[str, Any] = {
            "ran": state.connected is not None,
            "checked": report.counts.checked(),
            "findings": len(report.findings),
            "why": checked_nothing_why(report),
        }
        if hasattr(config, "workeroutput"):  # a pytest-xdist worker: the controller judges
            config.workeroutput["rules_oracle"] = share
            return
        shares = [share]
    else:
        shares = config.stash.get(_WORKERS, [])
    ran = [s for s in shares if s["ran"]]
    checked = sum(s["checked"] + s["findings"] for s in ran)
    if ran and not checked and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.USAGE_ERROR
        config.stash[_NOTHING] = "; ".join(dict.fromkeys(s["why"] for s in ran))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """pytest-xdist, on the controller: a worker's share of what the items checked."""
    share = getattr(node, "workeroutput", {}).get("rules_oracle")
    if share is not None:
        node.config.stash.setdefault(_WORKERS, []).append(share)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    why = terminalreporter.config.stash.get(_NOTHING, None)
    if why is not None:
        terminalreporter.write_line(
            f"rules-oracle: error: the run checked nothing ({why}): never a pass", red=True
        )


class _Root(pytest.Collector):
    """The parent of the conformance items (they are made at collection's end)."""

    def collect(self) -> list[pytest.Item]:
        return []


class ConformFailure(Exception):
    """The findings that failed one item."""

    def __init__(self, lines: list[str], files: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines
        self.files = files


class ConformItem(pytest.Item):
    """One play-out, scenario or engine-driven game against the engine under test, or one
    of the parts played as a whole (the play-outs that reach on purpose, perft, chance), or
    a check of the session (the rule coverage's minimum, the baseline's stale entries)."""

    def __init__(self, *, part: str, arg: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.part = part
        self.arg = arg

    def runtest(self) -> None:
        from rules_oracle.conformance import finding_line

        state: _Session = self.config.stash[_CONFORM]
        if self.part in SESSION_CHECKS:
            self.check_all_ran_here(state)
            if self.part == "stale":
                self.check_stale(state)
            else:
                self.check_coverage(state)
            return
        state.ran.add(self.nodeid)
        broken = state.connect()
        if broken:
            raise ConformFailure([finding_line(state.run.report, f) for f in broken], [])
        run = state.run
        before = len(run.report.findings)
        if not run.ensure_running():
            pass  # the restart failure is a finding of this item
        elif self.part == "playout":
            run.playout_game(self.arg)
        elif self.part == "scenarios":
            run.scenario_case(self.arg)
        elif self.part == "reach":
            run.run_reach()
        elif self.part == "perft":
            run.run_perft()
        elif self.part == "chance":
            run.run_chance()
        elif "next" not in run.remote.capabilities:
            pytest.skip("the engine lacks the 'next' capability")
        else:
            run.engine_game(self.arg)
        run.finish_findings()  # shrunk now, from the run's one budget
        unsaved = state.save_cases(before)
        self.judge(state, run.report.findings[before:], unsaved)

    def judge(self, state: _Session, found: list[Finding], unsaved: list[str]) -> None:
        from rules_oracle.conformance import finding_text

        strict = state.settings.strict_rules
        hard = [f for f in found if strict or not f.soft]
        failing = [f for f in hard if not state.known(f)]
        if failing or unsaved:
            report = state.run.report
            lines = [finding_text(report, f, "--rules-oracle-save") for f in failing]
            files = [f.scenario for f in failing if f.scenario] + [f.log for f in failing if f.log]
            raise ConformFailure(lines + unsaved, files)
        if hard:
            pytest.xfail("known (baseline): " + "; ".join(f.kind for f in hard))

    def check_all_ran_here(self, state: _Session) -> None:
        """A check of the whole session needs every other item of the session run before it
        in this process: not so when pytest-xdist shared them out (its default ``--dist
        load``; ``loadscope`` and ``loadfile`` keep them in one worker, in order) or a
        plugin reordered them."""
        wanted = [
            i.nodeid
            for i in self.session.items
            if isinstance(i, ConformItem) and i.part not in SESSION_CHECKS
        ]
        missing = [n for n in wanted if n not in state.ran]
        if missing:
            what = "rule coverage" if self.part == "coverage" else "baseline's stale entries"
            raise ConformFailure(
                [
                    f"the {what} cannot be judged here: {len(missing)} of the {len(wanted)} "
                    "rules-oracle items did not run before it in this process (first: "
                    f"{missing[0]}); with pytest-xdist give --dist loadscope or loadfile (the "
                    "items share one scope: one worker runs them in order) or -p no:xdist",
                ],
                [],
            )

    def check_coverage(self, state: _Session) -> None:
        """The share of the rules the session's items exercised, against the minimum."""
        report = state.run.report
        state.run.coverage.finish(report)  # once: this item runs after every other
        summary = report.rules_exercised
        if summary is None or summary.passed():
            return
        missed = summary.not_exercised()
        lines = [
            f"FAIL coverage: {summary.percent():.1f}% of the rules exercised, below "
            f"--rules-oracle-min-coverage {summary.minimum:g}%",
            f"rules exercised: {len(summary.exercised())} of {len(summary.rules)}; "
            f"not exercised: {', '.join(missed)}",
        ]
        raise ConformFailure(lines + [f"note: {note}" for note in summary.notes], [])

    def check_stale(self, state: _Session) -> None:
        from rules_oracle.conformance import entry_text

        stale = [e for i, e in enumerate(state.baseline) if i not in state.used]
        if stale:
            lines = [f"stale baseline entry (it no longer fails): {entry_text(e)}" for e in stale]
            raise ConformFailure(lines, [])

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ConformFailure):
            text = "\n".join(excinfo.value.lines)
            for case in excinfo.value.files:
                what = "a v1 log" if case.startswith("{") else "a scenario"
                text += f"\n\nminimal case as {what}:\n" + case
            return text
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"rules-oracle {self.name}"
