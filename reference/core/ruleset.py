"""The shell every game's rule set stands in: what is the same in every game, written once.

A game subclasses ``RuleSet`` and supplies its own parts:

- ``name``, ``turn_rule`` (its ``*-TURN-01`` id), ``package_dir`` (where ``data/`` is),
  ``options_type``, ``event_types``, ``state_type`` and ``handlers`` (one table, event class
  to handler, each handler a pure ``(tables, state, event) -> state``);
- ``read_tables(data, options)``: its typed tables (what every handler gets first);
- ``legal_rules`` (its ``legal.py``: ``to_act``, ``legal_events``, ``chance_outcomes``, each
  taking the tables and the state) and ``setup_rules`` (the module with
  ``new_game(tables, players)``);
- ``is_over``, ``result`` and ``invariant_failures`` (the rest of the ``Game`` protocol);
- optionally ``check_fields`` (its fields with a fixed list of names or codes: an unknown
  one makes the event malformed), ``before_event`` (a check every event passes first, e.g.
  the Pillars craftsman limit) and ``after_event`` (a consequence of every event, e.g.
  Municipium's end modes);
- for explanations: ``event_rules`` (the rule of each event class), ``result_rule`` (the
  scoring rule) and a ``recorder`` field on its tables (None in play), which its trace
  points note into (reference/core/trace.py); ``recording`` makes the copy that records.

The shell does the rest: reading options and the profile, loading the catalogue and data,
checking player names, and, in ``apply``, the order every game judges an event in: first
whether it can be read at all (a known event type, its ``player`` one of the game's players,
every field with a fixed list of names or codes naming one of them: ``check_names``, else
MalformedEvent, whatever the position), then the rules: game not over (CORE-END-01), right
actor (the game's turn rule), the game's pre-event check, the handler (its phase, then its
own rules), the game's post-event step. ``apply_not_over`` is the rules but the end check,
for ``reference.core.game.step``, which reads the names and asks the end first itself (so a
step asks it once).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from copy import copy as clone
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

import attrs

from reference.core.aliases import Term
from reference.core.catalogue import Catalogue
from reference.core.datafile import DataSet
from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import (
    CHANCE,
    Event,
    Result,
    check_actor,
    from_the_one_asked,
    player_names_ok,
)
from reference.core.options import load_rules_and_data, read_options

if TYPE_CHECKING:  # the recorder is imported only where a value is explained (a cheap start)
    from reference.core.trace import Recorder

O = TypeVar("O")  # noqa: E741 - the game's options class
T = TypeVar("T")
S = TypeVar("S")
E = TypeVar("E", bound=Event)

T_in = TypeVar("T_in", contravariant=True)
S_in = TypeVar("S_in", contravariant=True)
S_out = TypeVar("S_out", covariant=True)
E_any = TypeVar("E_any")


class LegalRules(Protocol[T_in, S_in, E_any]):
    """What a game's ``legal.py`` module provides: who acts and what may happen."""

    def to_act(self, tables: T_in, state: S_in, /) -> str:
        """The player who decides next, or CHANCE."""

    def legal_events(self, tables: T_in, state: S_in, /) -> list[E_any]:
        """Every legal event here, in a stable order (for CHANCE: every outcome)."""

    def chance_outcomes(self, tables: T_in, state: S_in, /) -> list[tuple[E_any, float]]:
        """For a CHANCE node: each outcome with its probability (else empty)."""


class SetupRules(Protocol[T_in, S_out]):
    """What a game's setup module provides: the standard setup."""

    def new_game(self, tables: T_in, players: Sequence[str], /) -> S_out:
        """The setup for these (already checked) player names in seat order."""


Handler = Callable[[T, S, Any], S]
"""One event's rule: (the game's tables, the state, the event) -> the state after it.
(Any: each handler takes its own event class; the dispatch table pairs them.)"""

GAME_OVER_MESSAGE = "the game is over; no event may follow"
"""CORE-END-01's one message, whatever the game."""


