"""``rules-oracle conform``: drive an engine under test, compare it with ours step by step.

Four parts (docs/conformance.md):
  playout   seeded random games from our engine, every event sent to the engine under test,
            its position compared after each (to_act; with ``state`` every leaf state path;
            with ``legal`` the legal set), and the result at the end;
  probes    at positions along those games, events our engine refuses must be refused too,
            and the engine's position must be unchanged afterwards;
  scenarios every scenario file the engine can run (oracle.scenarios, one runner);
  engine    with ``next``, the engine plays its own games, each event validated live.

Every game on both engines begins at a ``Start`` (oracle.starts): a play-out and an engine
game at the setup; the play-outs that reach on purpose (oracle.reach) at a scenario's position
or near a rare end, written as values on the setup; a shrink's replays at a shorter prefix or
a written position. The first hard disagreement ends a game. Once every game is played its
findings are shrunk (oracle.shrink: by position with ``set_state``, else by prefix) within
one budget for the run, the first finding of each signature first, and each gets its
ready-to-commit files. A fault of the engine under test is a finding; the engine is
restarted for the next game. The rule coverage (oracle.coverage) counts the run's own games,
never a shrink's replays.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any, NoReturn

import attrs

from oracle.coverage import Coverage
from oracle.findings import REFUSED_KINDS, Finding, Report, Settings
from oracle.formats.converter import json_equal
from oracle.formats.scenario import BUNDLED_SCENARIOS, BadScenario, load_scenario, scenario_files
from oracle.games import GameCache
from oracle.option_matrix import option_matrix, players_range
from oracle.play import PLAYER_NAMES
from oracle.probes import Pool, new_pool
from oracle.protocol import EngineError, EngineFault, EngineProcess, Refusal, RemoteEngine
from oracle.provenance import name_rule
from oracle.reach import Reach
from oracle.refengine import LocalEngine
from oracle.reproduce import case_id, log_text, scenario_text
from oracle.scenarios import canonical, run_scenario
from oracle.shrink import Chooser, Prober
from oracle.shrink_run import ShrinkBudget, shrink, shrink_order
from oracle.starts import Start, index_in_legal

PROBE_CHANCE = 0.05
"""The share of positions along a play-out where refused events are sent."""
PROBE_CANDIDATES = 40
PROBES_PER_POSITION = 3
MAX_ENGINE_EVENTS = 100_000
_SCALARS = (int, str, bool, type(None))


class _Stop(Exception):
    """Ends a game at its first hard finding."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.kind)
        self.finding = finding


