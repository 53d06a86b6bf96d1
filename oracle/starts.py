"""Where a game on both engines begins (``Start``), and the positions conform plays from on
purpose besides the setup: the positions of the bundled scenarios, and positions near each
game's rare ends (oracle/reach.py plays from them, docs/conformance.md).

A start is the setup for its players under its options, with values set on it by state
path (``given``, as a scenario's ``given.state``: sent to the engine under test with
``set_state``), then ``steps`` played from there before the play-out's own choices (a
scenario's steps). Every play-out, the ones from the setup, the deliberate ones and the
replays of shrinking, begins at one (oracle/conform.py ``play``), so a finding from any of
them carries the same ``given`` and is shrunk, named and written the same way.

A rare end is built by seeded random play up to a point, then values that bring an end the
random game seldom reaches within a few turns (the bank nearly dry, a family one decurion
short), each moved from elsewhere so that what the game conserves stays conserved (coins,
cubes); the position reached is written as values on the setup (``written``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from oracle.formats.converter import json_equal, structure_event, unstructure_event
from oracle.formats.scenario import BadScenario, load_scenario
from oracle.games import GameCache
from oracle.position import Position
from oracle.protocol import EngineError
from oracle.refengine import LocalEngine
from oracle.scenarios import canonical
from reference.core.errors import EngineInvariantError, MalformedEvent

SCENARIO = "scenario"
RARE_END = "rare end"


@attrs.frozen
class Start:
    """Where a game on both engines begins: its players and game options; for a position
    written directly, the values set on the setup by path (``given``: a scenario's
    ``given.state``, sent with ``set_state``); ``steps``, events played from there before
    the play-out's own choices (a step ours refuses is sent as a probe and ends the steps).
    ``game_no`` and ``seed`` name the game in findings."""

    players: tuple[str, ...]
    options: dict[str, Any] = attrs.field(factory=dict)
    given: dict[str, Any] | None = None
    game_no: int | None = None
    seed: int | None = None
    steps: tuple[dict[str, Any], ...] = ()


@attrs.frozen
class Aimed:
    """A start chosen to reach rules random play leaves out: its name, what it is (a
    scenario's position or a rare end), the rules it is about (a scenario's citations) and
    those one of its steps is refused by (a scenario's ``expect.illegal``)."""

    name: str
    kind: str
    start: Start
    rules: tuple[str, ...] = ()
    refused_by: tuple[str, ...] = ()


# --- a position as values set on the setup ---------------------------------------------------

Unit = dict[str, Any]
"""Values set together by path: one changed leaf, or a mapping written whole."""


def written(setup: LocalEngine, here: LocalEngine) -> list[Unit] | None:
    """The position of ``here`` as values set on ``setup`` (a fresh setup of the same game,
    players and options; the values are set on it): None if ours cannot write it back
    exactly."""
    units = diff_units(dict(setup.leaves()), dict(here.leaves()), here)
    try:
        setup.set_state(merged(units))
    except EngineError:
        return None
    return units if _same_leaves(setup.leaves(), here.leaves()) else None


def diff_units(setup: dict[str, Any], here: dict[str, Any], ref: LocalEngine) -> list[Unit]:
    """The values by which ``here`` (every leaf path of a position, ours at ``ref``) differs
    from ``setup``, as units ``set_state`` takes on the setup: a changed leaf alone; written
    whole, a mapping that lost a key (a tile stack at 0, a cell emptied: ``set_state`` only
    adds keys) and a part that is new or was no mapping in the setup (a worker space that
    held nothing and now holds a tile)."""
    in_here = _ancestors(here) | set(here)
    in_setup = _ancestors(setup) | set(setup)
    wholes: list[str] = []
    for path in setup:
        if path not in in_here:  # lost: written from the nearest part still there
            while path not in in_here and "." in path:
                path = path.rsplit(".", 1)[0]
            wholes.append(path)
    for path in here:
        if path not in setup:
            root = _settable(path, setup, in_setup)
            if root != path:
                wholes.append(root)
    wholes = [w for w in dict.fromkeys(wholes) if not any(_under(w, o) for o in wholes)]
    units: list[Unit] = []
    if wholes:
        values = ref.state(wholes)
        units += [{path: values[path]} for path in wholes]
    for path, value in here.items():
        if any(path == w or _under(path, w) for w in wholes):
            continue
        if path not in setup or not json_equal(setup[path], value):
            units.append({path: value})
    return units


def merged(units: list[Unit]) -> dict[str, Any]:
    """The units as one mapping of values by path."""
    values: dict[str, Any] = {}
    for unit in units:
        values.update(unit)
    return values


def _settable(path: str, setup: dict[str, Any], in_setup: set[str]) -> str:
    """The part to write for a leaf the setup does not have: the leaf itself when its parent
    is a part of the setup that takes it; else the first of its parts the setup lacks, or
    holds as a value that is no mapping (``None``, a list)."""
    parts = path.split(".")
    for i in range(1, len(parts)):
        part = ".".join(parts[:i])
        if part not in in_setup or part in setup and not isinstance(setup[part], dict):
            return part
    return path


def _ancestors(leaves: dict[str, Any]) -> set[str]:
    return {path.rsplit(".", i)[0] for path in leaves for i in range(1, path.count(".") + 1)}


def _under(path: str, other: str) -> bool:
    return path.startswith(other + ".")


def _same_leaves(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(json_equal(a[p], b[p]) for p in a)


# --- whether our engine takes a start --------------------------------------------------------


def ours_at(games: GameCache, game: str, start: Start) -> LocalEngine:
    """Our engine at the start's position, its steps not played (EngineError when ours
    cannot set it up or write its values)."""
    ref = LocalEngine(games=games)
    ref.new_game(game, start.players, start.options)
    if start.given is not None:
        ref.set_state(start.given)
    return ref


def ours_takes(games: GameCache, game: str, start: Start) -> bool:
    """Whether our engine takes the start: its options, its values, and its steps up to one
    it refuses (every step before that one of our legal events there)."""
    try:
        ref = ours_at(games, game, start)
        for event in start.steps:
            if ref.to_act()[1] or ref.probe(event) is not None:
                break
            ref.apply(ref.legal()[index_in_legal(ref, event)])
    except (EngineError, ValueError, EngineInvariantError):
        return False
    return True


def index_in_legal(ref: LocalEngine, event: Mapping[str, Any]) -> int:
    """Where ``event`` is among our legal events here, however its fields are written
    (ValueError when it is not among them)."""
    game, _ = ref.internals()
    try:
        wanted = canonical(unstructure_event(structure_event(game, event)))
    except MalformedEvent as exc:
        raise ValueError(exc.message) from exc
    for i, legal in enumerate(ref.legal()):
        if canonical(legal) == wanted:
            return i
    raise ValueError(f"not among our legal events here: {dict(event)}")


# --- the positions of the bundled scenarios --------------------------------------------------


def scenario_start(
    games: GameCache, path: Path, game: str, run_options: Mapping[str, Any], seed: int
) -> Aimed | None:
    """The start of a scenario file of ``game`` (None for another game's, a bad file, or a
    position ours cannot take). The scenario's options go on top of the run's (its position
    is written for them). Its ``given.events`` are played as steps when it sets no values;
    else its position (events, then values) is written as values on the setup."""
    try:
        sc = load_scenario(path).scenario
    except BadScenario:
        return None
    if sc.game != game:
        return None
    options = {**run_options, **sc.options}
    start = Start(sc.players, options, seed=seed, steps=(*sc.given.events, *sc.steps))
    if sc.given.state:
        given: dict[str, Any] | None = dict(sc.given.state)
        if sc.given.events:
            state = dict(sc.given.state)
            given = _position_after(games, game, sc.players, options, sc.given.events, state)
        if given is None:
            return None
        start = Start(sc.players, options, given, seed=seed, steps=sc.steps)
    if not ours_takes(games, game, start):
        return None
    refused = sc.expect.illegal.rules() if sc.expect.illegal is not None else ()
    return Aimed(sc.id, SCENARIO, start, sc.rules, refused)


def _position_after(
    games: GameCache,
    game: str,
    players: tuple[str, ...],
    options: dict[str, Any],
    events: tuple[dict[str, Any], ...],
    values: dict[str, Any],
) -> dict[str, Any] | None:
    """The position after ``events`` from the setup with ``values`` set, as values on the
    setup (None when ours cannot reach or write it)."""
    try:
        ref = ours_at(games, game, Start(players, options))
        for event in events:
            if ref.apply(event) is not None:
                return None
        ref.set_state(values)
        units = written(ours_at(games, game, Start(players, options)), ref)
    except (EngineError, EngineInvariantError):
        return None
    return None if units is None else merged(units)


# --- rare ends ---------------------------------------------------------------------------------

Values = Callable[[Position], dict[str, Any] | None]
"""The values that bring a rare end near, read off a position reached by random play; None
where the data in force puts it out of reach (an unlimited supply never runs out)."""


@attrs.frozen
class RareEnd:
    """One rare end of a game: random play for ``after`` events, then ``values``."""

    name: str
    after: int
    values: Values


def _shared_out(total: int, players: list[str]) -> dict[str, int]:
    """``total`` shared among ``players`` as evenly as it goes, the first seats first."""
    each, extra = divmod(total, len(players))
    return {name: each + (1 if i < extra else 0) for i, name in enumerate(players)}


def _players(position: Position) -> list[str]:
    return [str(name) for name in position["players"]]


def palmyra_bank_nearly_dry(position: Position) -> dict[str, Any] | None:
    """PAL-END-02, PAL-END-04: the bank keeps one coin, the rest goes to the players (the
    next tax empties it; random play pays few taxes). None for an unlimited bank."""
    bank = position["bank"]
    if bank is None:
        return None
    keep = min(bank, 1)
    shares = _shared_out(bank - keep, _players(position))
    values: dict[str, Any] = {"bank": keep}
    for name, share in shares.items():
        values[f"players.{name}.coins"] = position[f"players.{name}.coins"] + share
    return values


def pillars_supply_nearly_empty(position: Position) -> dict[str, Any] | None:
    """PIL-PROD-02, PIL-PROD-03: the general supply keeps one cube of each kind; the rest of
    sand, wood and stone goes to the market, the metal to the King's Court. A kind with an
    unlimited supply is left as it is; None when every kind is unlimited."""
    values: dict[str, Any] = {}
    for kind in ("sand", "wood", "stone"):
        held = position[f"supply.{kind}"]
        if held is not None:
            moved = max(held - 1, 0)
            values[f"supply.{kind}"] = held - moved
            values[f"market.{kind}"] = position[f"market.{kind}"] + moved
    held = position["supply.metal"]
    if held is not None:
        metal = max(held - 1, 0)
        values["supply.metal"] = held - metal
        values["kings_court_metal"] = position["kings_court_metal"] + metal
    return values or None


def milestones_points_mark_near(position: Position) -> dict[str, Any]:
    """MIL-END-01, MIL-END-03: every player a few points short of the mark that ends the
    game for this many players."""
    players = _players(position)
    mark = position.rules.data("scoring.end_vp")[len(players)]
    return {f"players.{name}.vp": max(position[f"players.{name}.vp"], mark - 4) for name in players}


def municipium_decurion_short(position: Position) -> dict[str, Any]:
    """MUN-END-01, MUN-END-02: every family one decurion short of the end."""
    needed = position.rules.data("components.decurions_to_end")
    return {f"players.{name}.decurions": needed - 1 for name in _players(position)}


RARE_ENDS: dict[str, tuple[RareEnd, ...]] = {
    "palmyra": (RareEnd("bank-nearly-dry", 30, palmyra_bank_nearly_dry),),
    "pillars": (RareEnd("supply-nearly-empty", 40, pillars_supply_nearly_empty),),
    "milestones": (RareEnd("points-mark-near", 60, milestones_points_mark_near),),
    "municipium": (RareEnd("decurion-short", 40, municipium_decurion_short),),
}
"""Each game's rare ends, tried in turn by the deliberate play-outs."""


def rare_ends(
    games: GameCache,
    game: str,
    players: tuple[str, ...],
    options: Mapping[str, Any],
    seed: int,
    game_no: int | None = None,
) -> list[Aimed]:
    """The rare ends of ``game`` for these players under these options, each reached by
    seeded random play (``seed``) and written as values on the setup; one whose position our
    engine calls unsound or cannot write, or whose game ended first, is left out."""
    starts = []
    for end in RARE_ENDS.get(game, ()):
        start = _rare_end(games, game, Start(players, dict(options), None, game_no, seed), end)
        if start is not None:
            starts.append(Aimed(end.name, RARE_END, start))
    return starts


def _rare_end(games: GameCache, game: str, setup: Start, end: RareEnd) -> Start | None:
    try:
        ref = ours_at(games, game, setup)
    except EngineError:
        return None
    rng = random.Random(setup.seed)
    played = 0
    while played < end.after and not ref.to_act()[1]:
        ref.apply(ref.legal()[ref.choice(rng)])
        played += 1
    if ref.to_act()[1]:
        return None
    values = end.values(ref.position)
    if values is None:
        return None
    try:
        ref.set_state(values)
        units = written(ours_at(games, game, setup), ref)
    except (EngineError, EngineInvariantError):  # a recipe that does not fit this position
        return None
    if units is None or ref.to_act()[1]:
        return None
    return attrs.evolve(setup, given=merged(units))
