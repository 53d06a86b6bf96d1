"""Position files and perft suites (YAML or JSON; docs/perft.md).

A **position file** says where a count starts, as a scenario's ``given`` does::

    game: pillars
    players: [red, blue]
    options: {}                 # optional
    given:                      # optional: the standard setup when left out
      events: [...]             #   a log prefix played from the setup
      state: {players.red.gold: 3}   # then values set by state path

A scenario file (it has an ``expect``) is read the same way: its position is its ``given``.

A **perft suite** (``perft/<game>.yaml``, shipped in the package) lists positions of one
game with their counts by depth::

    format: rules-oracle-perft-suite
    version: 1
    game: pillars
    positions:
      - id: setup-2p
        description: the 2-player setup; chance reveals the advantages first
        players: [red, blue]
        given: {events: [...]}    # optional, as in a position file
        perft: {1: 182, 2: 2184, 3: 78624}

``perft`` holds the count at every depth from 1 to the deepest, the deepest being the main
check (sized to count in about 2 s on our engine).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import cattrs
import yaml

from oracle.formats.converter import CONVERTER, describe
from oracle.formats.scenario import BadScenario, Given, load_scenario
from oracle.games import GameCache
from oracle.perft import BadPosition, Spot, count, perft, spot_position
from reference.core import yamlfile

SUITE_FORMAT = "rules-oracle-perft-suite"
SUITE_VERSION = 1
BUNDLED_SUITES = Path(__file__).resolve().parent / "perft_suite"
"""The perft suites that come with rules-oracle (the repository's ``perft/``, shipped inside
the package), one file per game: ``<game>.yaml``."""
MAX_FILE_BYTES = 4_000_000


class BadFile(Exception):
    """A position or suite file cannot be read; ``line`` is 0 when no line applies."""

    def __init__(self, path: Path, line: int, reason: str) -> None:
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


@attrs.frozen
class _PositionFile:
    game: str
    players: tuple[str, ...]
    options: dict[str, Any] = attrs.field(factory=dict)
    given: Given = Given()


@attrs.frozen
class SuiteEntry:
    """One position of a suite with its counts by depth (1 to the deepest)."""

    id: str
    description: str
    players: tuple[str, ...]
    perft: dict[int, int]
    options: dict[str, Any] = attrs.field(factory=dict)
    given: Given = Given()

    @property
    def depth(self) -> int:
        """The deepest depth counted: the suite's main check of this position."""
        return max(self.perft)

    def spot(self, game: str) -> Spot:
        """The position, to build on an engine."""
        return Spot(game, self.players, dict(self.options), self.given.events, self.given.state)


@attrs.frozen
class _SuiteFile:
    format: str
    version: int
    game: str
    positions: tuple[SuiteEntry, ...]


@attrs.frozen
class Suite:
    """A perft suite: the game, its positions, and the line of each in the file."""

    path: Path
    game: str
    entries: tuple[SuiteEntry, ...]
    lines: tuple[int, ...]