class Conformance:
    """One conform run: the engine under test, our engine, the findings."""

    def __init__(self, settings: Settings, games: GameCache | None = None) -> None:
        self.settings = settings
        self.games = games or GameCache()
        self.process = EngineProcess(settings.engine, settings.timeout)
        self.remote = RemoteEngine(self.process)
        self.report = Report(settings)
        self.soft_seen: set[tuple[str | None, str | None]] = set()
        self._case = "session"
        self.matrix = (
            option_matrix(settings.game, settings.options)
            if settings.option_matrix
            else [dict(settings.options)]
        )
        self.report.option_matrix_size = len(self.matrix) if settings.option_matrix else 0
        self.budget = ShrinkBudget(settings.shrink_seconds)
        self.pending: list[int] = []
        """Indexes into the report's findings still to be shrunk and given their files."""
        self.case_ids: set[str] = set()
        self.replaying = False
        """True while a shrink replays a case: what it finds is not the run's own, and the
        rule coverage counts nothing of it."""
        self.coverage = Coverage(settings, self.games)  # rule coverage (oracle/coverage.py)
        self.reach = Reach(settings, self.games, self.coverage)  # oracle/reach.py

    @property
    def capabilities(self) -> frozenset[str]:
        """What the engine under test said it can do (after ``connect``)."""
        return self.remote.capabilities

    @property
    def counting(self) -> Coverage | None:
        """The rule coverage to count a game's steps in: None while a shrink replays."""
        return None if self.replaying else self.coverage

    # --- the session -------------------------------------------------------------------

    def run(self) -> Report:
        """Run every part asked for; the report (never raises for the engine's faults)."""
        started = time.monotonic()
        try:
            if self.connect():
                self.run_parts()
            self.finish_findings()
        finally:
            self.process.close()
            self.coverage.finish(self.report)
            self.report.seconds = time.monotonic() - started
        return self.report

    def connect(self) -> bool:
        """Start the engine and check its hello; a problem is a finding."""
        try:
            self.remote.hello()
        except (EngineFault, EngineError) as exc:
            self.add(self._fault_finding("session", exc, None))
            return False
        self.report.engine_name = self.remote.name
        self.report.capabilities = tuple(sorted(self.remote.capabilities))
        if self.settings.game not in self.remote.games:
            served = ", ".join(self.remote.games) or "none"
            message = f"the engine does not serve {self.settings.game} (it serves: {served})"
            self.add(Finding("session", "hello", message))
            return False
        return True

    def ensure_running(self) -> bool:
        """Restart the engine after a fault; False if it will not start."""
        if self.process.running:
            return True
        try:
            self.remote.hello()
        except (EngineFault, EngineError) as exc:
            self.add(self._fault_finding("session", exc, None))
            return False
        return True

    def run_parts(self) -> None:
        s = self.settings
        for k in range(s.games):
            if {"playout", "probes"} & set(s.parts) and self.ensure_running():
                self.playout_game(k)  # the probes are sent along the play-outs
        if "scenarios" in s.parts and self.ensure_running():
            self.run_scenarios()
        self.run_reach()
        if "engine" in s.parts and "next" in self.remote.capabilities:
            for k in range(s.games):
                if self.ensure_running():
                    self.engine_game(k)
        if "perft" in s.parts and self.ensure_running():
            self.run_perft()
        if "chance" in s.parts:
            self.run_chance()

    def run_reach(self) -> None:
        """The play-outs from rare ends and scenario positions (oracle.reach; none without
        ``reach`` or the part ``playout``)."""
        self.reach.run(self)

    def run_perft(self) -> None:
        """The part ``perft`` (oracle.conform_perft)."""
        from oracle.conform_perft import run_perft

        run_perft(self)

    def run_chance(self) -> None:
        """The part ``chance`` (oracle.conform_chance)."""
        from oracle.conform_chance import chance_part

        chance_part(self)

    def add(self, finding: Finding) -> None:
        """Record a finding under the current case, naming its rule (oracle.provenance)."""
        if self.replaying:
            return  # found while a shrink replays a case: not the run's own
        finding = self.named(finding)
        self.report.findings.append(attrs.evolve(finding, case=finding.case or self._case))

    def named(self, finding: Finding) -> Finding:
        """The finding with the rule it rests on, or why none applies (oracle.provenance),
        under its own game's options, from its own start."""
        options = self.settings.options if finding.options is None else finding.options
        return name_rule(finding, self.games, self.settings.game, options)

    def found(self, finding: Finding) -> None:
        """Record a game's hard finding, to be shrunk and given its files (``finish``)."""
        finding = attrs.evolve(finding, case=finding.case or self._case)
        finding = attrs.evolve(finding, case_id=self.unique_id(finding))
        self.add(finding)
        self.pending.append(len(self.report.findings) - 1)

    def unique_id(self, finding: Finding) -> str:
        """The finding's scenario id, unique in the run (a number added on a repeat)."""
        base = case_id(self.settings.game, finding)
        found, n = base, 1
        while found in self.case_ids:
            n += 1
            found = f"{base}-{n}"
        self.case_ids.add(found)
        return found

    def begin(self, part: str, name: str) -> None:
        """Start a test case: findings from now on belong to it."""
        self._case = name
        self.report.cases.append((part, name))

    def setup_for(self, k: int) -> tuple[tuple[str, ...], dict[str, Any]]:
        """The players and the game options of game ``k`` (a play-out or an engine game):
        the option settings take turns (one unless ``--option-matrix``), and the player
        counts asked for, those the setting takes (else the setting's own counts)."""
        options = self.matrix[k % len(self.matrix)]
        low, high = players_range(self.settings.game, options)
        counts = [n for n in self.settings.players if low <= n <= high]
        counts = counts or list(range(low, high + 1))
        turn = k // len(self.matrix)  # each setting takes the player counts in turn
        if options not in self.report.option_settings:
            self.report.option_settings.append(options)
        return PLAYER_NAMES[: counts[turn % len(counts)]], options

    def case_name(self, part: str, k: int, start: Start) -> str:
        """A game's test case name: part, number, players, seed and options set."""
        name = f"{part}-{k}-{len(start.players)}p"
        if start.seed is not None:
            name += f"-seed{start.seed}"
        for key, value in sorted(start.options.items()):
            if key != "profile" and self.settings.options.get(key) != value:
                name += f"-{key}={_shown(value)}"
        return name

    # --- part 1 and 2: differential play-outs with probes ---------------------------------

    def playout_start(self, k: int) -> Start:
        """Where play-out ``k`` begins: the setup of its players and options, its seed."""
        players, options = self.setup_for(k)
        return Start(players, options, game_no=k, seed=self.settings.seed + k)

    def playout_chooser(self, start: Start) -> Chooser:
        """How play-out ``start`` chooses its events: seeded random choices, as ``play``."""
        rng = random.Random(start.seed)

        def chooser(ref: LocalEngine, _: int) -> int:
            return ref.choice(rng)

        return chooser

    def playout_game(self, k: int) -> None:
        start = self.playout_start(k)
        self.report.counts.games += 1
        self.begin("playout", self.case_name("playout", k, start))
        finding = self.play(start, self.playout_chooser(start), self.probe_rng(start))
        if finding is not None:
            self.found(finding)

    def probe_rng(self, start: Start) -> random.Random | None:
        """The generator of a play-out's probes (None without the part ``probes``)."""
        if "probes" not in self.settings.parts:
            return None
        return random.Random((start.seed or 0) + 1_000_003)

    def play_from(self, start: Start, name: str, chooser: Chooser, prober: Prober) -> None:
        """A play-out that reaches on purpose (oracle.reach): from ``start``, test case
        ``name``, choosing with ``chooser``, probing with ``prober``. Its finding is shrunk
        and written as any play-out's, unless the run has one of the same signature
        already: these play-outs are there to find what the others did not."""
        self.report.counts.games += 1
        self.begin("playout", name)
        finding = self.play(start, chooser, self.probe_rng(start), prober=prober)
        if finding is not None and not any(finding.same_kind(f) for f in self.report.findings):
            self.found(finding)

    def finish_findings(self) -> None:
        """Shrink the findings still pending and make their files: the first of each
        signature first, all within the run's one shrink budget."""
        pending, self.pending = self.pending, []
        if not pending:
            return
        counts = self.report.counts
        before = attrs.evolve(counts)
        started = time.monotonic()
        order = shrink_order([self.report.findings[i] for i in pending])
        self.replaying = True
        try:
            for n, j in enumerate(order):
                i = pending[j]
                finding = self.report.findings[i]
                seconds = self.budget.share(len(order) - n)
                began = time.monotonic()
                smaller = (
                    shrink(self, finding, self.budget, seconds) if self.settings.shrink else finding
                )
                self.budget.spend(time.monotonic() - began)
                if smaller is not finding:  # named afresh from its own (shrunk) case
                    smaller = self.named(_unnamed(attrs.evolve(smaller, case=finding.case)))
                self.report.findings[i] = _with_files(self, finding, smaller)
        finally:
            self.replaying = False
            before.shrink_runs = counts.shrink_runs
            self.report.counts = before  # the replays are not part of the run's own counts
            self.report.shrink_seconds += time.monotonic() - started

    def play(
        self,
        start: Start,
        chooser: Chooser,
        probe_rng: random.Random | None = None,
        final_probe: dict[str, Any] | None = None,
        prober: Prober | None = None,
    ) -> Finding | None:
        """One game on both engines from ``start``: its values set, its steps played (one
        ours refuses is sent as a probe and ends them), then the chooser's events; the first
        hard finding, or None. Soft findings are added as found. ``chooser`` picks each event
        (None stops the game); with ``probe_rng`` events ours refuses are sent along the way
        (``prober`` says which, where: by default a few fuzzed ones at a share
        ``PROBE_CHANCE`` of the positions); with ``final_probe`` (shrinking a probe finding)
        that event is sent at the end."""
        ref = LocalEngine(games=self.games)
        ref.new_game(self.settings.game, start.players, start.options)
        if start.given is not None:
            ref.set_state(start.given)  # whoever made the start checked our engine takes it
        game = _Game(self, ref, start)
        probes = prober or random_probes
        try:
            if not self.ensure_running():
                return None
            game.start()
            game.play_steps(start.steps)
            pool = new_pool()
            while True:
                _, over = ref.to_act()
                if over:
                    break
                if probe_rng is not None:
                    ref.remember_fields(pool)
                    for event in probes(ref, pool, probe_rng):
                        game.send_probe(event)
                choice = chooser(ref, len(game.events))
                if choice is None:
                    break
                game.step(choice)
            if final_probe is not None:
                game.send_probe(final_probe)
            elif ref.to_act()[1]:
                game.finish(probe_rng is not None)
        except _Stop as stop:
            return stop.finding
        except (EngineFault, EngineError) as exc:
            return self._fault_finding("playout", exc, game)
        finally:
            self.process.settle()  # the answers a stopped game sent for and did not read
        return None

    def _fault_finding(self, part: str, exc: Exception, game: _Game | None) -> Finding:
        stderr = tuple(self.process.stderr_tail)
        events = tuple(game.events) if game is not None else ()
        common: dict[str, Any] = {
            "event_index": len(events) if game is not None else None,
            "events": events,
            "choices": game.tried() if game is not None else (),
            "players": game.players if game is not None else (),
            "stderr": stderr,
        }
        if game is not None:
            common.update(game.where())
            if game.pending_event is not None:
                common["probe"] = game.pending_event
        if isinstance(exc, EngineFault):
            return Finding(part, exc.kind, exc.message, request=exc.request, **common)
        message = f"the engine answered an error: {exc}"
        return Finding(part, "error", message, request=self.process.last_request, **common)

    # --- part 3: scenarios ------------------------------------------------------------

    def scenario_files(self) -> list[Path]:
        folder = self.settings.scenarios_dir or BUNDLED_SCENARIOS / self.settings.game
        files = []
        for path in scenario_files([folder]) if folder.exists() else []:
            try:
                if load_scenario(path).scenario.game == self.settings.game:
                    files.append(path)
            except BadScenario:
                continue
        return files

    def run_scenarios(self) -> None:
        for path in self.scenario_files():
            if not self.ensure_running():
                return
            self.scenario_case(path)

    def scenario_case(self, path: Path) -> None:
        """Run one scenario file on the engine under test; a failure is a finding."""
        counts = self.report.counts
        self.begin("scenarios", path.stem)
        try:
            result = run_scenario(
                path, self.games, driver=self.remote, strict_rules=self.settings.strict_rules
            )
        except (EngineFault, EngineError) as exc:
            finding = self._fault_finding("scenarios", exc, None)
            self.add(attrs.evolve(finding, scenario_id=path.stem))
            counts.scenarios_failed += 1
            return
        if result.status == "skipped":
            counts.scenarios_skipped += 1
            return
        self.coverage.scenario(path)
        for note in result.notes:
            self.add(Finding("scenarios", "rule_id", note, scenario_id=result.id, soft=True))
        if result.status == "pass":
            counts.scenarios_passed += 1
            return
        counts.scenarios_failed += 1
        self.add(
            Finding(
                "scenarios",
                "scenario" if result.status == "fail" else f"scenario_{result.status}",
                result.reason,
                scenario_id=result.id,
                rule=result.rules[0] if result.rules else None,
            )
        )

    # --- part 4: engine-driven games ----------------------------------------------------

    def engine_start(self, k: int) -> Start:
        """Where engine game ``k`` begins: the setup of its players and options."""
        players, options = self.setup_for(k)
        return Start(players, options, game_no=k)

    def engine_game(self, k: int) -> None:
        start = self.engine_start(k)
        players, options = start.players, start.options
        ref = LocalEngine(games=self.games)
        ref.new_game(self.settings.game, players, options)
        game = _Game(self, ref, start, part="engine")
        self.report.counts.engine_games += 1
        self.begin("engine", self.case_name("engine", k, start))
        try:
            game.start()
            while not ref.to_act()[1]:
                if len(game.events) >= MAX_ENGINE_EVENTS:
                    game.stop("no_end", f"no end after {MAX_ENGINE_EVENTS} events")
                game.engine_step()
            game.finish(False)
        except _Stop as stop:
            self.found(stop.finding)
        except (EngineFault, EngineError) as exc:
            self.found(self._fault_finding("engine", exc, game))
        finally:
            self.process.settle()


