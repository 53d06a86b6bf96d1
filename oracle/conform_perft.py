"""``conform --part perft``: the engine under test's perft counts against ours, and on a
difference the walk down to the one position and the one event that is extra or missing.

Positions: every position of the game's perft suite (perft/<game>.yaml, counts known), and a
few positions along each of the run's seeded play-outs (the same games as the ``playout``
part), each counted at the deepest depth whose count stays within a budget.

An engine with the ``perft`` capability counts itself: one request per position. When its
count differs from ours, the count under each first event (``divide``) is asked of both and
the first event under which they differ is played on both; again, one depth less, until the
legal events themselves differ: an event the engine counts that ours refuses (``perft_extra``,
with the rule ours refuses it by) or one ours counts that the engine does not
(``perft_missing``). Each finding carries a ready-to-commit scenario
(``expect.legal.excludes`` / ``includes`` at that position) and, for a position reached by
events alone, a log.

An engine without ``perft`` but with ``legal`` is walked: the same tree, its legal events
compared with ours at every node (to a smaller depth: the walk asks a few requests per node);
``set_state`` puts it back at a node (our position's every top-level value), else the node is
built again from the setup. The first node where the legal events differ is the finding, as
bisection would reach it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

import attrs
import yaml

from oracle.findings import Finding, Report, Settings
from oracle.formats.converter import structure_event
from oracle.formats.log import header_line
from oracle.games import GameCache
from oracle.perft import BadPosition, Spot, count, deepest_within, divide, same_event, spot_position
from oracle.perft_files import BadFile, load_suite, suite_path
from oracle.position import Position
from oracle.protocol import EngineError, EngineFault, EngineProcess, RemoteEngine
from oracle.refengine import LocalEngine
from oracle.rulebook import find_rule
from reference.core.errors import MalformedEvent
from reference.core.game import Game

SPOTS_PER_PLAYOUT = 3
"""Positions counted along each play-out: evenly spread, the last one just before the end."""
PERFT_BUDGET = 20_000
"""The most sequences a play-out position is counted to, with an engine that counts itself."""
WALK_BUDGET = 150
"""The most nodes walked per position (each a few requests), with an engine that cannot."""
MAX_DEPTH = 6
BATCH = 256
"""Events sent in one batch to build a position (their answers read after)."""
COUNTS_PER_SECOND = 50_000
"""A slow engine's pace: a perft request may take ``--timeout`` plus a second per this many
sequences (our own engine counts two to four times as fast)."""


class Run(Protocol):
    """What the perft part needs of a conform run (oracle.conform.Conformance)."""

    settings: Settings
    report: Report
    games: GameCache
    remote: RemoteEngine
    process: EngineProcess

    def add(self, finding: Finding) -> None: ...

    def begin(self, part: str, name: str) -> None: ...

    def ensure_running(self) -> bool: ...

    def setup_for(self, k: int) -> tuple[tuple[str, ...], dict[str, Any]]: ...


class _Found(Exception):
    """Ends one position's check at its finding."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.kind)
        self.finding = finding


def run_perft(run: Run) -> None:
    """The perft part of a conform run: the suite's positions, then the play-outs'."""
    caps = run.remote.capabilities
    check = _Check(run)
    if "perft" not in caps and "legal" not in caps:
        # nothing to count with: every position is skipped (the capabilities say why)
        skipped = sum(1 for _ in check.suite()) + SPOTS_PER_PLAYOUT * run.settings.games
        run.report.counts.perft_skipped += skipped
        return
    for name, spot, counts in check.suite():
        if run.ensure_running():
            check.position(name, spot, counts)
    for k in range(run.settings.games):
        for name, spot in check.playout_spots(k):
            if run.ensure_running():
                check.position(name, spot, None)


