"""Replaying a move log through the reference engine, to the first break or divergence.

verdict = validate_log(Path("game.jsonl"), GameCache())
verdict.kind   # valid | malformed | illegal | divergent | incomplete | internal_error
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal, NoReturn

import attrs

from oracle.formats.converter import (
    event_structurer,
    json_equal,
    structure_event,
    to_json,
    unstructure_event,
)
from oracle.formats.log import (
    EventRecord,
    Header,
    Malformed,
    ResultRecord,
    parse_header,
    parse_record,
    read_lines,
)
from oracle.games import GameCache
from oracle.owed import owed_since
from oracle.rulebook import citation, find_rule, placeholder_keys
from reference.core import paths
from reference.core.access import reader
from reference.core.catalogue import Rule
from reference.core.errors import (
    BadOptions,
    EngineInvariantError,
    MalformedEvent,
    RuleViolation,
)
from reference.core.game import Game, player_names_ok, step
from reference.core.options import option_values

Kind = Literal["valid", "malformed", "illegal", "divergent", "incomplete", "internal_error"]
FAILING: frozenset[str] = frozenset({"malformed", "illegal", "divergent", "internal_error"})
LEGAL_SHOWN = 12
"""A verdict lists every legal event when there are at most this many, else this many."""

Records = Iterator[tuple[int, dict[str, Any]]]


@attrs.frozen
class Divergence:
    """One claimed value that differs from the reference state."""

    path: str
    claimed: Any
    reference: Any
    causes: tuple[str, ...] = ()
    """The latest changes of the reference value: change, rule id and title, event index."""
    agreed_at: int | None = None
    """The event of the last claim of this path that agreed (None: none since the setup)."""
    blame: tuple[Any, ...] = ()
    """The events since then at which the rules changed or decided the value, each with
    what the rules gave and why, the most suspect first: ``oracle.explain.Suspect``s
    (typed Any here: explanations are imported only for a divergent verdict)."""
    blame_more: int = 0
    """Such events not listed in ``blame``."""


@attrs.frozen
class Reading:
    """A reading of the game's options under which a failing log was replayed again and
    validated or got further (oracle/readings.py): the replay is the proof."""

    options: dict[str, Any]
    """The options changed from the log's own reading, e.g. ``{"archbishop_timing":
    "cathedral"}``."""
    status: Kind
    """The verdict under them: ``valid``, or how the log fails further on."""
    events: int
    """Events replayed without fault under them (all of them when valid or incomplete)."""
    rule_id: str | None = None
    """The rule the log then breaks (an illegal verdict under them)."""

    def setting(self) -> str:
        """``archbishop_timing=cathedral, market_builders=last``."""
        return ", ".join(f"{k}={_option_text(v)}" for k, v in self.options.items())

    def text(self) -> str:
        """``valid with archbishop_timing=cathedral``; ``reaches event 240 with
        market_builders=last (then illegal: PIL-TURN-01)``."""
        if self.status == "valid":
            return f"valid with {self.setting()}"
        if self.status == "incomplete":
            return f"replays all {self.events} events with {self.setting()} (then incomplete)"
        then = f"{self.status}: {self.rule_id}" if self.rule_id else self.status
        return f"reaches event {self.events} with {self.setting()} (then {then})"


def _option_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


@attrs.frozen
class ReadingsSearch:
    """What the readings search of a failing log found (oracle/readings.py)."""

    found: tuple[Reading, ...]
    """Each reading under which the log validates or gets further, the best first."""
    tried: int
    """Readings replayed."""
    complete: bool
    """False when the time bound stopped the search before every reading was tried."""


@attrs.frozen
class Verdict:
    """What replaying one log found. ``event_index`` counts events from 0 (header excluded)."""

    log: str
    kind: Kind
    message: str = ""
    game: str | None = None
    events: int = 0
    line: int | None = None
    event_index: int | None = None
    player: str | None = None
    action: str | None = None
    rule_id: str | None = None
    rule_title: str | None = None
    rule_status: str | None = None
    citation: str | None = None
    divergences: tuple[Divergence, ...] = ()
    placeholders: tuple[str, ...] = ()
    placeholder_rules: tuple[str, ...] = ()
    to_act: str | None = None
    legal_count: int | None = None
    legal: tuple[dict[str, Any], ...] = ()
    legal_under: dict[str, Any] | None = None
    readings: ReadingsSearch | None = None
    """Only when asked for (``--readings``) and the log fails: the readings of the game's
    options under which it validates or gets further (oracle/readings.py)."""
    state_at: Any = None

    def fails(self, strict: bool = False) -> bool:
        """Whether this verdict makes the run fail (incomplete only with ``strict``)."""
        return self.kind in FAILING or (strict and self.kind == "incomplete")

    @property
    def status(self) -> Kind:
        """The verdict's kind, by the name scenario results and JSON reports use."""
        return self.kind

    @property
    def file(self) -> str:
        """The log's name, by the name scenario results and JSON reports use."""
        return self.log