class _Game:
    """One game played on both engines at once: steps, checks, probes."""

    def __init__(self, run: Conformance, ref: LocalEngine, start: Start, part: str = "playout"):
        self.run = run
        self.ref = ref
        self.remote = run.remote
        self.start_at = start
        self.players = start.players
        self.part = part
        self.events: list[dict[str, Any]] = []
        self.choices: list[int] = []
        self.pending: int | None = None
        """The choice being sent: a fault while the engine applies it is replayed with it."""
        self.pending_event: dict[str, Any] | None = None
        """The event being sent (the one a fault happened on)."""
        self.counts = run.report.counts

    def tried(self) -> tuple[int, ...]:
        """The choices played, and the one being sent if the engine has not answered it."""
        pending = () if self.pending is None else (self.pending,)
        return (*self.choices, *pending)

    def where(self) -> dict[str, Any]:
        """What every finding of this game says of where it began."""
        start = self.start_at
        return {
            "game_no": start.game_no,
            "seed": start.seed,
            "options": start.options,
            "given": start.given,
        }

    def stop(self, kind: str, message: str, part: str | None = None, **more: Any) -> NoReturn:
        """End the game with a hard finding."""
        finding = Finding(
            part or self.part,
            kind,
            message,
            players=self.players,
            event_index=len(self.events),
            events=tuple(self.events),
            choices=self.tried(),
            request=self.run.process.last_request,
            stderr=tuple(self.run.process.stderr_tail),
            **self.where(),
            **more,
        )
        raise _Stop(finding)  # its rule is named as it is added (oracle.provenance)

    def start(self) -> None:
        start = self.start_at
        self.remote.new_game(self.run.settings.game, self.players, start.options)
        if start.given is not None:
            self.remote.set_state(start.given)
        coverage = self.run.counting
        if coverage is not None:
            coverage.setup(self.ref, self.players, self.part)
        self.compare()

    def play_steps(self, steps: tuple[dict[str, Any], ...]) -> None:
        """A start's steps, in order, until the game ends; one ours refuses is sent as a
        probe instead, and ends the steps (a scenario's illegal step)."""
        for event in steps:
            if self.ref.to_act()[1]:
                return
            if self.ref.probe(event) is not None:
                self.send_probe(event)
                return
            self.step(index_in_legal(self.ref, event))

    def apply_ours(self, event: dict[str, Any]) -> Refusal | None:
        """Ours applies ``event``: the refusal, or None (counted by the rule coverage)."""
        coverage = self.run.counting
        if coverage is None:
            return self.ref.apply(event)
        return coverage.apply(self.ref, event, self.part)

    def step(self, choice: int) -> None:
        """Send our ``choice`` (an index into our legal list) to both engines.

        Ours applies it first, so the questions about the position after it (to_act, every
        leaf path, the legal events) go to the engine with the event, in one batch; the
        answers are read in order, and a refusal of the event stops the game before any
        answer about the position after it is looked at."""
        legal = self.ref.legal()
        index = choice % len(legal)
        event = legal[index]
        if self.apply_ours(event) is not None:
            raise RuntimeError("our engine refused its own legal event")
        self.pending, self.pending_event = index, event
        self.remote.ask_apply(event)
        self.ask()
        refused = self.remote.answer_apply()
        if refused is not None:
            message = f"the engine refused a legal event: {refused.rule_named}: {refused.message}"
            self.stop("refused_legal", message, probe=event, their_rule=refused.rule)
        self.pending, self.pending_event = None, None
        self.events.append(event)
        self.choices.append(index)
        self.counts.events += 1
        self.check()

    def engine_step(self) -> None:
        """Ask the engine for its own next event and validate it against ours."""
        event = self.remote.next()
        try:
            refused = self.apply_ours(event)
        except EngineError as exc:
            self.stop("bad_event", f"the engine played a malformed event: {exc}", probe=event)
        if refused is not None:
            message = f"the engine played an illegal event: {refused.rule}: {refused.message}"
            self.stop(
                "accepted_illegal",
                message,
                probe=event,
                rule=refused.rule,
                citation=refused.citation,
            )
        self.events.append(event)
        self.counts.engine_events += 1
        self.compare()

    def compare(self) -> None:
        """Compare the engine's position with ours: to_act, every leaf path, the legal set."""
        self.ask()
        self.check()

    def ask(self) -> None:
        """Send the questions ``check`` compares (to_act; with ``state`` every leaf path of
        our position; with ``legal``, unless our game is over, the legal events) without
        waiting for their answers."""
        ref, remote = self.ref, self.remote
        caps = remote.capabilities
        remote.ask_to_act()
        if "state" in caps:
            remote.ask_state(list(ref.leaves()))
        with_legal = "legal" in caps and not ref.to_act()[1]
        if with_legal:
            remote.ask_legal()
        self.run.process.push()
        if with_legal:
            ref.legal_json()  # made while the engine answers (it is kept per position)

    def check(self) -> None:
        """Read the answers to ``ask``'s questions, in order, and compare each with ours."""
        ref, remote = self.ref, self.remote
        self.counts.positions += 1
        ours, theirs = ref.to_act(), remote.answer_to_act()
        if ours[1] and not theirs[1]:
            self.stop("no_end", "our game is over; the engine says it goes on", ours=ours[1])
        if ours != theirs and not (ours[1] and theirs[1]):
            message = f"to_act: ours {_actor(ours)}, the engine's {_actor(theirs)}"
            self.stop("to_act", message, ours=_actor(ours), theirs=_actor(theirs))
        caps = remote.capabilities
        if "state" in caps:
            self.compare_state()
        if "legal" in caps and not ours[1]:
            self.compare_legal()

    def compare_state(self) -> None:
        values = self.ref.leaves()
        line = _OK_VALUES + self.ref.leaves_json().encode() + b"}\n"
        answered = self.remote.answer_state_or_same(line)
        if answered is None:  # the engine wrote our answer byte for byte: every value ours
            self.counts.paths_compared += len(values)
            return
        self.counts.paths_compared += len(answered)
        self.counts.paths_unanswered += len(values) - len(answered)
        if _same_json(values, answered, self.ref.leaves_json()):
            return  # the common case, compared at C speed
        for path, value in values.items():
            if path not in answered:
                continue
            theirs = answered[path]
            if type(value) is type(theirs) and type(value) in _SCALARS and value == theirs:
                continue  # the common case, without the deep comparison
            if not json_equal(value, theirs):
                message = f"{path}: ours {value!r}, the engine's {theirs!r}"
                self.stop("state", message, path=path, ours=value, theirs=theirs)

    def compare_legal(self) -> None:
        self.counts.legal_sets += 1
        line = _OK_EVENTS + self.ref.legal_json().encode() + b"}\n"
        answered = self.remote.answer_legal_or_same(line)
        if answered is None:  # our list, byte for byte: the same set
            return
        listed_ours, listed_theirs = self.ref.legal(), answered
        if listed_ours == listed_theirs and self.ref.legal_json() == json.dumps(listed_theirs):
            return  # the same list in the same order: the same set, compared at C speed
        ours = {canonical(e): e for e in listed_ours}
        theirs = {canonical(e): e for e in listed_theirs}
        if ours.keys() != theirs.keys():
            missing = [ours[k] for k in ours.keys() - theirs.keys()]
            extra = [theirs[k] for k in theirs.keys() - ours.keys()]
            message = f"legal events differ: {len(missing)} missing, {len(extra)} extra"
            if missing:
                message += f"; e.g. missing {missing[0]}"
            if extra:
                message += f"; e.g. extra {extra[0]}"
            self.stop("legal", message, ours=missing, theirs=extra)

    def send_probe(self, event: dict[str, Any]) -> None:
        ours = self.ref.probe(event)
        if ours is None:
            return  # not refused by us here: no probe
        self.counts.probes += 1
        coverage = self.run.counting
        if coverage is not None:
            coverage.refused(ours.rule, "probes")
        self.pending_event = event
        try:
            theirs = self.remote.apply(event)
        except EngineError:
            theirs = Refusal(None, "refused with an error")  # a refusal all the same
        self.pending_event = None
        if theirs is None:
            message = f"the engine accepted an event ours refuses: {ours.rule}: {ours.message}"
            self.stop(
                "accepted_illegal",
                message,
                part="probes",
                probe=event,
                rule=ours.rule,
                citation=ours.citation,
            )
        if theirs.rule is not None and theirs.rule != ours.rule and not self.run.replaying:
            self.soft_rule(event, ours, theirs)
        try:
            self.compare()
        except _Stop as stop:
            changed = attrs.evolve(
                stop.finding,
                part="probes",
                kind="changed_by_refusal",
                message=f"after a refused event: {stop.finding.message}",
                probe=event,
                rule=ours.rule,
            )
            raise _Stop(changed) from None

    def soft_rule(self, event: dict[str, Any], ours: Refusal, theirs: Refusal) -> None:
        key = (ours.rule, theirs.rule)
        if key in self.run.soft_seen:
            return
        self.run.soft_seen.add(key)
        message = f"refused as {theirs.rule}; ours refuses it as {ours.rule}"
        self.run.add(
            Finding(
                "probes",
                "rule_id",
                message,
                **self.where(),
                players=self.players,
                event_index=len(self.events),
                events=tuple(self.events),
                probe=event,
                rule=ours.rule,
                their_rule=theirs.rule,
                citation=ours.citation,
                soft=True,
            )
        )

    def finish(self, probe_after_end: bool) -> None:
        """At the end: the result, and (probing) one more event must be refused."""
        ours = self.ref.result()
        scores, winners = self.remote.result()
        coverage = self.run.counting
        if coverage is not None:
            coverage.result(self.ref, self.part)
        if not json_equal(list(ours), [scores, winners]):
            message = f"result: ours {ours[0]} {ours[1]}, the engine's {scores} {winners}"
            self.stop("result", message, ours=list(ours), theirs=[scores, winners])
        if probe_after_end and self.events:
            self.send_probe(self.events[-1])


