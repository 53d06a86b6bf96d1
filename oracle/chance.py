"""Chance draws and their tallies: what the reference expected at each chance node, and
what was drawn (``rules-oracle fairness``, ``conform --part chance``; docs/fairness.md).

A draw is one chance event: the outcomes the reference lists at that node, in its order,
with their probabilities, and the one observed. Draws are grouped by game and chance kind
(the event type: Palmyra's tile draws, Pillars' tax die, ...). A group's tally keeps, per
category (a tile code, a player's colour, a card), the observed count, the expected count
and the covariance of the counts, summed draw by draw (the probabilities change as a bag
empties), and each draw's randomized probability-integral-transform value (PIT) in order,
for the serial tests. Each game also keeps its stream: the PIT values of all its kinds
together, sequence by sequence, in the order drawn, so a draw can be set against the draw
at the same place in the sequence before (a generator reseeded alike every game). No
statistics here: oracle.fairness tests the tallies.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from oracle.formats.log import EventRecord, parse_header, read_lines
from oracle.games import GameCache
from oracle.replay import Records, Verdict, validate_records
from reference.core.game import CHANCE, Game

Label = str


@attrs.frozen
class ChanceKind:
    """One game's kind of chance event: its title in reports, and the event field that
    holds what was drawn (a list field: each item drawn is counted)."""

    title: str
    field: str


KINDS: dict[tuple[str, str], ChanceKind] = {
    ("palmyra", "draw_tile"): ChanceKind("tile draws", "tile"),
    ("pillars", "draw_master_builder"): ChanceKind("builder draws from the bag", "owner"),
    ("pillars", "roll_tax"): ChanceKind("tax die", "tax"),
    ("pillars", "reveal_event"): ChanceKind("event cards", "event"),
    ("pillars", "reveal_craftsmen"): ChanceKind("craftsmen revealed", "shiring"),
    ("pillars", "reveal_resource_cards"): ChanceKind("resource cards set aside", "set_aside"),
    ("pillars", "reveal_advantages"): ChanceKind("advantages revealed", "cards"),
    ("milestones", "draw_worker_tile"): ChanceKind("worker tiles", "tile"),
    ("milestones", "reveal_bonus_tile"): ChanceKind("bonus tiles", "kind"),
    ("municipium", "draw_citizen"): ChanceKind("citizen draws", "kind"),
    ("municipium", "reveal_card"): ChanceKind("cards revealed", "card"),
}
"""Every chance event of the four games (tests/fairness checks play meets no other). The
field is what chance decides; the other fields are fixed by the position (Milestones'
bonus tile goes to the triangle due, whichever kind it is)."""


def kind_of(game: str, event_type: str) -> ChanceKind:
    """The chance kind of an event type; an event type not listed is counted by all its
    fields together (a game added later is tested before it is listed)."""
    return KINDS.get((game, event_type)) or ChanceKind(event_type.replace("_", " "), "")


def _key(value: Any) -> Any:
    """A field value as a dictionary key: lists as tuples."""
    return tuple(value) if isinstance(value, list) else value


def wire_key(kind: ChanceKind, event: Mapping[str, Any]) -> Any:
    """What chance decided in a wire event (a log line, a protocol event)."""
    if kind.field:
        return _key(event.get(kind.field))
    return tuple(sorted((k, _key(v)) for k, v in event.items() if k != "type"))


def event_key(kind: ChanceKind, event: Any) -> Any:
    """What chance decided in one of the engine's own event objects."""
    if kind.field:
        return getattr(event, kind.field)
    return tuple(sorted((a.name, getattr(event, a.name)) for a in attrs.fields(type(event))))


def labels(key: Any) -> tuple[Label, ...]:
    """The categories a drawn key counts in: each item of a list, else the key itself."""
    if isinstance(key, tuple):
        if key and all(isinstance(item, tuple) for item in key):  # (field, value) pairs
            return (",".join(f"{k}={_text(v)}" for k, v in key),)
        return tuple(_text(item) for item in key)
    return (_text(key),)


def _text(value: Any) -> str:
    if isinstance(value, tuple):
        return "+".join(map(_text, value))
    return str(value)


@attrs.frozen
class Draw:
    """One chance event: the distinct outcomes the reference listed (keys, in its order)
    with their probabilities, and the index of the one drawn."""

    game: str
    type: str
    keys: tuple[Any, ...]
    probabilities: tuple[float, ...]
    drawn: int
    line: int | None = None


class NotAnOutcome(Exception):
    """A drawn event the reference does not list among the outcomes at its node."""


