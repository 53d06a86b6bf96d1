"""The engine contract every game implements, and the one checked step the oracle uses.

A *Game* object is a rule set: one game, configured by its options and data tables.
A *state* is an immutable attrs instance; the game never mutates it.

    game = make_game("pillars", {})          # reference.registry
    state = game.new_game(("red", "blue"))
    while not game.is_over(state):
        actor = game.to_act(state)           # a player name, or CHANCE
        event = game.legal_events(state)[0]  # for CHANCE: the outcomes
        state = step(game, state, event)     # apply + invariants
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

import attrs
from typing_extensions import TypeVar

from reference.core.catalogue import Catalogue
from reference.core.datafile import DataSet
from reference.core.errors import BadOptions, EngineInvariantError, RuleViolation

CHANCE = "chance"
"""What ``to_act`` returns when the next event is a chance outcome, not a player's choice."""


class Event(Protocol):
    """An action or chance outcome: a frozen attrs class with a ClassVar wire name ``type``."""

    type: ClassVar[str]


@attrs.frozen
class Result:
    """Final scores (the game's own measure) and the winners after its tie-breaks."""

    scores: dict[str, int]
    winners: tuple[str, ...]


S = TypeVar("S", default=Any)
"""A game's state class (a bare ``Game`` is a game of any state class)."""
E = TypeVar("E", default=Any)
"""A game's event classes (their union)."""


class Game(Protocol[S, E]):
    """What the oracle needs from an engine; see docs/engine-contract.md.

    Generic in the game's state class ``S`` and event classes ``E``; a bare ``Game`` (as the
    oracle uses it, for any game) leaves both open.
    """

    # Read-only properties, so a frozen attrs engine class satisfies the protocol too.
    @property
    def name(self) -> str:
        """Short name used in logs and on the command line, e.g. ``pillars``."""

    @property
    def min_players(self) -> int:
        """Fewest players the game takes."""

    @property
    def max_players(self) -> int:
        """Most players the game takes."""

    @property
    def event_types(self) -> tuple[type[E], ...]:
        """Every event class the game accepts; each has a unique ClassVar ``type``."""

    @property
    def state_type(self) -> type[S]:
        """The class of the game's states."""

    @property
    def catalogue(self) -> Catalogue:
        """The game's rule catalogue."""

    @property
    def data(self) -> DataSet:
        """The data tables in force (edition defaults, overridden by any profile)."""

    @property
    def options(self) -> object:
        """The game's own frozen options object."""

    def new_game(self, players: Sequence[str]) -> S:
        """The standard setup for these player names, in seat order."""

    def to_act(self, state: S) -> str:
        """The name of the player who decides next, or ``CHANCE``."""

    def legal_events(self, state: S) -> list[E]:
        """Every legal event here, in a stable order (for CHANCE: every outcome)."""

    def chance_outcomes(self, state: S) -> list[tuple[E, float]]:
        """For a CHANCE node: each outcome with its probability (they sum to 1)."""

    def apply(self, state: S, event: E) -> S:
        """The state after ``event``. Raises RuleViolation (with a catalogue id) if illegal."""

    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""

    def result(self, state: S) -> Result:
        """Scores and winners of a finished game."""

    def invariant_failures(self, state: S) -> list[str]:
        """Every broken invariant of ``state`` (empty when sound). Cheap: runs every step."""


def step(game: Game[S, E], state: S, event: E) -> S:
    """Apply ``event`` and check every invariant of the result.

    Raises:
        RuleViolation: the event is illegal here (the user's fault, with a rule id);
            any event after the end is CORE-END-01.
        MalformedEvent: the event is not one this game knows, or names a player or a
            thing the game does not have (checked first, wherever it comes).
        EngineInvariantError: the engine produced an unsound state (our bug).
    """
    # A rule set on the shared shell (reference/core/ruleset.py) reads the event's names
    # first (an unknown player or name is malformed wherever it comes, even after the end).
    names = getattr(game, "check_names", None)
    if names is not None:
        names(state, event)
    # CORE-END-01: once the game is over, no event may follow.
    if game.is_over(state):
        raise RuleViolation("CORE-END-01", "the game is already over; no event may follow")
    # Its ``apply`` reads the names and asks the end again; its ``apply_not_over`` makes
    # every other check of ``apply``, in the same order, and leaves out only those two.
    not_over = getattr(game, "apply_not_over", None)
    new_state = game.apply(state, event) if not_over is None else not_over(state, event)
    failures = game.invariant_failures(new_state)
    if failures:
        raise EngineInvariantError(failures)
    return new_state


def from_the_one_asked(actor: str, event: object) -> bool:
    """Whether ``event`` comes from ``actor``, the player to act, or, when chance acts
    (``actor`` is CHANCE), is a chance outcome (it names no player). The turn rule
    (``check_actor``) always accepts such an event, whoever else may also be pending."""
    player = getattr(event, "player", None)
    return player is None if actor == CHANCE else player == actor


def check_actor(
    game: Game[S, E],
    state: S,
    event: E,
    rule_id: str,
    pending: Sequence[str] = (),
    actor: str | None = None,
) -> None:
    """Shared turn-order rule: a player event must come from a player whose decision is
    pending (by default only ``to_act``; a set of independent decisions may be taken in any
    order); a chance outcome only when chance acts. ``rule_id`` is the game's own catalogue
    id for it; ``actor``, when given, is ``to_act`` already worked out for this state."""
    if actor is None:
        actor = game.to_act(state)
    player = getattr(event, "player", None)
    if actor == CHANCE:
        if player is not None:
            raise RuleViolation(rule_id, f"a chance outcome is due, not an action by {player}")
    elif player is None:
        raise RuleViolation(rule_id, f"{actor} is to act; a chance outcome is not due")
    elif player not in (pending or (actor,)):
        if len(pending) > 1:
            who = ", ".join(pending)
            raise RuleViolation(rule_id, f"{who} are to act (in any order), not {player}")
        raise RuleViolation(rule_id, f"{actor} is to act, not {player}")


def unsound_setup(game: Game) -> str | None:
    """Why the standard setup breaks the game's own invariants at some player count, or
    None: a bounded check (one setup per count) that a rule set's data can make a sound
    game at all, run when a profile replaces data (the shipped data is checked by tests).
    A count the data cannot set up at all (BadOptions: too few tiles for five kits) is
    left to whoever asks for it: a profile may be meant for fewer players."""
    for count in range(game.min_players, game.max_players + 1):
        try:
            state = game.new_game([f"p{i}" for i in range(count)])
        except BadOptions:
            continue
        failures = game.invariant_failures(state)
        if failures:
            return f"the setup for {count} players is unsound: {'; '.join(failures)}"
    return None


_NAME_CHARACTERS = frozenset(string.ascii_letters + string.digits + "_-")
"""What a player name is made of: the log and protocol schemas' ``^[A-Za-z0-9_-]+$``."""


def player_names_ok(players: Sequence[str], low: int, high: int) -> str | None:
    """Why a list of player names is unusable, or None. Names are unique non-empty words
    of ASCII letters, digits, '-' and '_' (as the schemas say: a Unicode letter such as
    'é' is refused, so a valid log always fits log.schema.json)."""
    if not low <= len(players) <= high:
        return f"{len(players)} players; this game takes {low} to {high}"
    if len(set(players)) != len(players):
        return "player names must be unique"
    for name in players:
        if not name or not _NAME_CHARACTERS.issuperset(name) or name == CHANCE:
            return f"bad player name {name!r}: use ASCII letters, digits, '-' or '_' (not 'chance')"
    return None
