"""``conform --part chance``: the engine under test draws every chance outcome of seeded
play-outs with its own ``next``, and its draws are tested as ``rules-oracle fairness`` tests
a corpus (oracle.fairness; docs/fairness.md).

Players' events are chosen by a seeded generator from our legal events and sent to both
engines (in a batch, up to the next chance node); where chance acts, the engine's ``next``
draws and applies an outcome, which must be one our engine lists there, and is counted
against the distribution ours gives. Play-outs go on, game after game, until
``settings.chance_draws`` draws are counted (or GAMES_AT_MOST games were played). A biased
group is a finding of the part; each group is a test case of the report.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

import attrs

from oracle.chance import NotAnOutcome, Tally, wire_draw
from oracle.fairness import FairnessResult, GroupResult, judge
from oracle.fairness_report import group_line, outcome_lines
from oracle.findings import Finding, Report, Settings
from oracle.games import GameCache
from oracle.protocol import EngineError, EngineFault, EngineProcess, RemoteEngine
from oracle.refengine import LocalEngine
from oracle.reproduce import log_text, scenario_text
from oracle.starts import Start
from reference.core.game import CHANCE

GAMES_AT_MOST = 10_000
"""Play-outs a chance run stops after, however few draws it counted (a game whose chance
nodes all have one outcome)."""
MAX_EVENTS = 100_000


class ConformRun(Protocol):
    """What the part needs of a conform run (oracle.conform.Conformance)."""

    settings: Settings
    games: GameCache
    process: EngineProcess
    remote: RemoteEngine
    report: Report

    def add(self, finding: Finding) -> None: ...

    def begin(self, part: str, name: str) -> None: ...

    def ensure_running(self) -> bool: ...

    def setup_for(self, k: int) -> tuple[tuple[str, ...], dict[str, Any]]: ...


class _Stop(Exception):
    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.kind)
        self.finding = finding


def chance_part(run: ConformRun) -> FairnessResult | None:
    """Run the part on an engine with ``next``; the result of the tests (None when no
    draw could be counted)."""
    s = run.settings
    if "next" not in run.remote.capabilities:
        message = "the engine does not list the next capability: the chance part needs it"
        run.add(Finding("chance", "no_next", message))
        return None
    tally = Tally(s.seed)
    run.begin("chance", "chance play-outs")
    k = 0
    while tally.draws < s.chance_draws and k < GAMES_AT_MOST:
        if not run.ensure_running():
            break
        _game(run, tally, k)
        k += 1
    if not tally.groups:
        return None
    result = judge(tally)
    for group in result.groups:
        run.begin("chance", group_line(group))
        if group.verdict == "biased":
            run.add(_biased(group))
    return result


def _biased(group: GroupResult) -> Finding:
    furthest = "; ".join(line.strip() for line in outcome_lines(group))
    return Finding(
        "chance",
        "biased",
        f"{group_line(group)}; furthest from expectation: {furthest}",
        ours=[{"label": o.label, "expected": o.expected} for o in group.furthest()],
        theirs=[{"label": o.label, "observed": o.observed} for o in group.furthest()],
    )


def _game(run: ConformRun, tally: Tally, k: int) -> None:
    s = run.settings
    (players, options), seed = run.setup_for(k), s.seed + k  # the option matrix's, if any
    rng = random.Random(seed)
    ref = LocalEngine(games=run.games)
    ref.new_game(s.game, players, options)
    game = Start(players, options, game_no=k, seed=seed)
    events: list[dict[str, Any]] = []
    run.report.counts.games += 1
    tally.start(f"chance-{k}")
    sent = 0
    try:
        run.remote.new_game(s.game, players, options)
        while not ref.position.is_over and len(events) < MAX_EVENTS:
            position = ref.position
            if position.to_act != CHANCE:
                event = ref.legal()[ref.choice(rng)]
                ref.apply(event)
                run.remote.ask_apply(event)
                events.append(event)
                sent += 1
                continue
            _answers(run, events, sent, game)
            sent = 0
            outcomes = position.chance_outcomes()
            drawn = run.remote.next()
            refused = _refusal(ref, drawn)
            if refused is not None:
                raise _Stop(_finding(run, "illegal_draw", refused, events, game, drawn))
            events.append(drawn)
            try:
                tally.add(wire_draw(s.game, outcomes, drawn))
            except (NotAnOutcome, KeyError) as exc:  # ours allowed it but does not list it
                raise RuntimeError(f"a legal chance event ours does not list: {drawn}") from exc
        _answers(run, events, sent, game)
    except _Stop as stop:
        run.add(stop.finding)
    except (EngineFault, EngineError) as exc:
        kind = exc.kind if isinstance(exc, EngineFault) else "error"
        message = exc.message if isinstance(exc, EngineFault) else f"the engine answered: {exc}"
        run.add(_finding(run, kind, message, events, game))
    finally:
        run.process.settle()
    run.report.counts.events += len(events)


def _refusal(ref: LocalEngine, drawn: dict[str, Any]) -> str | None:
    """Why our engine does not take the engine's draw here, or None (it is applied)."""
    try:
        refused = ref.apply(drawn)
    except EngineError as exc:
        return f"the engine drew a malformed event: {exc}"
    if refused is not None:
        return f"the engine drew an outcome ours does not allow: {refused.rule}: {refused.message}"
    return None


def _answers(run: ConformRun, events: list[dict[str, Any]], sent: int, game: Start) -> None:
    """Read the answers to the events sent since the last chance node."""
    if not sent:
        return
    run.process.push()
    first = len(events) - sent
    for i in range(sent):
        refused = run.remote.answer_apply()
        if refused is not None:
            message = f"the engine refused a legal event: {refused.rule}: {refused.message}"
            prefix = events[: first + i]
            raise _Stop(_finding(run, "refused_legal", message, prefix, game, events[first + i]))


def _finding(
    run: ConformRun,
    kind: str,
    message: str,
    events: list[dict[str, Any]],
    game: Start,
    probe: dict[str, Any] | None = None,
) -> Finding:
    finding = Finding(
        "chance",
        kind,
        message,
        players=game.players,
        seed=game.seed,
        options=game.options,
        event_index=len(events),
        events=tuple(events),
        probe=probe,
        request=run.process.last_request,
        stderr=tuple(run.process.stderr_tail),
    )
    return _with_files(run.settings, finding)


def _with_files(settings: Settings, finding: Finding) -> Finding:
    return attrs.evolve(
        finding, log=log_text(settings, finding), scenario=scenario_text(settings, finding)
    )