def make_draw(
    game: str,
    event_type: str,
    outcomes: Iterable[tuple[Any, float]],
    drawn_key: Any,
    key_of: Callable[[Any], Any],
    line: int | None = None,
) -> Draw:
    """A Draw from a node's outcomes (each keyed by ``key_of``; equal outcomes listed twice,
    as two copies of a card, are one outcome with their probabilities added)."""
    pairs = [(key_of(event), p) for event, p in outcomes]
    keys = tuple(key for key, _ in pairs)
    probabilities = tuple(p for _, p in pairs)
    if len(set(keys)) < len(keys):
        merged: dict[Any, float] = {}
        for key, p in pairs:
            merged[key] = merged.get(key, 0.0) + p
        keys, probabilities = tuple(merged), tuple(merged.values())
    try:
        drawn = keys.index(drawn_key)
    except ValueError:
        raise NotAnOutcome(f"{event_type} {drawn_key!r} is not among the outcomes listed") from None
    return Draw(game, event_type, keys, probabilities, drawn, line)


def wire_draw(game: str, outcomes: Sequence[tuple[Mapping[str, Any], float]], drawn: Any) -> Draw:
    """A Draw from wire outcomes (``Position.chance_outcomes()``) and the wire event drawn."""
    kind = kind_of(game, drawn["type"])
    if kind.field:
        field = kind.field
        return make_draw(
            game, drawn["type"], outcomes, _key(drawn.get(field)), lambda e: _key(e[field])
        )
    return make_draw(
        game, drawn["type"], outcomes, wire_key(kind, drawn), lambda e: wire_key(kind, e)
    )


FLUSH_EVERY = 2048
"""Draws a group holds as rows before it sums them into its covariance (one matrix product)."""


