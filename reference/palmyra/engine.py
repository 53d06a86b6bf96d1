"""The Palmyra rule set: setup, who acts, the legal events, apply, the end and the result."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reference.core.catalogue import Catalogue
from reference.core.datafile import DataSet
from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import CHANCE, Result, check_actor, player_names_ok
from reference.palmyra import invariants
from reference.palmyra.common import finish, position
from reference.palmyra.draws import (
    after_draws,
    chance_draws,
    choose_extra,
    draw_tile,
    stacks_empty,
)
from reference.palmyra.events import (
    EVENT_TYPES,
    ChooseExtraTile,
    CollectTaxes,
    Conquer,
    DrawTile,
    EndAction,
    FlipTile,
    MovePiece,
    PlaceTile,
    Reorganise,
)
from reference.palmyra.lattice import CENTRE
from reference.palmyra.options import PalmyraOptions
from reference.palmyra.rules_chain import (
    can_place,
    check_can_end,
    end_chain,
    flip_tile,
    holds_emperor,
    place_tile,
    placements,
    start_chain,
)
from reference.palmyra.rules_reorg import end_moves, move_piece, move_targets, reorganise
from reference.palmyra.state import (
    CENSOR,
    CHAIN,
    CHOOSE,
    DRAW,
    LEGION,
    MOVE,
    OVER,
    SETUP,
    TAX,
    TURN,
    Draw,
    PlayerState,
    State,
)
from reference.palmyra.tables import Config
from reference.palmyra.tiles import LARGE, SMALL, STACK_SIZES, TILES

TURN_RULE = "PAL-TURN-01"


class PalmyraGame:
    """Palmyra (Eisenstein, Irongames 2013) in standard, advanced or solo mode.

    >>> from reference.palmyra import make
    >>> game = make({})
    >>> state = game.new_game(["red", "blue"])
    >>> game.to_act(state)
    'chance'
    """

    name: str = "palmyra"
    event_types: tuple[type[Any], ...] = EVENT_TYPES
    state_type: type[Any] = State

    def __init__(
        self, options: PalmyraOptions, catalogue: Catalogue, data: DataSet, cfg: Config
    ) -> None:
        self.options = options
        self.catalogue = catalogue
        self.data = data
        self.cfg = cfg
        self.tables = cfg.tables
        solo = options.mode == "solo"
        self.min_players = 1 if solo else 2
        self.max_players = 1 if solo else 5
        self._memo = invariants.Memo()
        """What the last invariant check found, for this rule set only."""

    # -- setup -----------------------------------------------------------------------

    def new_game(self, players: Sequence[str]) -> State:
        """The setup: city centre, pieces in it, seat kits dealt by chance (PAL-SETUP-*).

        >>> from reference.palmyra import make
        >>> make({}).new_game(["a", "b"]).bank
        118
        """
        problem = player_names_ok(players, self.min_players, self.max_players)
        if problem:
            raise BadOptions(problem)
        t = self.tables
        solo = self.options.mode == "solo"
        # PAL-SOLO-01: the solo game is set up as for two players, with seat 1's kit.
        count = 2 if solo else len(players)
        if count not in t.city_layouts:
            raise BadOptions(f"data city.layouts: no layout for {count} players")
        kits = [t.kits[t.solo_kit_seat - 1]] if solo else list(t.kits[: len(players)])
        # PAL-SETUP-04: in the advanced game every player gets extra coins.
        extra = t.advanced_extra_coins if self.options.mode == "advanced" else 0
        # PAL-SETUP-06: starting coins come out of the bank.
        coins = [kit.coins + extra for kit in kits]
        if sum(coins) > t.bank_total:
            raise BadOptions("data bank.total: the bank cannot pay the starting coins")
        large = {c: n for c, n in t.mix.items() if TILES[c].stack == LARGE}
        small = {c: n for c, n in t.mix.items() if TILES[c].stack == SMALL}
        if sum(k.large for k in kits) > sum(large.values()) or sum(k.small for k in kits) > sum(
            small.values()
        ):
            raise BadOptions("data tiles.mix: too few tiles for the starting kits")
        draws: list[Draw] = []
        for name, kit in zip(players, kits, strict=True):
            draws += [Draw(name, LARGE)] * kit.large + [Draw(name, SMALL)] * kit.small
        # PAL-SETUP-02: every legion and censor starts in the city centre.
        state = State(
            players={
                name: PlayerState(coins=c, legion=CENTRE, censor=CENTRE)
                for name, c in zip(players, coins, strict=True)
            },
            # PAL-SETUP-05: the first seat starts; play goes on in seat order.
            current=players[0],
            phase=SETUP,
            board={},
            # PAL-SETUP-01: the city centre for this player count.
            city=t.city_layouts[count],
            large_stack=large,
            small_stack=small,
            bank=t.bank_total - sum(coins),
            removed=0,
            draws_due=tuple(draws),
        )
        if not draws:
            state = after_draws(self.cfg, state)
            # PAL-END-01: with both stacks empty from the start no tile can ever be drawn.
            if self.options.tiles_end == "stacks_empty" and stacks_empty(state):
                state = finish(state, "tiles")
        return state

    # -- who acts, what may happen ---------------------------------------------------

    def to_act(self, state: State) -> str:
        """The player to act, or CHANCE while tiles are being drawn."""
        if state.phase in (SETUP, DRAW):
            return CHANCE
        return state.current

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        """Each tile the next draw may turn up, weighted by how many are in the stack."""
        if state.phase not in (SETUP, DRAW):
            return []
        return list(chance_draws(state))

    def legal_events(self, state: State) -> list[Any]:
        """Every legal event here, in a stable order."""
        phase = state.phase
        if phase in (SETUP, DRAW):
            return [event for event, _ in chance_draws(state)]
        if phase == OVER:
            return []
        name = state.current
        if phase == TURN:
            return self._action_choices(state, name)
        if phase == CHAIN:
            return self._chain_choices(state, name)
        if phase == CHOOSE:
            return [ChooseExtraTile(name, size) for size in STACK_SIZES]
        found: list[Any] = []
        for piece in (LEGION, CENSOR):
            found += [MovePiece(name, piece, to) for to in move_targets(state, name, piece)]
        return [*found, EndAction(name)]

    def _action_choices(self, state: State, name: str) -> list[Any]:
        cfg = self.cfg
        player = state.players[name]
        emperor = holds_emperor(state, name)
        found: list[Any] = []
        for cls, own in ((Conquer, LEGION), (CollectTaxes, CENSOR)):
            for piece in (LEGION, CENSOR):
                if (piece == own or emperor) and can_place(
                    cfg, state, player.supply, position(player, piece)
                ):
                    found.append(cls(name, piece))
        stacks = [s for s in STACK_SIZES if any(self._stack(state, s).values())]
        buy = [False]
        if (
            self.options.mode == "advanced"
            and not emperor
            and player.coins >= self.tables.emperor_price
        ):
            buy.append(True)
        for s in stacks or list(STACK_SIZES):
            found += [Reorganise(name, s, take) for take in buy]
        return found

    @staticmethod
    def _stack(state: State, size: str) -> dict[str, int]:
        return state.large_stack if size == LARGE else state.small_stack

    def _chain_choices(self, state: State, name: str) -> list[Any]:
        cfg = self.cfg
        player = state.players[name]
        action = state.action
        pos = position(player, action.piece)
        found: list[Any] = []
        if not action.closed:
            found += [
                PlaceTile(name, code, cell)
                for code, cell in placements(cfg, state, player.supply, pos)
            ]
        if action.kind == TAX and not action.flipped:
            for code in sorted(set(player.supply)):
                if self._flip_ok(state, name, code):
                    found.append(FlipTile(name, code))
        try:
            check_can_end(cfg, state)
            found.append(EndAction(name))
        except RuleViolation:
            pass
        return found

    def _flip_ok(self, state: State, name: str, code: str) -> bool:
        try:
            flip_tile(self.cfg, state, FlipTile(name, code))
        except RuleViolation:
            return False
        return True

    # -- apply -----------------------------------------------------------------------

    def apply(self, state: State, event: Any) -> State:
        """The state after ``event``.

        Raises:
            RuleViolation: the event is illegal here (with its PAL-* rule id).
            MalformedEvent: the event is not a Palmyra event or a field is unreadable.
        """
        handler = _HANDLERS.get(type(event))
        if handler is None:
            known = ", ".join(cls.type for cls in EVENT_TYPES)
            raise MalformedEvent(f"{type(event).__name__} is not a Palmyra event (known: {known})")
        # CORE-END-01: once the game has ended no event is accepted.
        if state.phase == OVER:
            raise RuleViolation("CORE-END-01", "the game is over")
        # PAL-TURN-01: only the player to act acts; chance draws only when a draw is due.
        check_actor(self, state, event, TURN_RULE)
        return handler(self.cfg, state, event)

    # -- the end ---------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        """Whether the game has ended (PAL-END-01, PAL-END-02)."""
        return state.phase == OVER

    def result(self, state: State) -> Result:
        """Coins as scores; most coins wins, then most face-down tiles (PAL-END-03), a full
        tie is shared (PAL-END-05); the solo player wins with at least the target
        (PAL-SOLO-03)."""
        scores = {name: p.coins for name, p in state.players.items()}
        if self.options.mode == "solo":
            winners = tuple(n for n, c in scores.items() if c >= self.tables.solo_target)
            return Result(scores, winners)
        best = max((p.coins, len(p.face_down)) for p in state.players.values())
        winners = tuple(n for n, p in state.players.items() if (p.coins, len(p.face_down)) == best)
        return Result(scores, winners)

    def invariant_failures(self, state: State) -> list[str]:
        """Every broken invariant of ``state`` (empty when sound)."""
        return invariants.failures(self.cfg, state, self._memo)


def _end_action(cfg: Config, state: State, event: EndAction) -> State:
    # PAL-TURN-02: end_action closes a chain or a Reorganise, nothing else.
    if state.phase == CHAIN:
        return end_chain(cfg, state, event)
    if state.phase == MOVE:
        return end_moves(cfg, state, event)
    raise RuleViolation("PAL-TURN-02", "no action is in progress to end")


_HANDLERS: dict[type[Any], Callable[[Config, State, Any], State]] = {
    Conquer: start_chain,
    CollectTaxes: start_chain,
    FlipTile: flip_tile,
    PlaceTile: place_tile,
    EndAction: _end_action,
    ChooseExtraTile: choose_extra,
    Reorganise: reorganise,
    MovePiece: move_piece,
    DrawTile: draw_tile,
}
