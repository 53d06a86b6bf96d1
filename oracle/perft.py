"""Perft for board games: how many legal event sequences of a given length start at a position.

Chess programmers check a move generator by counting the legal move sequences of depth N
from a position ("perft") and comparing the number with a trusted engine's; "divide" gives
the count under each first move, so two engines that disagree can walk down to the one
position where they differ. Here the same for our four games (docs/perft.md):

- one step is one event, a player's action or a chance outcome alike;
- at a chance node every outcome is a branch, once per distinct outcome event, whatever its
  probability (no random numbers: a count is the same on every machine);
- where several players' decisions are due at once, in any order (``RuleSet.pending``), each
  order is a different sequence: the legal events there are every pending player's;
- a sequence that reaches the end of the game stops there: it counts at its own length only
  (a finished game has 1 sequence of length 0 and none longer).

So the count at depth 1 is the number of legal events, and at depth D it is the sum, over
the legal events, of the count at depth D-1 after each. The counting applies every event
through ``reference.core.game.step`` (its invariants checked, as in ``play``); the last level
is counted from the legal list without applying it ("bulk counting").

A ``Spot`` is a position as any implementation can build it (a scenario's ``given``: a log
prefix from the standard setup, values set by state path, then more events);
``spot_position`` builds it on our engine. Counts run in this process or over ``jobs``
worker processes, each subtree counted whole by one of them.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from oracle.errors import Illegal
from oracle.formats.converter import structure_event, unstructure_event
from oracle.games import GameCache
from oracle.position import Position, Rules
from reference.core.errors import BadOptions, EngineInvariantError, MalformedEvent
from reference.core.game import Game, step
from reference.core.paths import UnknownPath
from reference.registry import make_game

SUBTREES_PER_JOB = 8
"""Subtrees handed to each worker (and at least ``MIN_SUBTREES`` in all): enough to share the
work out evenly and to move a progress bar, few enough to keep their states in memory."""
MIN_SUBTREES = 16


class BadPosition(Exception):
    """A position cannot be built as written: an unknown game or option, an event the rules
    refuse or cannot read, a state path or value that does not fit. ``where`` names the
    part at fault (``events[3]``, ``state``)."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}" if where else reason)
        self.where = where
        self.reason = reason


@attrs.frozen
class Spot:
    """A position as another implementation can build it: the standard setup of ``game``
    for ``players`` (seat order) with ``options``, the log prefix ``events`` played from it,
    then ``state`` values set by state path (as a scenario's ``given.state``), then the
    events ``after`` (the way down from a position with a given state)."""

    game: str
    players: tuple[str, ...]
    options: dict[str, Any] = attrs.field(factory=dict)
    events: tuple[dict[str, Any], ...] = ()
    state: dict[str, Any] = attrs.field(factory=dict)
    after: tuple[dict[str, Any], ...] = ()

    def then(self, event: Mapping[str, Any]) -> Spot:
        """The position after one more event."""
        if self.state:
            return attrs.evolve(self, after=(*self.after, dict(event)))
        return attrs.evolve(self, events=(*self.events, dict(event)))

    def path(self) -> tuple[dict[str, Any], ...]:
        """Every event played to reach it (those before and after the given state)."""
        return (*self.events, *self.after)


def spot_position(spot: Spot, games: GameCache | None = None) -> Position:
    """``spot`` built on our engine. Raises BadPosition naming the part at fault."""
    games = games or GameCache()
    try:
        game = games.get(spot.game, spot.options)
        position = Rules(game, spot.options).setup(spot.players)
    except BadOptions as exc:
        raise BadPosition("", exc.message) from exc
    position = _played(position, spot.events, "events")
    if spot.state:
        try:
            position = position.with_values(spot.state)
        except (UnknownPath, MalformedEvent) as exc:
            raise BadPosition("state", str(exc)) from exc
    return _played(position, spot.after, "after")


def _played(position: Position, events: Sequence[Mapping[str, Any]], where: str) -> Position:
    for i, event in enumerate(events):
        try:
            position = position.apply(event)
        except Illegal as exc:
            raise BadPosition(f"{where}[{i}]", f"illegal: {exc.rule_id}: {exc.message}") from exc
        except MalformedEvent as exc:
            raise BadPosition(f"{where}[{i}]", f"malformed: {exc.message}") from exc
    return position


@attrs.frozen
class PerftResult:
    """A count: ``count`` sequences of ``depth`` events; ``divide`` (when asked) the count
    under each first event, in the order of our legal events; ``seconds`` it took."""

    depth: int
    count: int
    divide: tuple[tuple[dict[str, Any], int], ...] | None = None
    seconds: float = 0.0


# --- counting ------------------------------------------------------------------------------


def count_state(game: Game, state: Any, depth: int) -> int:
    """The number of legal event sequences of ``depth`` events from ``state``."""
    if depth == 0:
        return 1
    if game.is_over(state):
        return 0
    events = game.legal_events(state)
    if depth == 1:
        return len(events)
    return sum(count_state(game, step(game, state, event), depth - 1) for event in events)


def count(position: Position, depth: int) -> int:
    """The number of legal event sequences of ``depth`` events from ``position``."""
    return count_state(_game(position), _state(position), _checked(depth))


def divide(position: Position, depth: int) -> list[tuple[dict[str, Any], int]]:
    """Each legal first event (as a wire event) with the count of sequences of ``depth``
    events that begin with it; empty at depth 0 or once the game is over."""
    return list(perft(position, depth, with_divide=True).divide or ())


