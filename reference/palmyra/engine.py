"""The Palmyra rule set: the ``Game`` protocol over the handlers of the rules modules."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reference.core.aliases import Term
from reference.core.datafile import DataSet
from reference.core.errors import RuleViolation
from reference.core.game import Event, Result
from reference.core.ruleset import Handler, RuleSet
from reference.palmyra import events as ev
from reference.palmyra import fields, invariants, legal, rules_setup
from reference.palmyra.draws import choose_extra, draw_tile
from reference.palmyra.options import SOLO, PalmyraOptions
from reference.palmyra.rules_chain import end_chain, flip_tile, place_tile, start_chain
from reference.palmyra.rules_reorg import end_moves, move_piece, reorganise
from reference.palmyra.state import (
    CHAIN,
    CHOOSE,
    CONQUER,
    MOVE,
    OVER,
    PIECES,
    REORGANISE,
    TAX,
    State,
)
from reference.palmyra.tables import Config, read_tables
from reference.palmyra.tiles import ICONS, LANDSCAPES, TILES

PACKAGE_DIR = Path(__file__).parent


def end_action(cfg: Config, state: State, event: ev.EndAction) -> State:
    """PAL-TURN-02: end_action closes a chain or a Reorganise, nothing else."""
    if state.phase == CHAIN:
        return end_chain(cfg, state, event)
    if state.phase == MOVE:
        return end_moves(cfg, state, event)
    raise RuleViolation("PAL-TURN-02", "no action is in progress to end")


HANDLERS: dict[type[Event], Handler[Config, State]] = {
    ev.Conquer: start_chain,
    ev.CollectTaxes: start_chain,
    ev.FlipTile: flip_tile,
    ev.PlaceTile: place_tile,
    ev.EndAction: end_action,
    ev.ChooseExtraTile: choose_extra,
    ev.Reorganise: reorganise,
    ev.MovePiece: move_piece,
    ev.DrawTile: draw_tile,
}
"""One handler per event class (a contract test checks the two lists match)."""


EVENT_RULES: dict[type, str] = {
    ev.Conquer: "PAL-CONQ-01",
    ev.CollectTaxes: "PAL-TAX-01",
    ev.FlipTile: "PAL-TAX-03",
    ev.PlaceTile: "PAL-PLACE-01",
    ev.EndAction: "PAL-TURN-02",
    ev.ChooseExtraTile: "PAL-CONQ-03",
    ev.Reorganise: "PAL-REORG-01",
    ev.MovePiece: "PAL-REORG-02",
    ev.DrawTile: "PAL-DRAW-01",
}
"""The rule of each event class: what its changes are put down to when no trace point says
more (the rules' own trace points credit a tax payout to PAL-TAX-02, its bonus to
PAL-TAX-05, ...), and the rule under which it is legal."""


SETUP_MADE: dict[str, tuple[str, ...]] = {
    "PAL-SETUP-01": ("city",),
    "PAL-SETUP-02": ("players.*.legion", "players.*.censor"),
    "PAL-SETUP-03": ("players.*.coins", "draws_due"),
    "PAL-SETUP-05": ("current",),
    "PAL-SETUP-06": ("bank",),
    "PAL-TILE-02": ("large_stack", "small_stack"),
}
"""Which setup rule makes which values (explanations; the rest is the game's bookkeeping).
The advanced game's extra coin (PAL-SETUP-04) is part of the starting coins."""


class PalmyraGame(RuleSet[PalmyraOptions, Config, State, Event]):
    """Palmyra (Eisenstein, Irongames 2013) in standard, advanced or solo mode.

    ``tables`` is the rule set in force (``Config``: the data tables and the options), what
    every handler gets first.

    >>> from reference.palmyra import make
    >>> game = make({})
    >>> state = game.new_game(["red", "blue"])
    >>> game.to_act(state)
    'chance'
    """

    name = "palmyra"
    turn_rule = "PAL-TURN-01"
    package_dir = PACKAGE_DIR
    options_type = PalmyraOptions
    event_types: tuple[type[Event], ...] = ev.EVENT_TYPES
    state_type = State
    handlers = HANDLERS
    event_rules = EVENT_RULES
    result_rule = "PAL-END-03"
    setup_made = SETUP_MADE
    legal_rules = legal
    setup_rules = rules_setup
    check_fields = staticmethod(fields.check_fields)
    """An unknown piece, tile code, stack or size, or a cell not written ``x,y``, is
    malformed: read before any rule."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        # PAL-SOLO-01: the solo game is for one player; the others for 2-5.
        solo = self.options.mode == SOLO
        self.min_players = 1 if solo else 2
        self.max_players = 1 if solo else 5
        self._memo = invariants.Memo()
        """The last state whose tiles and lattice were found sound, for this rule set only."""

    def why_to_act(self, state: State, player: str) -> str:
        """Why ``player`` is asked now, with the rule id (what a PAL-TURN-01 verdict adds)."""
        if state.phase == CHAIN:
            return f"{player} is placing tiles in an action and ends it first (PAL-TURN-02)"
        if state.phase == MOVE:
            return f"{player} is moving pieces after Reorganise (PAL-REORG-02)"
        if state.phase == CHOOSE:
            return f"{player} names the stack of the odd earned tile (PAL-CONQ-03)"
        return f"it is {player}'s turn, seats in order from the first (PAL-SETUP-05)"

    def vocabulary(self) -> tuple[Term, ...]:
        """The event types, land tiles (by code), landscapes, icons, pieces and actions."""
        return (
            *super().vocabulary(),
            *(Term(code, "land tile", "tiles.mix") for code in TILES),
            *(Term(name, f"landscape ({key} in tile codes)") for key, name in LANDSCAPES.items()),
            *(Term(name, f"icon ({key} in tile codes)") for key, name in ICONS.items()),
            *(Term(piece, "piece") for piece in PIECES),
            *(Term(action, "action") for action in (CONQUER, TAX, REORGANISE)),
        )

    def scoring_rule(self) -> str:
        """Most coins wins (PAL-END-03); the solo game is won by the target (PAL-SOLO-03)."""
        return "PAL-SOLO-03" if self.tables.solo else "PAL-END-03"

    def read_tables(self, data: DataSet, options: PalmyraOptions) -> Config:
        """The typed tables (PAL data keys) with the options; data that cannot set up even
        the fewest players is refused here, when the game is made."""
        cfg = Config(read_tables(data), options)
        rules_setup.starting_kits(cfg, 1 if cfg.solo else 2)
        return cfg

    def is_over(self, state: State) -> bool:
        """Whether the game has ended (PAL-END-01, PAL-END-02)."""
        return state.phase == OVER

    def result(self, state: State) -> Result:
        """Coins as scores; most coins wins, then most face-down tiles (PAL-END-03), a full
        tie is shared (PAL-END-05); the solo player wins with at least the target
        (PAL-SOLO-03)."""
        scores = {name: p.coins for name, p in state.players.items()}
        if self.tables.solo:
            winners = tuple(n for n, c in scores.items() if c >= self.tables.tables.solo_target)
            return Result(scores, winners)
        best = max((p.coins, len(p.face_down)) for p in state.players.values())
        winners = tuple(n for n, p in state.players.items() if (p.coins, len(p.face_down)) == best)
        return Result(scores, winners)

    def invariant_failures(self, state: State) -> list[str]:
        """Every broken invariant of ``state`` (empty when sound): the tiles and the lattice
        on what changed since the last sound state (``invariants.Memo``), the same answer
        as ``invariants.invariant_failures``."""
        return invariants.failures(self.tables, state, self._memo)