class _Stop(Exception):
    """Carries a verdict out of the replay loop."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.kind)
        self.verdict = verdict


StateHook = Callable[[EventRecord | None, Any], None]
"""Called with (None, the setup) and then (record, the reference state after it) per event."""


def validate_log(
    path: Path, games: GameCache, at: int | None = None, on_state: StateHook | None = None
) -> Verdict:
    """The verdict on one log file. Never raises for bad input; our own bugs are
    ``internal_error`` verdicts, never the user's rule violation. ``on_state`` sees each
    reference state as the replay reaches it (the HTML replay draws them)."""
    return validate_records(str(path), lambda: read_lines(path), games, at, on_state)


def validate_records(
    log: str,
    records: Callable[[], Records],
    games: GameCache,
    at: int | None,
    on_state: StateHook | None = None,
    *,
    explain: bool = True,
) -> Verdict:
    """The verdict on a log given as (line number, JSON object) pairs, header first.

    ``records`` gives the pairs afresh on each call: an illegal event under a disputed rule
    is replayed again under the option's other values, to say which would allow it.
    ``explain=False`` leaves out what costs further replays (the causes of a divergence,
    the option value that would allow an illegal event): the readings search wants only
    how far a log gets.
    """
    try:
        return _replay(log, records, games, at, on_state, explain)
    except _Stop as stop:
        return stop.verdict
    except Malformed as exc:
        return Verdict(log, "malformed", exc.reason, line=exc.line or None)
    except Exception as exc:  # noqa: BLE001 - anything else is our bug, reported as ours
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return Verdict(
            log,
            "internal_error",
            f"internal error in rules-oracle, please report: {type(exc).__name__}: {exc} "
            f"({Path(where.filename).name}:{where.lineno})",
        )


@attrs.frozen
class _Replay:
    """What every verdict of one replay shares."""

    log: str
    header: Header
    game: Game
    games: GameCache
    records: Callable[[], Records]
    on_state: StateHook | None = None
    explain: bool = True
    structure: Callable[[dict[str, Any]], Any] = attrs.field(
        init=False,
        default=attrs.Factory(
            lambda run: event_structurer(run.game.name, run.game.event_types).__call__,
            takes_self=True,
        ),
    )
    """The game's event structurer (its bound method: a plain call), found once per log."""
    claims: _Claims = attrs.field(init=False, factory=lambda: _Claims())
    """The claim readers found so far in this log."""

    def common(self) -> dict[str, Any]:
        return {"game": self.game.name, "placeholders": self.game.data.placeholders()}


def _replay(
    log: str,
    records: Callable[[], Records],
    games: GameCache,
    at: int | None,
    on_state: StateHook | None,
    explain: bool = True,
) -> Verdict:
    lines = records()
    first = next(lines, None)
    if first is None:
        raise Malformed(0, "empty file: a log starts with a header line")
    header = parse_header(*first)
    state = None
    try:
        game = games.get(header.game, header.options)
        problem = player_names_ok(header.players, game.min_players, game.max_players)
        if problem:
            raise BadOptions(problem)
        state = game.new_game(header.players)
    except BadOptions as exc:
        raise _Stop(
            Verdict(log, "malformed", exc.message, game=header.game, line=first[0])
        ) from exc
    run = _Replay(log, header, game, games, records, on_state, explain)
    if on_state is not None:
        on_state(None, state)
    state_at = to_json(state) if at == 0 else None
    try:
        index = -1
        result_seen: ResultRecord | None = None
        for number, raw in lines:
            record = parse_record(number, raw)
            if result_seen is not None:
                raise Malformed(number, "nothing may follow the result line")
            if isinstance(record, ResultRecord):
                result_seen = record
                _check_result(run, state, record, index + 1)
                continue
            index += 1
            state = _replay_event(run, state, record, index)
            if at == index + 1:
                state_at = to_json(state)
    except Malformed as exc:
        raise _Stop(
            Verdict(
                log,
                "malformed",
                exc.reason,
                line=exc.line or None,
                state_at=state_at,
                **run.common(),
            )
        ) from exc
    except _Stop as stop:
        raise _Stop(attrs.evolve(stop.verdict, state_at=state_at)) from stop
    kind: Kind = "valid" if game.is_over(state) else "incomplete"
    message = "" if kind == "valid" else "the log ends before the game does"
    if kind == "incomplete":
        return Verdict(
            log,
            kind,
            message,
            events=index + 1,
            state_at=state_at,
            **_teaching(game, state),
            **run.common(),
        )
    return Verdict(log, kind, message, events=index + 1, state_at=state_at, **run.common())