def perft(
    position: Position,
    depth: int,
    *,
    with_divide: bool = False,
    jobs: int = 1,
    on_subtree: Callable[[int, int], None] | None = None,
) -> PerftResult:
    """Count the sequences of ``depth`` events from ``position``: in this process, or with
    ``jobs`` > 1 over that many worker processes (the same counts). ``on_subtree(done,
    total)`` is called as each subtree is counted (a progress bar).

    Raises BadOptions for a negative depth; EngineInvariantError if our engine breaks its
    invariants on the way (our bug).
    """
    started = time.monotonic()
    depth = _checked(depth)
    game, state = _game(position), _state(position)
    if depth == 0 or game.is_over(state):
        total = 1 if depth == 0 else 0
        return PerftResult(depth, total, () if with_divide else None, time.monotonic() - started)
    first = game.legal_events(state)
    per_first = [0] * len(first)
    if depth == 1:
        per_first = [1] * len(first)
    else:
        tasks = _subtrees(game, state, first, depth, _wanted(jobs))
        counted = _run(game, position.rules.options, tasks, jobs, on_subtree)
        for (index, _, _), n in zip(tasks, counted, strict=True):
            per_first[index] += n
    shown = None
    if with_divide:
        shown = tuple((unstructure_event(e), n) for e, n in zip(first, per_first, strict=True))
    return PerftResult(depth, sum(per_first), shown, time.monotonic() - started)


def deepest_within(position: Position, budget: int, most: int) -> tuple[int, int]:
    """The deepest depth (1 to ``most``) whose count is at most ``budget``, with that count;
    (0, 1) when even depth 1 is over the budget or the game is over."""
    best = (0, 1)
    for d in range(1, most + 1):
        n = count(position, d)
        if n > budget or n == 0:
            break
        best = (d, n)
    return best


Subtree = tuple[int, Any, int]
"""(index of the first event it lies under, the state at its root, events left to count)."""


def _subtrees(game: Game, state: Any, first: list[Any], depth: int, wanted: int) -> list[Subtree]:
    """The subtrees to count: one under each first event, each split into its children
    while there are fewer than ``wanted`` and more than one event is left to count."""
    tasks: list[Subtree] = [(i, step(game, state, e), depth - 1) for i, e in enumerate(first)]
    while len(tasks) < wanted and tasks and tasks[0][2] > 1:
        split: list[Subtree] = []
        for index, root, left in tasks:
            if game.is_over(root):
                continue  # no sequence of ``left`` more events: it counts 0
            split += [(index, step(game, root, e), left - 1) for e in game.legal_events(root)]
        tasks = split
    return tasks


def _wanted(jobs: int) -> int:
    return max(MIN_SUBTREES, SUBTREES_PER_JOB * jobs)


def _run(
    game: Game,
    options: dict[str, Any],
    tasks: list[Subtree],
    jobs: int,
    on_subtree: Callable[[int, int], None] | None,
) -> list[int]:
    """The count of each subtree, in order."""
    report = on_subtree or _quiet
    if jobs <= 1 or len(tasks) <= 1:
        out = []
        for done, (_, root, left) in enumerate(tasks, start=1):
            out.append(count_state(game, root, left))
            report(done, len(tasks))
        return out
    from concurrent.futures import ProcessPoolExecutor  # only when shared out (slow to import)

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_count_in_worker, game.name, options, r, n) for _, r, n in tasks]
        out = []
        for done, future in enumerate(futures, start=1):
            n, failures = future.result()
            if failures is not None:
                raise EngineInvariantError(failures)
            out.append(n)
            report(done, len(tasks))
        return out


def _quiet(done: int, total: int) -> None:
    """No progress shown."""


_WORKER_GAMES: dict[str, Game] = {}
"""One rule set per game and options in each worker process, made on first use."""


def _count_in_worker(
    name: str, options: dict[str, Any], state: Any, depth: int
) -> tuple[int, list[str] | None]:
    """A subtree's count in a worker process; our invariant failures come back as data
    (an exception's own arguments do not survive the way back whole)."""
    import json

    key = name + "\0" + json.dumps(options, sort_keys=True, default=str)
    if key not in _WORKER_GAMES:
        _WORKER_GAMES[key] = make_game(name, options)
    try:
        return count_state(_WORKER_GAMES[key], state, depth), None
    except EngineInvariantError as exc:
        return 0, list(exc.failures)


MAX_DEPTH = 100
"""The deepest count asked for: the count recurses a level per event (Python's stack holds
about 1,000 frames), and no count deeper than a few dozen events finishes unless the game
ends within it."""


def depth_problem(depth: object) -> str | None:
    """Why ``depth`` cannot be counted to (not a whole number from 0 to MAX_DEPTH), or None."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_DEPTH:
        return f"a perft depth is a whole number of events, 0 to {MAX_DEPTH} (not {depth!r})"
    return None


def _checked(depth: int) -> int:
    problem = depth_problem(depth)
    if problem is not None:
        raise BadOptions(problem)
    return depth


def _game(position: Position) -> Game:
    return position.rules._game  # noqa: SLF001 - the oracle's own view of its position


def _state(position: Position) -> Any:
    return position._state  # noqa: SLF001


def same_event(game: Game, event: Mapping[str, Any]) -> str:
    """An event as text equal for the same event of ``game``: read by our engine (fields
    whose order does not matter put in its order), keys sorted; an event our engine cannot
    read is taken as written."""
    import json

    with contextlib.suppress(MalformedEvent):
        event = unstructure_event(structure_event(game, event))
    return json.dumps(event, sort_keys=True)
