"""Positions a conform play-out may start from besides the setup: the positions of the
bundled scenarios, and positions near each game's rare ends (oracle/coverage.py plays
from them, docs/conformance.md).

A start is a game from the setup (players, options), a few events from there and then
values set by state path, as a scenario's ``given`` is. A rare end is built the same way:
seeded random play up to a point, then values that bring an end the random game seldom
reaches within a few turns (the bank nearly dry, a family one decurion short), each moved
from elsewhere so that what the game conserves stays conserved (coins, cubes).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from oracle.formats.converter import structure_event, unstructure_event
from oracle.formats.scenario import BadScenario, load_scenario
from oracle.games import GameCache
from oracle.position import Position
from oracle.protocol import EngineError
from oracle.refengine import LocalEngine
from oracle.scenarios import canonical
from reference.core.errors import MalformedEvent
from reference.core.paths import UnknownPath

SCENARIO = "scenario"
RARE_END = "rare end"


@attrs.frozen
class Start:
    """A position to play from: the setup for ``players`` under ``options``, then ``events``,
    then ``state`` set by path; a scenario's ``steps`` are played first from there (a step
    ours refuses is sent as a probe, and ends the steps)."""

    name: str
    kind: str
    players: tuple[str, ...]
    options: dict[str, Any] = attrs.field(factory=dict)
    events: tuple[dict[str, Any], ...] = ()
    state: dict[str, Any] = attrs.field(factory=dict)
    steps: tuple[dict[str, Any], ...] = ()
    rules: tuple[str, ...] = ()
    """The rules the start is about (a scenario's citations)."""
    refused_by: tuple[str, ...] = ()
    """The rules one of its steps is refused by (a scenario's ``expect.illegal``)."""


def scenario_start(path: Path, game: str, run_options: Mapping[str, Any]) -> Start | None:
    """The start of a scenario file of ``game`` (None for another game's or a bad file).
    The run's own options go on top of the scenario's."""
    try:
        sc = load_scenario(path).scenario
    except BadScenario:
        return None
    if sc.game != game:
        return None
    return Start(
        name=sc.id,
        kind=SCENARIO,
        players=sc.players,
        options={**sc.options, **run_options},
        events=sc.given.events,
        state=dict(sc.given.state),
        steps=sc.steps,
        rules=sc.rules,
        refused_by=sc.expect.illegal.rules() if sc.expect.illegal is not None else (),
    )


# --- rare ends ---------------------------------------------------------------------------------

Values = Callable[[Position], dict[str, Any]]
"""The values that bring a rare end near, read off a position reached by random play."""


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


def palmyra_bank_nearly_dry(position: Position) -> dict[str, Any]:
    """PAL-END-02, PAL-END-04: the bank keeps one coin, the rest goes to the players (the
    next tax empties it; random play pays few taxes)."""
    bank = position["bank"]
    keep = min(bank, 1)
    shares = _shared_out(bank - keep, _players(position))
    values: dict[str, Any] = {"bank": keep}
    for name, share in shares.items():
        values[f"players.{name}.coins"] = position[f"players.{name}.coins"] + share
    return values


def pillars_supply_nearly_empty(position: Position) -> dict[str, Any]:
    """PIL-PROD-02, PIL-PROD-03: the general supply keeps one cube of each kind; the rest of
    sand, wood and stone goes to the market, the metal to the King's Court."""
    values: dict[str, Any] = {}
    for kind in ("sand", "wood", "stone"):
        moved = max(position[f"supply.{kind}"] - 1, 0)
        values[f"supply.{kind}"] = position[f"supply.{kind}"] - moved
        values[f"market.{kind}"] = position[f"market.{kind}"] + moved
    metal = max(position["supply.metal"] - 1, 0)
    values["supply.metal"] = position["supply.metal"] - metal
    values["kings_court_metal"] = position["kings_court_metal"] + metal
    return values


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
    games: GameCache, game: str, players: tuple[str, ...], options: Mapping[str, Any], seed: int
) -> list[Start]:
    """The rare ends of ``game`` for these players, each reached by seeded random play
    (``seed``) and set by path; one whose position our engine calls unsound, or whose game
    ended first, is left out."""
    starts = []
    for end in RARE_ENDS.get(game, ()):
        start = _rare_end(games, game, players, dict(options), seed, end)
        if start is not None:
            starts.append(start)
    return starts


def _rare_end(
    games: GameCache,
    game: str,
    players: tuple[str, ...],
    options: dict[str, Any],
    seed: int,
    end: RareEnd,
) -> Start | None:
    ref = LocalEngine(games=games)
    try:
        ref.new_game(game, players, options)
    except EngineError:
        return None
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    while len(events) < end.after and not ref.to_act()[1]:
        event = ref.legal()[ref.choice(rng)]
        ref.apply(event)
        events.append(event)
    if ref.to_act()[1]:
        return None
    values = end.values(ref.position)
    try:
        ref.position.with_values(values)
    except (UnknownPath, MalformedEvent):  # a recipe that does not fit this position
        return None
    return Start(
        name=end.name,
        kind=RARE_END,
        players=players,
        options=options,
        events=tuple(events),
        state=values,
    )


def start_choices(games: GameCache, game: str, start: Start) -> list[int] | None:
    """The start's events as choices into our legal lists (None when ours cannot take the
    start: its options, an event, its values or a step refused)."""
    ref = LocalEngine(games=games)
    try:
        ref.new_game(game, start.players, start.options)
        choices = []
        for event in start.events:
            index = index_in_legal(ref, event)
            choices.append(index)
            ref.apply(ref.legal()[index])
        if start.state:
            ref.set_state(start.state)
        for event in start.steps:
            if ref.probe(event) is not None:
                break
            ref.apply(ref.legal()[index_in_legal(ref, event)])
    except (EngineError, ValueError):
        return None
    return choices


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
