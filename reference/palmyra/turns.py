"""The end of a turn (PAL-SOLO-02, PAL-END-02) and passing play on clockwise."""

from __future__ import annotations

from typing import Any

from reference.core.state import next_seat
from reference.core.stock import Stock, take
from reference.palmyra.common import evolve, finish, noted
from reference.palmyra.state import NO_ACTION, TURN, State
from reference.palmyra.tables import Config


def end_turn(cfg: Config, state: State, **changes: Any) -> State:
    """Close the turn: the solo drain, then the next player in seat order acts.
    ``changes``: the caller's own edits of other fields, made in the same copy."""
    drained: dict[str, Stock] = {}
    if cfg.solo:
        # PAL-SOLO-02: at the end of every solo turn three coins leave the bank for good.
        drain, bank = take(state.bank, cfg.tables.solo_drain)
        drained = {"bank": bank, "removed": state.removed + drain}
        if cfg.recorder is not None:
            why = f"{drain} coin(s) leave the bank"
            noted(cfg, "PAL-SOLO-02", evolve(state, **changes, **drained), ("bank",), why)
        # PAL-END-02: the bank's last coin gone ends the game at once (as every end, the
        # turn it ends in is not counted in ``turn``).
        if drained["bank"] == 0:
            return finish(evolve(state, **drained, **changes), "bank", cfg)
    nxt = next_seat(list(state.players), state.current)
    return evolve(
        state, current=nxt, phase=TURN, action=NO_ACTION, turn=state.turn + 1, **drained, **changes
    )