class _Check:
    def __init__(self, run: Run) -> None:
        self.run = run
        self.remote = run.remote
        self.settings = run.settings
        self.counts = run.report.counts
        self.case = "perft"
        self.root = 0
        """Events played to reach the position being checked (a finding lies below it)."""

    # --- the positions ---------------------------------------------------------------

    def suite(self) -> Iterator[tuple[str, Spot, dict[int, int] | None]]:
        """The bundled suite's positions, each with its counts (None when the run's options
        change the rules, so ours are counted afresh)."""
        path = suite_path(self.settings.game)
        if not path.exists():
            return
        try:
            suite = load_suite(path)
        except BadFile as exc:  # our own file: our bug
            raise RuntimeError(f"the bundled perft suite is broken: {exc}") from exc
        extra = self.settings.options
        for entry in suite.entries:
            spot = entry.spot(suite.game)
            if extra:
                spot = attrs.evolve(spot, options={**spot.options, **extra})
                if not self.builds(spot):
                    continue
            yield f"perft-{entry.id}", spot, None if extra else dict(entry.perft)

    def builds(self, spot: Spot) -> bool:
        """Whether a suite position is a position under the run's options and profile: its
        events were written for the rulebook's game, and other rules or data may refuse
        one (an unlimited favour supply refills where a citizen draw was due). One that
        does not is skipped, as a position the engine could not be set to is."""
        try:
            spot_position(spot, self.run.games)
        except BadPosition:
            self.counts.perft_skipped += 1
            return False
        return True

    def playout_spots(self, k: int) -> Iterator[tuple[str, Spot]]:
        """Positions along play-out ``k`` of the run (its seed, players and options, those of
        the option matrix when it is on: the same game as the playout part's): evenly
        spread, and the last one before the end."""
        s = self.settings
        players, options = self.run.setup_for(k)
        seed = s.seed + k
        rng = random.Random(seed)
        ref = LocalEngine(games=self.run.games)
        ref.new_game(s.game, players, options)
        events: list[dict[str, Any]] = []
        while not ref.to_act()[1]:
            event = ref.legal()[ref.choice(rng)]
            ref.apply(event)
            events.append(event)
        n = len(events)
        marks = sorted({n * i // SPOTS_PER_PLAYOUT for i in range(1, SPOTS_PER_PLAYOUT)} | {n - 1})
        for at in marks:
            if 0 <= at < n:
                spot = Spot(s.game, players, dict(options), tuple(events[:at]))
                yield f"perft-playout-{k}-{len(players)}p-seed{seed}-at{at}", spot

    # --- one position ----------------------------------------------------------------

    def position(self, name: str, spot: Spot, counts: dict[int, int] | None) -> None:
        """Compare the engine's counts with ours at ``spot``; a difference is a finding."""
        caps = self.remote.capabilities
        if spot.state and "set_state" not in caps:
            self.counts.perft_skipped += 1
            return
        self.run.begin("perft", name)
        self.case = name
        self.root = len(spot.path())
        try:
            ours = spot_position(spot, self.run.games)
        except BadPosition as exc:
            raise RuntimeError(f"{name}: our own position does not build: {exc}") from exc
        try:
            if "perft" in caps:
                depth, expected = self.depth_counted(ours, counts)
                self.build(spot)
                self.compare_counts(spot, ours, depth, expected)
            else:
                depth = self.depth_walked(ours, counts)
                self.build(spot)
                self.walk(spot, ours, depth)
        except _Found as found:
            self.run.add(found.finding)
        except (EngineFault, EngineError) as exc:
            self.run.add(self.fault(spot, exc))
        finally:
            self.run.process.settle()

    def depth_counted(self, ours: Position, counts: dict[int, int] | None) -> tuple[int, int]:
        """The depth to count at and our count there: the suite's deepest, or the deepest
        within the budget."""
        if counts:
            depth = max(counts)
            return depth, counts[depth]
        return deepest_within(ours, PERFT_BUDGET, MAX_DEPTH)

    def depth_walked(self, ours: Position, counts: dict[int, int] | None) -> int:
        """The deepest depth (at most the suite's) whose walk visits at most WALK_BUDGET
        nodes: the nodes above the last level, our count one depth less."""
        most = max(counts) if counts else MAX_DEPTH
        depth = 1
        while depth < most:
            above = counts[depth] if counts else count(ours, depth)
            if above > WALK_BUDGET or above == 0:
                break
            depth += 1
        return depth

    def build(self, spot: Spot) -> None:
        """Set the engine under test at ``spot``: a new game, the events (sent in batches),
        the given state, the events after it."""
        self.remote.new_game(spot.game, spot.players, spot.options)
        self.play(spot, spot.events, "events")
        if spot.state:
            self.remote.set_state(spot.state)
        self.play(spot, spot.after, "after")

    def play(self, spot: Spot, events: tuple[dict[str, Any], ...], where: str) -> None:
        for start in range(0, len(events), BATCH):
            batch = events[start : start + BATCH]
            for event in batch:
                self.remote.ask_apply(event)
            for i, event in enumerate(batch, start=start):
                refused = self.remote.answer_apply()
                if refused is not None:
                    message = (
                        f"the engine refused {where}[{i}] of the position, legal for ours: "
                        f"{refused.rule}: {refused.message}"
                    )
                    raise _Found(
                        self.finding(
                            spot, "refused_legal", message, probe=event, their_rule=refused.rule
                        )
                    )

    # --- an engine that counts --------------------------------------------------------

    def compare_counts(self, spot: Spot, ours: Position, depth: int, expected: int) -> None:
        theirs = self.ask_count(depth, expected)
        self.counts.perft_positions += 1
        self.counts.perft_sequences += expected
        if theirs == expected:
            return
        top = f"perft({depth}): ours {expected}, the engine's {theirs}"
        self.bisect(spot, ours, depth, top)

    def ask_count(self, depth: int, ours: int, with_divide: bool = False) -> Any:
        """The engine's count (and divide), with the time a slow engine needs for it."""
        process = self.run.process
        usual = process.timeout
        process.timeout = usual + ours / COUNTS_PER_SECOND
        try:
            counted, rows = self.remote.perft(depth, with_divide)
        finally:
            process.timeout = usual
        return (counted, rows) if with_divide else counted

    def bisect(self, spot: Spot, ours: Position, depth: int, top: str) -> None:
        """Walk down by divide from a position whose counts differ to the position where
        the legal events differ; raises _Found."""
        game = _game(ours)
        way: list[str] = []
        while True:
            our_rows = divide(ours, depth)
            their_count, their_rows = self.ask_count(depth, sum(n for _, n in our_rows), True)
            self.compare_sets(spot, ours, [e for e, _ in our_rows], [e for e, _ in their_rows], top)
            theirs = {same_event(game, e): n for e, n in their_rows}
            if len(theirs) != len(their_rows) or sum(theirs.values()) != their_count:
                message = (
                    f"{top}; at depth {depth} after {len(way)} more events the engine's divide "
                    f"does not add up to its count ({their_count}), or lists an event twice"
                )
                raise _Found(self.finding(spot, "perft_count", message))
            differing = [(e, n) for e, n in our_rows if theirs[same_event(game, e)] != n]
            if not differing or depth <= 1:
                wrong = (
                    f"counts {_short(differing[0][0])} as "
                    f"{theirs[same_event(game, differing[0][0])]} sequences of one event"
                    if differing
                    else "counts every first event as ours does, yet its total differs"
                )
                message = f"{top}; at depth {depth} after {len(way)} more events the engine {wrong}"
                raise _Found(self.finding(spot, "perft_count", message))
            event, n = differing[0]
            way.append(f"{_short(event)} ours {n}, the engine's {theirs[same_event(game, event)]}")
            self.apply_listed(spot, event, f"{top}; the engine lists {_short(event)} in its divide")
            spot, ours, depth = spot.then(event), ours.apply(event), depth - 1
            top = f"{top}; under {way[-1]}"

    def compare_sets(
        self,
        spot: Spot,
        ours: Position,
        our_events: list[dict[str, Any]],
        their_events: list[dict[str, Any]],
        top: str,
    ) -> None:
        """Raise _Found for the first event ours lists and the engine does not (missing),
        else the first the engine lists and ours does not (extra)."""
        game = _game(ours)
        mine = {same_event(game, e): e for e in our_events}
        yours = {same_event(game, e): e for e in their_events}
        missing = [e for key, e in mine.items() if key not in yours]
        extra = [e for key, e in yours.items() if key not in mine]
        if not missing and not extra:
            return
        below = len(spot.path()) - self.root
        where = f"{below} events below the position" if below else "at the position"
        tally = f"{len(missing)} missing, {len(extra)} extra"
        if missing:
            event = missing[0]
            message = (
                f"{top}: {where}, the engine does not count {_short(event)}, legal for ours "
                f"({tally})"
            )
            rule = _event_rule(ours, event)
            raise _Found(
                self.finding(
                    spot,
                    "perft_missing",
                    message,
                    probe=event,
                    rule=rule,
                    ours=missing,
                    theirs=extra,
                )
            )
        event = extra[0]
        refusal = _refusal(ours, event)
        rule = refusal[0]
        why = f"{refusal[0]}: {refusal[1]}" if refusal[0] else refusal[1]
        message = (
            f"{top}: {where}, the engine counts {_short(event)}, which ours refuses "
            f"({why}; {tally})"
        )
        raise _Found(
            self.finding(
                spot, "perft_extra", message, probe=event, rule=rule, ours=missing, theirs=extra
            )
        )

    # --- an engine that is walked ---------------------------------------------------------

    def walk(self, spot: Spot, ours: Position, depth: int) -> None:
        """Visit every node to ``depth`` on both engines, comparing the legal events at
        each (the engine is at ``spot`` when called); raises _Found at the first difference."""
        self.counts.perft_positions += 1
        self.counts.perft_sequences += self.visit(spot, ours, depth, f"walked to depth {depth}")

    def visit(self, spot: Spot, ours: Position, depth: int, top: str) -> int:
        """The count at ``spot`` (the engine there), every node below compared."""
        if depth == 0:
            return 1
        our_events = [] if ours.is_over else ours.legal()
        their_events = self.remote.legal()
        self.compare_sets(spot, ours, our_events, their_events, top)
        if depth == 1:
            return len(our_events)
        total = 0
        for i, event in enumerate(our_events):
            if i > 0:
                self.back_to(spot, ours)
            self.apply_listed(spot, event, f"the engine lists {_short(event)} as legal")
            total += self.visit(spot.then(event), ours.apply(event), depth - 1, top)
        return total

    def apply_listed(self, spot: Spot, event: Mapping[str, Any], listed: str) -> None:
        """Apply ``event``, one the engine listed, on the engine: refusing it is a finding
        (``listed`` says where the engine listed it)."""
        refused = self.remote.apply(event)
        if refused is not None:
            message = f"{listed} but refuses it: {refused.rule}: {refused.message}"
            raise _Found(
                self.finding(spot, "refused_legal", message, probe=event, their_rule=refused.rule)
            )

    def back_to(self, spot: Spot, ours: Position) -> None:
        """Put the engine back at ``spot``: our position's every top-level value through
        ``set_state``, or the position built again."""
        if "set_state" in self.remote.capabilities:
            whole = ours.to_json()
            self.remote.set_state(dict(whole) if isinstance(whole, Mapping) else {})
        else:
            self.build(spot)

    # --- findings ------------------------------------------------------------------------

    def finding(self, spot: Spot, kind: str, message: str, **more: Any) -> Finding:
        """A finding at ``spot`` with its ready-to-commit files."""
        finding = Finding(
            "perft",
            kind,
            message,
            players=spot.players,
            event_index=len(spot.path()),
            events=() if spot.state else spot.path(),
            request=self.run.process.last_request,
            stderr=tuple(self.run.process.stderr_tail),
            **more,
        )
        return attrs.evolve(
            finding,
            case=self.case,
            log=_log(self.settings, spot, finding),
            scenario=_scenario(spot, attrs.evolve(finding, case=self.case)),
        )

    def fault(self, spot: Spot, exc: Exception) -> Finding:
        if isinstance(exc, EngineFault):
            kind, message, request = exc.kind, exc.message, exc.request
        else:
            kind = "error"
            message = f"the engine answered an error: {exc}"
            request = self.run.process.last_request
        return Finding(
            "perft",
            kind,
            message,
            players=spot.players,
            event_index=len(spot.path()),
            events=() if spot.state else spot.path(),
            request=request,
            stderr=tuple(self.run.process.stderr_tail),
        )


def _game(position: Position) -> Game:
    return position.rules._game  # noqa: SLF001 - the oracle's own view of its position


def _short(event: Mapping[str, Any]) -> str:
    import json

    text = json.dumps(dict(event))
    return text if len(text) <= 160 else text[:157] + "..."


def _refusal(ours: Position, event: Mapping[str, Any]) -> tuple[str | None, str]:
    """Why ours refuses ``event`` here: (rule id, message); (None, why) for an event our
    engine cannot read."""
    from oracle.errors import Illegal

    try:
        ours.apply(event)
    except Illegal as exc:
        return exc.rule_id, exc.message
    except MalformedEvent as exc:
        return None, f"ours cannot read it: {exc.message}"
    return None, "ours applies it, but does not list it (our bug)"


def _event_rule(ours: Position, event: Mapping[str, Any]) -> str | None:
    """The catalogue rule an event's own work rests on (what makes it legal), if known."""
    game = _game(ours)
    named = getattr(game, "event_rule", None)
    if named is None:
        return None
    try:
        rule_id = str(named(structure_event(game, event)))
    except MalformedEvent:
        return None
    return rule_id if find_rule(game, rule_id) is not None else None


def _log(settings: Settings, spot: Spot, finding: Finding) -> str | None:
    """The v1 log of a position reached by events alone, then the extra or missing event
    (our ``validate``: illegal with our rule, or a legal, incomplete log)."""
    if spot.state or finding.probe is None:
        return None
    import json

    lines = [header_line(spot.game, spot.players, spot.options)]
    lines += [json.dumps(e) for e in (*spot.path(), finding.probe)]
    return "\n".join(lines) + "\n"


def _scenario(spot: Spot, finding: Finding) -> str | None:
    """The scenario of the position with ``expect.legal``: the missing event among the
    legal events, or the extra one not (and refused). None for an event ours cannot read."""
    if finding.kind not in ("perft_missing", "perft_extra") or finding.probe is None:
        return None
    if finding.kind == "perft_extra" and finding.rule is None:
        return None
    which = "includes" if finding.kind == "perft_missing" else "excludes"
    where = finding.rule or "legal"
    raw = f"conform-{spot.game}-{finding.kind}-{where}-{finding.probe.get('type', '')}"
    data: dict[str, Any] = {
        "id": re.sub(r"[^A-Za-z0-9_-]+", "-", raw).strip("-"),
        "game": spot.game,
        "rules": [finding.rule] if finding.rule else [],
        "source": f"rules-oracle conform --part perft ({finding.case or 'perft'})",
        "description": finding.message[:300],
        "players": list(spot.players),
    }
    if spot.options:
        data["options"] = dict(spot.options)
    given: dict[str, Any] = {}
    if spot.events:
        given["events"] = [dict(e) for e in spot.events]
    if spot.state:
        given["state"] = dict(spot.state)
    if given:
        data["given"] = given
    if spot.after:
        data["steps"] = [dict(e) for e in spot.after]
    data["expect"] = {"legal": {which: [dict(finding.probe)]}}
    text: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    return text