_OK_VALUES = b'{"ok": true, "values": '
_OK_EVENTS = b'{"ok": true, "events": '
"""How ``serve`` begins its answers to ``state`` and ``legal`` (json.dumps of the response):
an engine that writes our answer in these very bytes needs no decoding and no comparison."""


def _unnamed(finding: Finding) -> Finding:
    """The finding without what provenance named: the rule ours refused an event by (part
    of what shows) stays."""
    rule = finding.rule if finding.kind in REFUSED_KINDS else None
    return attrs.evolve(finding, rule=rule, rule_reason=None)


def random_probes(ref: LocalEngine, pool: Pool, rng: random.Random) -> list[dict[str, Any]]:
    """A play-out's probes here: at a share ``PROBE_CHANCE`` of positions, a few fuzzed
    events ours refuses (oracle.probes)."""
    if rng.random() >= PROBE_CHANCE:
        return []
    return ref.refused_probes(pool, rng, PROBE_CANDIDATES)[:PROBES_PER_POSITION]


def _same_json(ours: dict[str, Any], answered: dict[str, Any], written: str | None = None) -> bool:
    """Whether every answered value is exactly ours: equal, and written the same in JSON
    (so ``true`` is never taken for ``1``). ``written`` is ``json.dumps(ours)`` if the caller
    keeps it. False sends the caller to the path-by-path comparison, which finds the first
    difference."""
    if len(answered) != len(ours) or ours != answered:
        return False
    if written is None:
        written = json.dumps(ours)
    return json.dumps({path: answered[path] for path in ours}) == written


def _shown(value: Any) -> str:
    """An option value in a case name: ``true``, ``advanced``."""
    return json.dumps(value) if not isinstance(value, str) else value


def _actor(to_act: tuple[str, bool]) -> str:
    return "game over" if to_act[1] else to_act[0]


def _with_files(run: Conformance, found: Finding, shrunk: Finding) -> Finding:
    """The shrunk finding with its ready-to-commit log and scenario file. The log is a game
    from the setup: the one found, unless the shrink found a shorter game (by prefix)."""
    game = shrunk if shrunk.given is None else found
    return attrs.evolve(
        shrunk,
        log=log_text(run.settings, game) if game.given is None else None,
        scenario=scenario_text(run.settings, shrunk, shrunk.case_id),
    )