@attrs.define
class GroupTally:
    """The sums of one game's chance kind over every draw added (see the module doc).

    Categories are numbered as first met (``labels``). A draw's expected counts (one
    probability per category, or the chance each category is among the items drawn) are
    held as a row until FLUSH_EVERY rows are summed at once: the covariance of the counts at
    a node is its second moments less the outer product of that row, and the outer products
    of many rows are one matrix product (numpy)."""

    game: str
    type: str
    draws: int = 0
    forced: int = 0
    """Draws with one possible outcome: they say nothing and are left out."""
    sequences: int = 0
    labels: list[Label] = attrs.field(factory=list)
    observed: list[float] = attrs.field(factory=list)
    pits: array[float] = attrs.field(factory=lambda: array("d"))
    starts: list[int] = attrs.field(factory=list)
    """Where each sequence (a log, a play-out) begins in ``pits``: serial tests pair only
    draws of one sequence."""
    in_stream: array[int] = attrs.field(factory=lambda: array("q"))
    """Where each draw's PIT value stands in its game's Stream."""
    _expected: Any = None
    _third: Any = None
    _covariance: Any = None
    _rows: list[int] = attrs.field(factory=list)
    _columns: list[int] = attrs.field(factory=list)
    _values: list[float] = attrs.field(factory=list)
    _single: list[float] = attrs.field(factory=list)
    """Per category, the probabilities of one-category outcomes (their second moments lie
    on the diagonal), held with the rows."""
    _pending: int = 0
    _second: list[tuple[list[int], Any]] = attrs.field(factory=list)
    """Second moments of draws whose outcomes count in several categories: the categories
    and their matrix."""
    _numbers: dict[Any, tuple[tuple[Any, ...], bool]] = attrs.field(
        factory=dict, eq=False, repr=False
    )
    """The keys of a node met before: the numbers of their categories, each key's own, and
    whether every key counts in one category."""

    @property
    def kind(self) -> ChanceKind:
        return kind_of(self.game, self.type)

    def number(self, label: Label) -> int:
        """The number of a category, made when first met."""
        try:
            return self.labels.index(label)
        except ValueError:
            pass
        self.labels.append(label)
        self.observed.append(0.0)
        self._single.append(0.0)
        return len(self.labels) - 1

    def _numbered(self, keys: tuple[Any, ...]) -> tuple[tuple[Any, ...], bool]:
        found = self._numbers.get(keys)
        if found is None:
            numbered = tuple(tuple(self.number(a) for a in labels(key)) for key in keys)
            single = all(len(n) == 1 for n in numbered)
            found = (tuple(n[0] for n in numbered) if single else numbered, single)
            self._numbers[keys] = found
        return found

    def add(self, draw: Draw, uniform: float, new_sequence: bool) -> None:
        """Count one draw; ``uniform`` in [0, 1) randomizes its PIT value."""
        probabilities = draw.probabilities
        if len(probabilities) < 2:
            self.forced += 1
            return
        self.draws += 1
        if new_sequence:
            self.sequences += 1
            self.starts.append(len(self.pits))
        drawn = draw.drawn
        below = sum(probabilities[:drawn])
        self.pits.append(min(below + uniform * probabilities[drawn], 1.0))
        numbered, single = self._numbered(draw.keys)
        row = self._pending
        self._pending += 1
        if single:
            self.observed[numbered[drawn]] += 1.0
            self._rows.extend([row] * len(numbered))
            self._columns.extend(numbered)
            self._values.extend(probabilities)
            diagonal = self._single
            for a, p in zip(numbered, probabilities, strict=True):
                diagonal[a] += p
        else:  # outcomes counting in several categories (cards revealed together)
            for a in numbered[drawn]:
                self.observed[a] += 1.0
            mean, second = self._moments(numbered, probabilities)
            self._rows.extend([row] * len(mean))
            self._columns.extend(mean)
            self._values.extend(mean.values())
            self._second.append(second)
        if self._pending >= FLUSH_EVERY:
            self.flush()

    @staticmethod
    def _moments(
        numbered: tuple[Any, ...], probabilities: tuple[float, ...]
    ) -> tuple[dict[int, float], tuple[list[int], Any]]:
        """A node whose outcomes count in several categories: the mean count of each, and
        their second moments (sum of p times the outcome's count vector times itself)."""
        import numpy as np

        mean: dict[int, float] = {}
        for counted, p in zip(numbered, probabilities, strict=True):
            for a in counted:
                mean[a] = mean.get(a, 0.0) + p
        categories = list(mean)
        column = {a: i for i, a in enumerate(categories)}
        counts = np.zeros((len(numbered), len(categories)))
        for i, counted in enumerate(numbered):
            for a in counted:
                counts[i, column[a]] += 1.0
        weighted = counts * np.asarray(probabilities)[:, None]
        return mean, (categories, counts.T @ weighted)

    def flush(self) -> None:
        """Sum the rows held into the expected counts and the covariance."""
        import numpy as np

        size = len(self.labels)
        expected = np.zeros(size) if self._expected is None else self._expected
        third = np.zeros(size) if self._third is None else self._third
        covariance = np.zeros((size, size)) if self._covariance is None else self._covariance
        if covariance.shape[0] < size:  # categories met since the last flush
            grown = np.zeros((size, size))
            grown[: covariance.shape[0], : covariance.shape[0]] = covariance
            covariance = grown
            expected = np.concatenate([expected, np.zeros(size - len(expected))])
            third = np.concatenate([third, np.zeros(size - len(third))])
        if self._pending:
            rows = np.zeros((self._pending, size))
            rows[self._rows, self._columns] = self._values
            expected += rows.sum(axis=0)
            # Each category counts 0 or 1 in a draw: a Bernoulli's third cumulant.
            third += (rows * (1 - rows) * (1 - 2 * rows)).sum(axis=0)
            covariance -= rows.T @ rows
            covariance[np.diag_indices(size)] += self._single
        for categories, second in self._second:
            covariance[np.ix_(categories, categories)] += second
        self._expected, self._third, self._covariance = expected, third, covariance
        self._rows, self._columns, self._values, self._second = [], [], [], []
        self._single = [0.0] * size
        self._pending = 0

    @property
    def expected(self) -> Any:
        """Expected counts by category number (a numpy vector)."""
        self.flush()
        return self._expected

    @property
    def third(self) -> Any:
        """The third cumulant of each category's count (a numpy vector): how skewed it is."""
        self.flush()
        return self._third

    @property
    def covariance(self) -> Any:
        """The covariance of the counts by category number (a numpy matrix)."""
        self.flush()
        return self._covariance

    def merge(self, other: GroupTally, stream_offset: int) -> None:
        """Add another tally of the same group (another batch of logs, in order), whose
        game's stream is appended to this one's at ``stream_offset``."""
        import numpy as np

        self.draws += other.draws
        self.forced += other.forced
        self.sequences += other.sequences
        ids = [self.number(label) for label in other.labels]
        for i, a in enumerate(ids):
            self.observed[a] += other.observed[i]
        self.flush()
        index = np.array(ids, dtype=int)
        self._expected[index] += other.expected
        self._third[index] += other.third
        self._covariance[np.ix_(index, index)] += other.covariance
        offset = len(self.pits)
        self.starts.extend(start + offset for start in other.starts)
        self.pits.extend(other.pits)
        self.in_stream.extend(at + stream_offset for at in other.in_stream)


@attrs.define
class Stream:
    """One game's draws of every kind together: their PIT values in the order drawn, and
    where each sequence begins (draws with one outcome left out, as in the groups)."""

    pits: array[float] = attrs.field(factory=lambda: array("d"))
    starts: list[int] = attrs.field(factory=list)

    def merge(self, other: Stream) -> None:
        offset = len(self.pits)
        self.starts.extend(start + offset for start in other.starts)
        self.pits.extend(other.pits)