class RuleSet(Generic[O, T, S, E]):
    """A game's rules, configured by its options and data tables (see the module doc)."""

    name: ClassVar[str]
    turn_rule: ClassVar[str]
    package_dir: ClassVar[Path]
    min_players: int = 2
    max_players: int = 4
    options_type: type[O]
    event_types: tuple[type[E], ...]
    state_type: type[S]
    handlers: Mapping[type[E], Handler[T, S]]
    step_rule: ClassVar[str | None] = None
    """The game's rule refusing an event whose step is not now (``PIL-TURN-02``): a
    refusal by it says, too, why the player is not asked for that event (``why_not``)."""
    event_rules: ClassVar[Mapping[type, str]] = {}
    """The rule id each event class's changes are put down to when no trace point says
    more, and the rule under which an event of that class is legal (explanations)."""
    result_rule: ClassVar[str] = ""
    """The rule that makes the scores and winners of a finished game (explanations)."""
    setup_made: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """Each setup rule with the state paths it makes (``*``: any one segment, e.g.
    ``players.*.gold``); a recording rule set notes them once the setup is made."""
    legal_rules: LegalRules[T, S, E]
    """The game's legal.py: to_act, legal_events, chance_outcomes."""
    setup_rules: SetupRules[T, S]
    """The game's setup module: new_game(tables, players)."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        """Read ``options`` (a ``profile`` key replaces data values) and the game's data.

        Raises:
            BadOptions: an unknown option or value, or a profile the tables refuse.
        """
        parsed, profile = read_options(options, self.options_type)
        catalogue, data = load_rules_and_data(self.package_dir, profile)
        self.options: O = parsed
        self.catalogue: Catalogue = catalogue
        self.data: DataSet = data
        self.tables: T = self.read_tables(data, parsed)
        self._last_turn: tuple[object, str, tuple[str, ...] | None] = (None, "", None)
        """The last state whose turn was asked (kept, so its identity stays its own), the
        player to act there and, once asked, the pending players: an event's checks ask
        several times about one state, the game's rules answer once."""

    # -- what each game supplies ---------------------------------------------------------

    def read_tables(self, data: DataSet, options: O) -> T:
        """The game's typed tables from the data in force (BadOptions for a bad profile)."""
        raise NotImplementedError

    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""
        raise NotImplementedError

    def result(self, state: S) -> Result:
        """Scores and winners of a finished game."""
        raise NotImplementedError

    def invariant_failures(self, state: S) -> list[str]:
        """Every broken invariant of ``state`` (empty when sound)."""
        raise NotImplementedError

    def check_names(self, state: S, event: E) -> None:
        """Raise MalformedEvent when the event names something the game does not have: a
        ``player`` who is not one of its players, or a name or code no field of its kind
        has (``check_fields``). Checked before any rule, even the end and the turn rule: an
        event that cannot be read is malformed wherever it comes."""
        player = getattr(event, "player", None)
        players = getattr(state, "players", None)
        if player is not None and players is not None and player not in players:
            known = ", ".join(players)
            raise MalformedEvent(
                f"player {player!r} is not in this game (players: {known})", "player"
            )
        self.check_fields(state, event)

    def check_fields(self, state: S, event: E) -> None:
        """A game's own fields with a fixed list of names or codes (an institution, a tile
        code, a resource): MalformedEvent for one that names nothing (none by default)."""

    def recording(self, recorder: Recorder) -> RuleSet[O, T, S, E]:
        """A copy of this rule set whose trace points note into ``recorder`` (used only to
        explain a value; see reference/core/trace.py): the same rules, with tables whose
        ``recorder`` field is set. A game whose tables have no such field has no trace
        points: it returns itself, and its changes are put down to ``event_rule``."""
        tables: Any = self.tables
        if not attrs.has(type(tables)) or "recorder" not in attrs.fields_dict(type(tables)):
            return self
        copy = clone(self)
        copy.tables = attrs.evolve(tables, recorder=recorder)
        copy._last_turn = (None, "", None)
        return copy

    def scoring_rule(self) -> str:
        """The rule that makes a finished game's scores and winners (``result_rule``; a
        game whose modes score differently says which)."""
        return self.result_rule

    def event_rule(self, event: E) -> str:
        """The rule an event's changes are put down to when no trace point says more
        (``event_rules``, by event class; else the event type's name)."""
        return self.event_rules.get(type(event), f"the {event.type} event")

    def pending(self, state: S) -> tuple[str, ...]:
        """Every player whose decision is due now. Usually the one player to act; a game
        whose rules make a set of decisions independent of each other (each player's own,
        none changing another's) returns them all, and the turn rule accepts them in any
        order. ``to_act`` still names one: the first of them."""
        return (self.to_act(state),)

    def why_to_act(self, state: S, player: str) -> str:
        """Why ``player`` is asked now, with the rule id (empty when the game says nothing
        more than whose turn it is): what a turn-rule verdict adds to "X is to act"."""
        return ""

    def vocabulary(self) -> tuple[Term, ...]:
        """The game's own ids, the names its logs and scenarios use, each with what it is
        (``rules-oracle explain jack``): the shell lists the event types with the rule each
        rests on; a game adds its cards, pieces, places and the like."""
        return tuple(
            Term(
                cls.type, "event type", rules=(rule,) if (rule := self.event_rules.get(cls)) else ()
            )
            for cls in self.event_types
        )

    def why_not(self, state: S, event: E) -> str:
        """Why the player of ``event`` is not asked for it now, in the game's words with
        the rule id (a King's Court occupant pays no tax, so is not asked about the tax
        exemption: PIL-ADV-08); empty when the game says nothing more than the refusal.
        What a turn-rule or step-rule verdict adds about the refused player."""
        return ""

    def owes(self, state: S, player: str) -> str:
        """What ``player`` owes before the game can go on (a discard over a limit), in the
        game's words with the rule id; empty when nothing. The oracle dates it: a verdict
        says since which event it is owed, with these words as they read right after that
        event (so they can name the step at which it fell due)."""
        return ""

    def before_event(self, state: S, event: E) -> None:
        """A check every event passes after the turn rule (none unless a game has one)."""

    def after_event(self, before: S, after: S) -> S:
        """A consequence of every event, given the states before and after its handler."""
        return after

    # -- what is the same in every game --------------------------------------------------

    def to_act(self, state: S) -> str:
        """The player who decides next, or CHANCE (worked out once per state)."""
        last = self._last_turn
        if last[0] is state:
            return last[1]
        actor = self.legal_rules.to_act(self.tables, state)
        self._last_turn = (state, actor, None)
        return actor

    def _turn_facts(self, state: S) -> tuple[str, tuple[str, ...]]:
        """The player to act and the pending players, worked out once per state."""
        last = self._last_turn
        if last[0] is state and last[2] is not None:
            return last[1], last[2]
        actor = self.to_act(state)
        due = self.pending(state)
        self._last_turn = (state, actor, due)
        return actor, due

    def legal_events(self, state: S) -> list[E]:
        """Every legal event here, in a stable order (for CHANCE: every outcome)."""
        return self.legal_rules.legal_events(self.tables, state)

    def chance_outcomes(self, state: S) -> list[tuple[E, float]]:
        """For a CHANCE node: each outcome with its probability."""
        return self.legal_rules.chance_outcomes(self.tables, state)

    def new_game(self, players: Sequence[str]) -> S:
        """The standard setup for these player names, in seat order.

        Raises:
            BadOptions: too few or too many players, or a bad or repeated name.
        """
        problem = player_names_ok(players, self.min_players, self.max_players)
        if problem:
            raise BadOptions(problem)
        state = self.setup_rules.new_game(self.tables, players)
        recorder: Recorder | None = getattr(self.tables, "recorder", None)
        if recorder is not None:
            # Trace points of the setup: which setup rule made which values.
            for rule_id, made in self.setup_made.items():
                recorder.note(rule_id, state, made)
        return state

    def apply(self, state: S, event: E) -> S:
        """The state after ``event``.

        Raises:
            MalformedEvent: the event is not one of this game's event classes.
            RuleViolation: the event breaks a rule here (with its catalogue id); any event
                after the end is CORE-END-01.
        """
        self._handler(event)
        self.check_names(state, event)
        # CORE-END-01: once the game has ended no event is accepted.
        if self.is_over(state):
            raise RuleViolation("CORE-END-01", GAME_OVER_MESSAGE)
        return self.apply_not_over(state, event)

    def apply_not_over(self, state: S, event: E) -> S:
        """``apply`` for an event whose names its caller has read (``check_names``) in a
        state it has just found not over: every other check, in the same order.
        ``reference.core.game.step`` does both first (its own CORE-END-01) and then calls
        this, so a step asks the end once, not twice. Never call it without those checks:
        they are the ones this leaves out."""
        handler = self.handlers.get(type(event))
        if handler is None:
            handler = self._handler(event)  # raises MalformedEvent
        # <GAME>-TURN-01: only the player to act (or chance, for a chance outcome) acts.
        self.check_turn(state, event)
        self.before_event(state, event)
        try:
            after = handler(self.tables, state, event)
        except RuleViolation as exc:
            if exc.rule_id != self.step_rule:
                raise
            raise self._why_not_added(exc, state, event) from None
        return self.after_event(state, after)

    def _why_not_added(self, exc: RuleViolation, state: S, event: E) -> RuleViolation:
        """``exc`` with why the event's player is not asked for it now, when the game says."""
        why = self.why_not(state, event) if getattr(event, "player", None) else ""
        return RuleViolation(exc.rule_id, f"{exc.message}; {why}") if why else exc

    def _handler(self, event: E) -> Handler[T, S]:
        """The event's handler; MalformedEvent when it is not one of this game's events."""
        handler = self.handlers.get(type(event))
        if handler is None:
            known = ", ".join(cls.type for cls in self.event_types)
            raise MalformedEvent(
                f"not a {self.name} event: {type(event).__name__} (known types: {known})"
            )
        return handler

    def check_turn(self, state: S, event: E) -> None:
        """The game's turn rule: any pending player may act (see ``pending``); a verdict
        says why the player to act is asked (``why_to_act``) and why the refused player
        is not (``why_not``), built only when it is given.
        The turn facts are worked out once for this state and given to ``check_actor``."""
        # The one asked is always let through: the player to act is the first of the
        # pending players, so only an event from anybody else needs them worked out.
        if from_the_one_asked(self.to_act(state), event):
            return
        actor, due = self._turn_facts(state)
        try:
            check_actor(self, state, event, self.turn_rule, due, actor)
        except RuleViolation as exc:
            why = self.why_to_act(state, actor) if actor != CHANCE else ""
            told = RuleViolation(exc.rule_id, f"{exc.message}: {why}") if why else exc
            raise self._why_not_added(told, state, event) from None


def missing_handlers(rules: RuleSet[Any, Any, Any, Any]) -> list[str]:
    """Event classes without a handler and handlers without an event class (should be [])."""
    missing = [cls.__name__ for cls in rules.event_types if cls not in rules.handlers]
    extra = [cls.__name__ for cls in rules.handlers if cls not in rules.event_types]
    return missing + extra