def _replay_event(run: _Replay, state: Any, record: EventRecord, index: int) -> Any:
    try:
        event = run.structure(record.raw)
        new_state = step(run.game, state, event)
        if run.on_state is not None:
            run.on_state(record, new_state)
        differences = run.claims.differences(new_state, record.claims) if record.claims else []
        if not differences:
            return new_state
    except (MalformedEvent, RuleViolation, EngineInvariantError, paths.UnknownPath) as exc:
        _stop_at(run, state, record, index, exc)
    if run.explain:
        differences = _with_causes(run, index, differences)
    count = len(differences)
    message = f"{count} claimed value{'s differ' if count > 1 else ' differs'} from the reference"
    where = _where(run, record, index)
    raise _Stop(Verdict(run.log, "divergent", message, divergences=tuple(differences), **where))


def _with_causes(run: _Replay, index: int, differences: list[Divergence]) -> list[Divergence]:
    """Each divergence with the events and rules that last changed its reference value and
    the events the rules could have changed it at since its last agreeing claim (the
    prefix is replayed once more, recording: only for a divergent verdict)."""
    from oracle.explain import explain  # only a divergent verdict pays for its import

    claimed = {d.path: d.claimed for d in differences}
    found = explain(run.records(), run.game, index, claimed)
    out = []
    for d in differences:
        e = found.get(d.path)
        if e is not None:
            d = attrs.evolve(
                d, causes=e.causes, agreed_at=e.agreed_at, blame=e.blame, blame_more=e.blame_more
            )
        out.append(d)
    return out


class _Claims:
    """Compares one replay's state claims with its states, by readers compiled once per
    state class and list of paths (``reference.core.access``), found here by the list of
    paths alone. A number, text, flag or null equal to the claim and of its JSON type is
    equal as JSON too, so claims that are all such are compared in one go (the usual case:
    nothing differs); anything else is compared value by value, as JSON."""

    __slots__ = ("readers",)

    def __init__(self) -> None:
        self.readers: dict[tuple[str, ...], list[Any]] = {}
        """Paths in order -> [state class, its reader, the value types last found all
        JSON scalars there (or None)]."""

    def differences(self, state: Any, claims: dict[str, Any]) -> list[Divergence]:
        """Every claimed value that differs from the reference state; a path naming
        nothing raises UnknownPath."""
        path_list = tuple(claims)
        entry = self.readers.get(path_list)
        state_type: Any = type(state)
        if entry is None or entry[0] is not state_type:
            entry = [state_type, reader(state_type, path_list).__call__, None]
            self.readers[path_list] = entry
        values = entry[1](state)
        claimed = tuple(claims.values())
        if values == claimed:
            kinds = tuple(map(type, values))
            if kinds == tuple(map(type, claimed)):
                if kinds == entry[2]:
                    return []
                if _SCALARS.issuperset(kinds):
                    entry[2] = kinds
                    return []
        differences = []
        for (path, claim), value in zip(claims.items(), values, strict=True):
            kind = type(value)
            if kind is type(claim) and kind in _SCALARS and value == claim:
                continue
            reference = to_json(value)
            if not json_equal(claim, reference):
                differences.append(Divergence(path, claim, reference))
        return differences


def _differences(state: Any, claims: dict[str, Any]) -> list[Divergence]:
    """Every claimed value that differs from the reference state (see ``_Claims``)."""
    return _Claims().differences(state, claims)


_SCALARS = frozenset({int, str, bool, float, type(None)})
"""JSON scalars that ``to_json`` returns as they are and ``json_equal`` compares by ``==``
when both sides are of one type."""


def _where(run: _Replay, record: EventRecord, index: int) -> dict[str, Any]:
    """The verdict fields that say where in the log a problem is: ``events`` counts the
    events replayed before the one the verdict is about."""
    player, action = record.raw.get("player"), record.raw.get("type")
    return {
        "events": index,
        "line": record.line,
        "event_index": index,
        "player": player if isinstance(player, str) else None,
        "action": action if isinstance(action, str) else None,
        **run.common(),
    }


