"""Our own ``serve`` with one rule bug planted: a broken copy of our engine, for tests.

    python tests/conform/broken_serve.py BUG --game palmyra

Each bug changes one rule of one game and nothing else, so it shows only where that rule
decides (the example adapter's flags plant bugs of the protocol's answers instead):

  palmyra-bank-dry-goes-on   PAL-END-02 broken: the bank's last coin paid out as a tax does
                             not end the game; the turn ends as usual and play goes on
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout's packages

from reference.palmyra import rules_chain  # noqa: E402
from reference.palmyra.common import evolve, with_player  # noqa: E402
from reference.palmyra.state import State  # noqa: E402
from reference.palmyra.tables import Config  # noqa: E402
from reference.palmyra.turns import end_turn  # noqa: E402


def pay_taxes_bank_dry_goes_on(cfg: Config, state: State, name: str, emperor: bool) -> State:
    """``rules_chain.pay_taxes`` without its PAL-END-02 check (the planted bug)."""
    player = state.players[name]
    base = state.action.earned
    face_down = len(player.face_down)
    if state.action.flipped and cfg.options.flip_timing == "after_chain":
        face_down -= 1
    if cfg.options.tax_threshold == "more_than":
        bonus = face_down if base > face_down else 0
    else:
        bonus = face_down if base >= face_down else 0
    owed = base + bonus + (cfg.tables.emperor_tax_bonus if emperor else 0)
    paid = min(owed, state.bank)
    state = with_player(
        state, name, evolve(player, coins=player.coins + paid), bank=state.bank - paid
    )
    return end_turn(cfg, state)  # the bug: no finish(state, "bank") when the bank is empty


BUGS = {"palmyra-bank-dry-goes-on": (rules_chain, "pay_taxes", pay_taxes_bank_dry_goes_on)}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in BUGS:
        print(f"usage: broken_serve.py {{{','.join(BUGS)}}} --game G ...", file=sys.stderr)
        return 2
    module, name, broken = BUGS[argv[0]]
    setattr(module, name, broken)
    from rules_oracle_cli.cli import app

    app(["serve", *argv[1:]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