def _read(path: Path) -> tuple[Any, yaml.Node | None]:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise BadFile(path, 0, f"larger than {MAX_FILE_BYTES} bytes")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadFile(path, 0, f"cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise BadFile(path, 0, f"not UTF-8 text (byte {exc.start})") from exc
    try:
        return yamlfile.load(text), yamlfile.compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        problem = getattr(exc, "problem", None) or str(exc)
        raise BadFile(path, line, f"not valid YAML: {' '.join(str(problem).split())}") from exc


def read_spot(path: Path) -> Spot:
    """The position a position file or a scenario file (its ``given``) describes.
    Raises BadFile naming the file and line."""
    raw, node = _read(path)
    if not isinstance(raw, dict):
        raise BadFile(path, 1, "a position file is a mapping (game, players, options, given)")
    if "expect" in raw:
        try:
            sc = load_scenario(path).scenario
        except BadScenario as exc:
            raise BadFile(path, exc.line, exc.reason) from exc
        return Spot(sc.game, sc.players, dict(sc.options), sc.given.events, sc.given.state)
    try:
        found = CONVERTER.structure(raw, _PositionFile)
    except (cattrs.BaseValidationError, TypeError, ValueError) as exc:
        raise BadFile(path, _line_of(node, exc), describe(exc)) from exc
    return Spot(
        found.game, found.players, dict(found.options), found.given.events, found.given.state
    )


def load_suite(path: Path) -> Suite:
    """A perft suite file, checked: its format, one game, unique ids, counts at every depth
    from 1 to the deepest. Raises BadFile naming the file and line."""
    raw, node = _read(path)
    if not isinstance(raw, dict):
        raise BadFile(path, 1, "a perft suite is a mapping (format, version, game, positions)")
    if raw.get("format") != SUITE_FORMAT or raw.get("version") != SUITE_VERSION:
        raise BadFile(path, 1, f"not a perft suite: format {SUITE_FORMAT}, version 1 expected")
    try:
        found = CONVERTER.structure(raw, _SuiteFile)
    except (cattrs.BaseValidationError, TypeError, ValueError) as exc:
        raise BadFile(path, _line_of(node, exc), describe(exc)) from exc
    lines = _entry_lines(node, len(found.positions))
    seen: set[str] = set()
    for entry, line in zip(found.positions, lines, strict=True):
        if entry.id in seen:
            raise BadFile(path, line, f"id {entry.id} is used twice")
        seen.add(entry.id)
        depths = sorted(entry.perft)
        if depths != list(range(1, len(depths) + 1)) or any(n < 0 for n in entry.perft.values()):
            raise BadFile(path, line, f"{entry.id}: perft counts depths 1, 2, ... each 0 or more")
    return Suite(path, found.game, found.positions, lines)


def suite_path(game: str) -> Path:
    """The bundled suite of ``game``."""
    return BUNDLED_SUITES / f"{game}.yaml"


def _entry_lines(node: yaml.Node | None, count: int) -> tuple[int, ...]:
    positions = _value(node, "positions")
    if isinstance(positions, yaml.SequenceNode):
        return tuple(item.start_mark.line + 1 for item in positions.value)
    return (0,) * count


def _value(node: yaml.Node | None, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key and isinstance(v, yaml.Node):
                return v
    return None


def _line_of(node: yaml.Node | None, exc: BaseException) -> int:
    """The line of what the first structuring error is about: an entry of ``positions``
    (``$.positions[3]...``) or a top-level key."""
    message = describe(exc)
    if "@ $." not in message:
        return 1
    where = message.split("@ $.", 1)[1]
    key = where.split(".")[0].split("[")[0].split(";")[0].strip()
    found = _value(node, key)
    if found is None:
        return 1
    if key == "positions" and where.startswith("positions[") and "]" in where:
        index = where[len("positions[") : where.index("]")]
        if index.isdigit() and isinstance(found, yaml.SequenceNode):
            items = found.value
            if int(index) < len(items):
                return int(items[int(index)].start_mark.line + 1)
    return int(found.start_mark.line + 1)


# --- checking a suite on our engine ----------------------------------------------------------


@attrs.frozen
class PerftCheck:
    """One suite position counted on our engine: the counts expected and counted by depth;
    ``error`` when the position does not build (the file's fault)."""

    id: str
    line: int
    expected: dict[int, int]
    counted: dict[int, int]
    seconds: float
    error: str | None = None

    @property
    def passed(self) -> bool:
        """Whether every count is the one the suite expects."""
        return self.error is None and self.counted == self.expected


def check_suite(
    suite: Suite,
    games: GameCache | None = None,
    jobs: int = 1,
    on_subtree: Callable[[int, int], None] | None = None,
) -> Iterator[PerftCheck]:
    """Count each position of ``suite`` on our engine at every depth it lists (the deepest
    over ``jobs`` processes), one result per position as it is done."""
    games = games or GameCache()
    for entry, line in zip(suite.entries, suite.lines, strict=True):
        started = time.monotonic()
        try:
            position = spot_position(entry.spot(suite.game), games)
        except BadPosition as exc:
            yield PerftCheck(entry.id, line, dict(entry.perft), {}, 0.0, str(exc))
            continue
        counted = {d: count(position, d) for d in sorted(entry.perft)[:-1]}
        deepest = perft(position, entry.depth, jobs=jobs, on_subtree=on_subtree)
        counted[entry.depth] = deepest.count
        seconds = time.monotonic() - started
        yield PerftCheck(entry.id, line, dict(entry.perft), counted, seconds)
