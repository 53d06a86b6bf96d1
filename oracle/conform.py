"""``rules-oracle conform``: drive an engine under test, compare it with ours step by step.

Four parts (docs/conformance.md):
  playout   seeded random games from our engine, every event sent to the engine under test,
            its position compared after each (to_act; with ``state`` every leaf state path;
            with ``legal`` the legal set), and the result at the end;
  probes    at positions along those games, events our engine refuses must be refused too,
            and the engine's position must be unchanged afterwards;
  scenarios every scenario file the engine can run (oracle.scenarios, one runner);
  engine    with ``next``, the engine plays its own games, each event validated live.

The first hard disagreement ends a game; it is then shrunk (oracle.shrink) to a minimal prefix.
A fault of the engine under test is a finding; the engine is restarted for the next game.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any, NoReturn

import attrs

from oracle.coverage import Coverage
from oracle.findings import Finding, Report, Settings
from oracle.formats.converter import json_equal
from oracle.formats.scenario import BUNDLED_SCENARIOS, BadScenario, load_scenario, scenario_files
from oracle.games import GameCache
from oracle.play import PLAYER_NAMES
from oracle.probes import Pool, new_pool
from oracle.protocol import EngineError, EngineFault, EngineProcess, Refusal, RemoteEngine
from oracle.provenance import Position, name_rule
from oracle.reach import PROBE_CHANCE as START_PROBE_CHANCE
from oracle.reach import Favouring, Reach, start_scenario_text
from oracle.refengine import LocalEngine
from oracle.reproduce import log_text, scenario_text
from oracle.scenarios import canonical, run_scenario
from oracle.shrink import Chooser, shrink_finding
from oracle.starts import Start, index_in_legal, start_choices

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
        self.coverage = Coverage(settings, self.games)  # rule coverage (oracle/coverage.py)
        self.reach = Reach(settings, self.games, self.coverage)  # oracle/reach.py

    # --- the session -------------------------------------------------------------------

    def run(self) -> Report:
        """Run every part asked for; the report (never raises for the engine's faults)."""
        started = time.monotonic()
        try:
            if self.connect():
                self.run_parts()
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
        self.reach.run(self)  # play-outs from rare ends and scenario positions
        if "engine" in s.parts and "next" in self.remote.capabilities:
            for k in range(s.games):
                if self.ensure_running():
                    self.engine_game(k)
        if "perft" in s.parts and self.ensure_running():
            from oracle.conform_perft import run_perft

            run_perft(self)

    def add(self, finding: Finding) -> None:
        """Record a finding under the current case, naming its rule (oracle.provenance)."""
        finding = name_rule(finding, self.games, self.settings.game, self.settings.options)
        self.report.findings.append(attrs.evolve(finding, case=finding.case or self._case))

    def begin(self, part: str, name: str) -> None:
        """Start a test case: findings from now on belong to it."""
        self._case = name
        self.report.cases.append((part, name))

    def players_for(self, k: int) -> tuple[str, ...]:
        counts = self.settings.players
        return PLAYER_NAMES[: counts[k % len(counts)]]

    # --- part 1 and 2: differential play-outs with probes ---------------------------------

    def playout_game(self, k: int) -> None:
        s = self.settings
        players, seed = self.players_for(k), s.seed + k
        rng = random.Random(seed)
        probe_rng = random.Random(seed + 1_000_003)

        def chooser(ref: LocalEngine, _: int) -> int:
            return ref.choice(rng)

        self.report.counts.games += 1
        self.begin("playout", f"playout-{k}-{len(players)}p-seed{seed}")
        with_probes = "probes" in s.parts
        finding = self.play(players, chooser, probe_rng if with_probes else None, k, seed)
        if finding is None:
            return
        finding = attrs.evolve(finding, game_no=k, seed=seed)
        if s.shrink and finding.part in ("playout", "probes"):
            with self.coverage.paused():  # the replays exercise nothing new
                finding = shrink_finding(self, finding)
        self.add(_with_files(self, finding))

    def play(
        self,
        players: tuple[str, ...],
        chooser: Chooser,
        probe_rng: random.Random | None,
        game_no: int | None,
        seed: int | None,
        final_probe: dict[str, Any] | None = None,
    ) -> Finding | None:
        """One play-out: the first hard finding, or None. Soft findings are added as found.
        With ``final_probe`` (shrinking a probe finding) that event is sent at the end."""
        ref = LocalEngine(games=self.games)
        ref.new_game(self.settings.game, players, self.settings.options)
        game = _Game(self, ref, players, game_no, seed)
        try:
            if not self.ensure_running():
                return None
            game.start()
            pool = new_pool()
            while True:
                _, over = ref.to_act()
                if over:
                    break
                if probe_rng is not None:
                    ref.remember_fields(pool)
                    if probe_rng.random() < PROBE_CHANCE:
                        game.probe_here(pool, probe_rng)
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

    def engine_game(self, k: int) -> None:
        players = self.players_for(k)
        ref = LocalEngine(games=self.games)
        ref.new_game(self.settings.game, players, self.settings.options)
        game = _Game(self, ref, players, k, None, part="engine")
        self.report.counts.engine_games += 1
        self.begin("engine", f"engine-{k}-{len(players)}p")
        try:
            game.start()
            while not ref.to_act()[1]:
                if len(game.events) >= MAX_ENGINE_EVENTS:
                    game.stop("no_end", f"no end after {MAX_ENGINE_EVENTS} events")
                game.engine_step()
            game.finish(False)
        except _Stop as stop:
            self.add(_with_files(self, attrs.evolve(stop.finding, game_no=k)))
        except (EngineFault, EngineError) as exc:
            finding = self._fault_finding("engine", exc, game)
            self.add(_with_files(self, attrs.evolve(finding, game_no=k)))
        finally:
            self.process.settle()

    # --- deliberate play-outs from other positions (oracle/reach.py chooses them) ---------

    @property
    def capabilities(self) -> frozenset[str]:
        """The engine's capabilities, as its hello said."""
        return frozenset(self.remote.capabilities)

    def play_start(self, start: Start, chooser: Favouring, name: str, seed: int) -> bool:
        """One play-out from ``start``: the setup under its options, its events, its values
        set on both engines, its steps (one ours refuses is sent as a probe), then
        ``chooser``'s events; a finding is added as found (not shrunk: the case is already
        short), with a scenario file that starts from the same position. False, and nothing
        sent, when our engine cannot take the start or the engine under test refuses its
        options."""
        choices = start_choices(self.games, self.settings.game, start)
        if choices is None or not self.ensure_running():
            return False
        ref = LocalEngine(games=self.games)
        ref.new_game(self.settings.game, start.players, start.options)
        try:
            self.remote.new_game(self.settings.game, start.players, start.options)
        except EngineError:
            self.process.settle()
            return False
        except EngineFault as exc:
            self.add(self._fault_finding("playout", exc, None))
            return True
        self.begin("playout", name)  # not counted in ``games``: coverage counts these
        game = _Game(self, ref, start.players, None, seed)
        self.coverage.setup(ref, start.players, "playout")
        with_probes = "probes" in self.settings.parts
        probe_rng = random.Random(seed + 1_000_003)
        position: Position | None = None
        try:
            game.compare()
            for index in choices:
                game.step(index)
            if start.state:
                ref.set_state(start.state)
                position = Position(ref.internals()[1], len(game.events))
                self.remote.set_state(start.state)
                game.compare()
            for event in start.steps:
                if ref.probe(event) is not None:
                    game.send_probe(event)
                    break
                game.step(index_in_legal(ref, event))
            chooser.started = len(game.events)
            pool = new_pool()
            while not ref.to_act()[1]:
                if with_probes:
                    ref.remember_fields(pool)
                    if probe_rng.random() < START_PROBE_CHANCE:
                        for event in self.reach.probes_here(ref, pool, probe_rng):
                            game.send_probe(event)
                chosen = chooser(ref, len(game.events))
                if chosen is None:
                    break
                game.step(chosen)
            if ref.to_act()[1]:
                game.finish(with_probes)
        except _Stop as stop:
            self._add_from_start(start, stop.finding, seed, position)
        except (EngineFault, EngineError) as exc:
            finding = self._fault_finding("playout", exc, game)
            self._add_from_start(start, finding, seed, position)
        finally:
            self.process.settle()
        return True

    def _add_from_start(
        self, start: Start, finding: Finding, seed: int, position: Position | None
    ) -> None:
        """Add a finding of a play-out from ``start``, with its scenario file (no log: a log
        cannot set values by path), unless the run has one of the same kind (kind, path,
        rule) already: these play-outs are there to find what the others did not. Its rule
        is named from the start (its options, the ``position`` it set by path); one that
        names none (the position gave the value) is the same as any of its kind and path."""
        game = self.settings.game
        finding = name_rule(finding, self.games, game, start.options, position)
        if any(_seen(finding, f) for f in self.report.findings):
            return
        finding = attrs.evolve(finding, seed=seed, case=finding.case or self._case)
        self.add(attrs.evolve(finding, scenario=start_scenario_text(self.settings, start, finding)))


def _seen(finding: Finding, other: Finding) -> bool:
    """Whether ``other`` shows what ``finding`` (of a play-out from a start) shows: the same
    kind, path and rule, or the same kind and path when ``finding`` names no rule."""
    if finding.rule is None:
        return (finding.kind, finding.path) == (other.kind, other.path)
    return finding.same_kind(other)


class _Game:
    """One game played on both engines at once: steps, checks, probes."""

    def __init__(
        self,
        run: Conformance,
        ref: LocalEngine,
        players: tuple[str, ...],
        game_no: int | None,
        seed: int | None,
        part: str = "playout",
    ) -> None:
        self.run = run
        self.ref = ref
        self.remote = run.remote
        self.players = players
        self.game_no = game_no
        self.seed = seed
        self.part = part
        self.events: list[dict[str, Any]] = []
        self.choices: list[int] = []
        self.pending: int | None = None
        """The choice being sent: a fault while the engine applies it is replayed with it."""
        self.counts = run.report.counts

    def tried(self) -> tuple[int, ...]:
        """The choices played, and the one being sent if the engine has not answered it."""
        pending = () if self.pending is None else (self.pending,)
        return (*self.choices, *pending)

    def stop(self, kind: str, message: str, part: str | None = None, **more: Any) -> NoReturn:
        """End the game with a hard finding."""
        raise _Stop(
            Finding(
                part or self.part,
                kind,
                message,
                players=self.players,
                event_index=len(self.events),
                events=tuple(self.events),
                choices=self.tried(),
                request=self.run.process.last_request,
                stderr=tuple(self.run.process.stderr_tail),
                **more,
            )
        )

    def start(self) -> None:
        self.remote.new_game(self.run.settings.game, self.players, self.run.settings.options)
        self.run.coverage.setup(self.ref, self.players, self.part)
        self.compare()

    def step(self, choice: int) -> None:
        """Send our ``choice`` (an index into our legal list) to both engines.

        Ours applies it first, so the questions about the position after it (to_act, every
        leaf path, the legal events) go to the engine with the event, in one batch; the
        answers are read in order, and a refusal of the event stops the game before any
        answer about the position after it is looked at."""
        legal = self.ref.legal()
        index = choice % len(legal)
        event = legal[index]
        if self.run.coverage.apply(self.ref, event, self.part) is not None:
            raise RuntimeError("our engine refused its own legal event")
        self.pending = index
        self.remote.ask_apply(event)
        self.ask()
        refused = self.remote.answer_apply()
        if refused is not None:
            message = f"the engine refused a legal event: {refused.rule}: {refused.message}"
            self.stop("refused_legal", message, probe=event, their_rule=refused.rule)
        self.pending = None
        self.events.append(event)
        self.choices.append(index)
        self.counts.events += 1
        self.check()

    def engine_step(self) -> None:
        """Ask the engine for its own next event and validate it against ours."""
        event = self.remote.next()
        try:
            refused = self.run.coverage.apply(self.ref, event, self.part)
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

    def probe_here(self, pool: Pool, rng: random.Random) -> None:
        """Send a few events our engine refuses here; each must be refused, nothing changed."""
        for event in self.ref.refused_probes(pool, rng, PROBE_CANDIDATES)[:PROBES_PER_POSITION]:
            self.send_probe(event)

    def send_probe(self, event: dict[str, Any]) -> None:
        ours = self.ref.probe(event)
        if ours is None:
            return  # not refused by us here: no probe
        self.counts.probes += 1
        self.run.coverage.refused(ours.rule, "probes")
        try:
            theirs = self.remote.apply(event)
        except EngineError:
            theirs = Refusal(None, "refused with an error")  # a refusal all the same
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
        if theirs.rule is not None and theirs.rule != ours.rule:
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
                game_no=self.game_no,
                seed=self.seed,
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
        self.run.coverage.result(self.ref, self.part)
        if not json_equal(list(ours), [scores, winners]):
            message = f"result: ours {ours[0]} {ours[1]}, the engine's {scores} {winners}"
            self.stop("result", message, ours=list(ours), theirs=[scores, winners])
        if probe_after_end and self.events:
            self.send_probe(self.events[-1])


_OK_VALUES = b'{"ok": true, "values": '
_OK_EVENTS = b'{"ok": true, "events": '
"""How ``serve`` begins its answers to ``state`` and ``legal`` (json.dumps of the response):
an engine that writes our answer in these very bytes needs no decoding and no comparison."""


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


def _actor(to_act: tuple[str, bool]) -> str:
    return "game over" if to_act[1] else to_act[0]


def _with_files(run: Conformance, finding: Finding) -> Finding:
    """The finding with its ready-to-commit log and scenario file."""
    return attrs.evolve(
        finding,
        log=log_text(run.settings, finding),
        scenario=scenario_text(run.settings, finding),
    )