def _teaching(game: Game, state: Any) -> dict[str, Any]:
    """Who was to act and what was legal there: every event when few, else a sample."""
    if game.is_over(state):
        return {"to_act": None, "legal_count": 0, "legal": ()}
    listed = game.legal_events(state)
    shown = listed if len(listed) <= LEGAL_SHOWN else _sample(listed, LEGAL_SHOWN)
    return {
        "to_act": game.to_act(state),
        "legal_count": len(listed),
        "legal": tuple(unstructure_event(e) for e in shown),
    }


def _sample(listed: list[Any], size: int) -> list[Any]:
    """``size`` events spread evenly over the list (the first and each kind show up)."""
    by_kind: dict[str, Any] = {}
    for event in listed:
        by_kind.setdefault(type(event).type, event)
    picked = list(by_kind.values())[:size]
    step_ = len(listed) / size
    for i in range(size):
        if len(picked) >= size:
            break
        candidate = listed[int(i * step_)]
        if candidate not in picked:
            picked.append(candidate)
    return sorted(picked, key=listed.index)


def _stop_at(run: _Replay, state: Any, record: EventRecord, index: int, exc: Exception) -> NoReturn:
    """The verdict for an event that could not be replayed."""
    where = _where(run, record, index)
    log, game = run.log, run.game
    if isinstance(exc, MalformedEvent):
        where.update(_teaching(game, state))
        raise _Stop(Verdict(log, "malformed", exc.message, **where)) from exc
    if isinstance(exc, paths.UnknownPath):
        raise _Stop(Verdict(log, "malformed", str(exc), **where)) from exc
    if isinstance(exc, RuleViolation):
        rule = find_rule(game, exc.rule_id)
        where.update(_teaching(game, state))
        where["placeholders"] = placeholder_keys(game, rule)
        # What a player owes (a discard over a limit), with the event since which it is owed.
        owed = owed_since(run.records(), game, state, index) if run.explain else ""
        raise _Stop(
            Verdict(
                log,
                "illegal",
                exc.message + owed,
                rule_id=exc.rule_id,
                rule_title=rule.title if rule else None,
                rule_status=rule.status if rule else None,
                citation=citation(rule),
                placeholder_rules=(rule.id,) if rule and rule.status == "placeholder" else (),
                legal_under=_legal_under(run, rule, index) if run.explain else None,
                **where,
            )
        ) from exc
    message = f"internal error in rules-oracle, please report: invariant broken: {exc}"
    raise _Stop(Verdict(log, "internal_error", message, **where)) from exc


def _legal_under(run: _Replay, rule: Rule | None, index: int) -> dict[str, Any] | None:
    """For a disputed rule with an option: the option value under which the log's events up
    to ``index`` all replay legally (claims aside), or None when no value allows them."""
    option = rule.dispute.option if rule and rule.dispute else None
    if option is None:
        return None
    current = getattr(run.game.options, option, None)
    for value in option_values(run.game.options, option):
        if value == current:
            continue
        try:
            other = run.games.get(run.header.game, run.header.options, {option: value})
        except BadOptions:
            continue
        if _replays_legally(other, run.header.players, run.records(), index):
            return {option: value}
    return None


def _replays_legally(game: Game, players: tuple[str, ...], records: Records, last: int) -> bool:
    """Whether events 0..``last`` of a log all apply under ``game`` (claims not checked)."""
    state = game.new_game(players)
    next(records, None)  # the header
    for index, (_, raw) in enumerate(records):
        if index > last:
            break
        try:
            state = step(game, state, structure_event(game, raw))
        except (MalformedEvent, RuleViolation, EngineInvariantError):
            return False
    return True


def _check_result(run: _Replay, state: Any, record: ResultRecord, events: int) -> None:
    game = run.game
    where = {"events": events, "line": record.line, **run.common()}
    if not game.is_over(state):
        message = "the log claims a result but the game is not over"
        raise _Stop(Verdict(run.log, "divergent", message, **where))
    result = game.result(state)
    differences = []
    if record.scores is not None and not json_equal(record.scores, result.scores):
        differences.append(Divergence("result.scores", record.scores, result.scores))
    if record.winners is not None and not json_equal(record.winners, list(result.winners)):
        differences.append(Divergence("result.winners", record.winners, list(result.winners)))
    if differences:
        raise _Stop(
            Verdict(
                run.log,
                "divergent",
                "the claimed result differs",
                divergences=tuple(differences),
                **where,
            )
        )
