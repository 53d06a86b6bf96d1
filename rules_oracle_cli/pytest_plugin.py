"""A pytest plugin: conformance tests against rules-oracle in an implementer's own test run.

    pytest --rules-oracle-engine "./my-engine --protocol" --rules-oracle-game pillars

Off unless ``--rules-oracle-engine`` is given. Each play-out game, each scenario file (the
bundled suite unless ``--rules-oracle-scenarios`` names a folder) and each engine-driven game
becomes its own test item (``rules-oracle::playout-0-2p-seed0``,
``rules-oracle::scenario::<file>``, ``rules-oracle::engine-0-2p``); a failure reads like
``conform``'s report, with the shrunk case as a scenario and a v1 log. With
``--rules-oracle-baseline``, known findings are expected failures (xfail) and a stale entry
fails a last item. As with ``conform``, nothing checked is never a pass: a scenario folder
that does not exist or nothing to run is a usage error, and a run whose items compared
nothing with ours ends with pytest's usage-error exit code.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from rules_oracle.conformance import Finding

# pytest loads this module in every run of every project where rules-oracle is installed:
# it imports nothing of rules-oracle until a run asks for it (--rules-oracle-engine).

_CONFORM = pytest.StashKey["_Session"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rules-oracle", "conformance tests against rules-oracle")
    group.addoption("--rules-oracle-engine", help="command that starts the engine under test")
    group.addoption("--rules-oracle-game", help="game to test (pillars, milestones, ...)")
    group.addoption("--rules-oracle-players", type=int, help="players (default: every count)")
    group.addoption("--rules-oracle-games", type=int, default=2, help="play-outs (default 2)")
    group.addoption("--rules-oracle-seed", type=int, default=0, help="seed of the first game")
    group.addoption("--rules-oracle-timeout", type=float, default=10.0, help="seconds/request")
    group.addoption("--rules-oracle-baseline", help="known disagreements (YAML)")
    group.addoption("--rules-oracle-scenarios", help="scenario folder (default: ours)")
    group.addoption(
        "--rules-oracle-strict-rules", action="store_true", help="another rule id fails too"
    )


class _Session:
    """The one conform run the items share, started at the first item."""

    def __init__(self, config: pytest.Config) -> None:
        from rules_oracle import BadOptions, load
        from rules_oracle.conformance import BadBaseline, Conformance, Settings, load_baseline

        opt = config.getoption
        game = str(opt("--rules-oracle-game") or "")
        try:
            rules = load(game)
        except BadOptions as exc:
            raise pytest.UsageError(f"--rules-oracle-game: {exc.message}") from exc
        players = opt("--rules-oracle-players")
        counts = (players,) if players else tuple(range(rules.min_players, rules.max_players + 1))
        folder = opt("--rules-oracle-scenarios")
        if folder and not Path(folder).is_dir():
            raise pytest.UsageError(f"--rules-oracle-scenarios {folder}: no such folder")
        self.settings = Settings(
            engine=str(opt("--rules-oracle-engine")),
            game=game,
            players=counts,
            seed=int(opt("--rules-oracle-seed")),
            games=int(opt("--rules-oracle-games")),
            timeout=float(opt("--rules-oracle-timeout")),
            strict_rules=bool(opt("--rules-oracle-strict-rules")),
            scenarios_dir=Path(folder) if folder else None,
        )
        self.run = Conformance(self.settings)
        self.connected: bool | None = None
        self.nothing_checked = False
        self.baseline: list[dict[str, str]] = []
        self.used: set[int] = set()
        baseline = opt("--rules-oracle-baseline")
        if baseline:
            try:
                self.baseline = load_baseline(Path(baseline))
            except BadBaseline as exc:
                raise pytest.UsageError(str(exc)) from exc

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


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    if not config.getoption("--rules-oracle-engine"):
        return
    if not config.getoption("--rules-oracle-game"):
        raise pytest.UsageError("--rules-oracle-engine needs --rules-oracle-game")
    state = _Session(config)
    config.stash[_CONFORM] = state
    if not state.settings.games and not state.run.scenario_files():
        where = config.getoption("--rules-oracle-scenarios") or "the bundled suite"
        raise pytest.UsageError(
            f"rules-oracle: nothing to run: --rules-oracle-games 0 and no "
            f"{state.settings.game} scenario in {where}"
        )
    root = _Root.from_parent(session, name="rules-oracle")
    cases: list[pytest.Item] = []
    for k in range(state.settings.games):
        players = len(state.run.players_for(k))
        name = f"playout-{k}-{players}p-seed{state.settings.seed + k}"
        cases.append(ConformItem.from_parent(root, name=name, part="playout", arg=k))
    for path in state.run.scenario_files():
        name = f"scenario::{path.name}"
        cases.append(ConformItem.from_parent(root, name=name, part="scenarios", arg=path))
    for k in range(state.settings.games):
        name = f"engine-{k}-{len(state.run.players_for(k))}p"
        cases.append(ConformItem.from_parent(root, name=name, part="engine", arg=k))
    if state.baseline:
        cases.append(ConformItem.from_parent(root, name="baseline-stale", part="stale", arg=None))
    items.extend(cases)


def pytest_sessionfinish(session: pytest.Session) -> None:
    state = session.config.stash.get(_CONFORM, None)
    if state is None:
        return
    state.run.process.close()
    report = state.run.report
    ran = state.connected is not None
    if ran and report.checked_nothing() and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.USAGE_ERROR
        state.nothing_checked = True


def pytest_terminal_summary(terminalreporter: Any) -> None:
    state = terminalreporter.config.stash.get(_CONFORM, None)
    if state is not None and state.nothing_checked:
        terminalreporter.write_line(
            "rules-oracle: error: the run checked nothing (no event, probe or scenario was "
            "compared with ours): never a pass",
            red=True,
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
    """One play-out, scenario or engine-driven game against the engine under test."""

    def __init__(self, *, part: str, arg: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.part = part
        self.arg = arg

    def runtest(self) -> None:
        from rules_oracle.conformance import finding_line

        state: _Session = self.config.stash[_CONFORM]
        if self.part == "stale":
            self.check_stale(state)
            return
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
        elif "next" not in run.remote.capabilities:
            pytest.skip("the engine lacks the 'next' capability")
        else:
            run.engine_game(self.arg)
        run.finish_findings()  # shrunk now, from the run's one budget
        self.judge(state, run.report.findings[before:])

    def judge(self, state: _Session, found: list[Finding]) -> None:
        from rules_oracle.conformance import finding_text

        strict = state.settings.strict_rules
        hard = [f for f in found if strict or not f.soft]
        failing = [f for f in hard if not state.known(f)]
        if failing:
            lines = [finding_text(state.run.report, f) for f in failing]
            files = [f.scenario for f in failing if f.scenario] + [f.log for f in failing if f.log]
            raise ConformFailure(lines, files)
        if hard:
            pytest.xfail("known (baseline): " + "; ".join(f.kind for f in hard))

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