class Tally:
    """Every group's tally, in the order the groups were first met.

    ``seed`` makes the PIT values' randomization reproducible: each sequence draws its
    uniforms from a generator seeded by ``seed`` and the sequence's name (a log's name), so
    the values do not depend on how a corpus was shared out between processes.
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.groups: dict[tuple[str, str], GroupTally] = {}
        self.streams: dict[str, Stream] = {}
        """Each game's stream, by game."""
        self._sequence: str | None = None
        self._fresh: set[tuple[str, str]] = set()
        self._fresh_streams: set[str] = set()
        self._rng = random.Random()

    def start(self, sequence: str) -> None:
        """Draws added from now on belong to ``sequence`` (a log, a play-out)."""
        self._sequence = sequence
        self._fresh = set()
        self._fresh_streams = set()
        self._rng = random.Random(f"{self.seed}:{sequence}")

    def add(self, draw: Draw) -> None:
        """Count one draw in its group, in the current sequence."""
        if self._sequence is None:
            self.start("")
        group_key = (draw.game, draw.type)
        group = self.groups.get(group_key)
        if group is None:
            group = self.groups[group_key] = GroupTally(draw.game, draw.type)
        if len(draw.probabilities) < 2:
            group.add(draw, self._rng.random(), False)
            return
        new_sequence = group_key not in self._fresh
        self._fresh.add(group_key)
        group.add(draw, self._rng.random(), new_sequence)
        stream = self.streams.get(draw.game)
        if stream is None:
            stream = self.streams[draw.game] = Stream()
        if draw.game not in self._fresh_streams:
            self._fresh_streams.add(draw.game)
            stream.starts.append(len(stream.pits))
        group.in_stream.append(len(stream.pits))
        stream.pits.append(group.pits[-1])

    def merge(self, other: Tally) -> None:
        """Add another tally's groups (a later batch of logs)."""
        offsets = {game: len(self.streams[game].pits) for game in self.streams}
        for key, group in other.groups.items():
            mine = self.groups.get(key)
            if mine is None:
                offset = offsets.get(group.game, 0)
                group.in_stream = array("q", (at + offset for at in group.in_stream))
                self.groups[key] = group
            else:
                mine.merge(group, offsets.get(group.game, 0))
        for game, stream in other.streams.items():
            if game in self.streams:
                self.streams[game].merge(stream)
            else:
                self.streams[game] = stream

    @property
    def draws(self) -> int:
        return sum(g.draws for g in self.groups.values())


# --- draws of a log ------------------------------------------------------------------


def log_draws(path: Path, games: GameCache, name: str | None = None) -> tuple[Verdict, list[Draw]]:
    """The verdict on a log and its chance draws, each with the distribution the reference
    assigns at its node; a failing log's draws stop before its first problem (the line of
    the verdict; all of them when the verdict names no line)."""
    draws: list[Draw] = []
    header: list[tuple[int, dict[str, Any]]] = []
    watch: list[Any] = [None, None]  # the game, the state before the next event

    def records() -> Records:
        for number, raw in read_lines(path):
            if not header:
                header.append((number, raw))
            yield number, raw

    def on_state(record: EventRecord | None, state: Any) -> None:
        if record is None:
            found = parse_header(*header[0])
            watch[0] = games.get(found.game, found.options)
        else:
            game: Game = watch[0]
            before = watch[1]
            if game.to_act(before) == CHANCE:
                draws.append(_draw_at(game, before, record))
        watch[1] = state

    verdict = validate_records(name or str(path), records, games, None, on_state)
    if verdict.fails():
        draws = [] if verdict.line is None else [d for d in draws if (d.line or 0) < verdict.line]
    return verdict, draws


def _draw_at(game: Game, state: Any, record: EventRecord) -> Draw:
    raw = record.raw
    event_type = raw["type"]
    kind = kind_of(game.name, event_type)
    outcomes = game.chance_outcomes(state)
    return make_draw(
        game.name,
        event_type,
        outcomes,
        wire_key(kind, raw),
        lambda e: event_key(kind, e),
        record.line,
    )


def tally_of(results: Iterable[tuple[str, list[Draw]]], seed: int) -> Tally:
    """A tally of draws, one sequence per (name, draws) pair, in order."""
    tally = Tally(seed)
    for name, draws in results:
        tally.start(name)
        for draw in draws:
            tally.add(draw)
    return tally


def log_tally(
    path: Path, games: GameCache, seed: int, name: str | None = None
) -> tuple[Verdict, Tally]:
    """The verdict on a log and the tally of its draws (one sequence, named as the log)."""
    verdict, draws = log_draws(path, games, name)
    return verdict, tally_of([(verdict.log, draws)], seed)


def fairness_batch(
    names: list[str], settings: Any, games: GameCache, seed: int = 0
) -> list[tuple[Verdict, Tally]]:
    """Verdicts and draw tallies of a batch of logs, in order (oracle.corpus's work)."""
    root = settings.root
    if root is None:
        return [log_tally(Path(name), games, seed) for name in names]
    return [log_tally(Path(root, name), games, seed, name) for name in names]
