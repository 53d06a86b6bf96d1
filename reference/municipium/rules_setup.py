"""The standard setup (MUN-SETUP-01..07)."""

from __future__ import annotations

from collections.abc import Sequence

from reference.core.errors import BadOptions
from reference.core.stock import take
from reference.municipium.state import Institution, PlayerState, State
from reference.municipium.tables import KINDS, Tables


def new_game(t: Tables, players: Sequence[str]) -> State:
    """The standard setup (MUN-SETUP-01..07); the first name is the start player.

    (MUN-SETUP-07, two to four players named uniquely, is checked by the rule-set shell.)

    >>> from reference.municipium import make
    >>> make({}).new_game(["red", "blue"]).phase
    'placement'
    """
    # MUN-SETUP-01: one home citizen in each institution, the rest in the bag.
    # MUN-SETUP-02: a favour on each meeting room's favour field, the rest in the supply
    # (an unlimited supply stays unlimited; components.favours holds one per room at least).
    bag = {kind: t.citizens_per_kind for kind in KINDS}
    places: dict[str, Institution] = {}
    for name in t.order:
        bag[t.home[name]] -= 1
        places[name] = Institution(citizens=1, favour=name in t.meeting_rooms, citizen_field=None)
    if min(bag.values()) < 0:
        raise BadOptions("components.citizens_per_kind is too small for the setup")
    # MUN-SETUP-05: seven members and the three family cards face up per family; the
    # common deck is shuffled (kept sorted here: each reveal is a chance event).
    family = tuple(t.family_cards)
    members = {name: 0 for name in t.order}
    seats = {
        p: PlayerState(
            members=dict(members),
            wreathed=dict(members),
            unplaced=t.members,
            citizens={kind: 0 for kind in KINDS},
            favours=0,
            decurions=0,
            family_cards=family,
            spent_cards=(),
        )
        for p in players
    }
    # MUN-SETUP-04: with 3-4 players the citizen fields are drawn first (chance events).
    # MUN-SETUP-06: the first name in seat order is the start player.
    # MUN-SETUP-03: the prefect starts in the basilica (board.prefect_start).
    fields = len(players) >= t.field_min_players
    return State(
        phase="setup" if fields else "placement",
        current=players[0],
        round=0,
        players=seats,
        institutions=places,
        prefect=t.prefect_start,
        bag=bag,
        favour_supply=take(t.favours, len(t.meeting_rooms))[1],
        wreath_supply=t.wreaths,
        temple_order=tuple(players),
        common_deck=tuple(sorted(t.common_cards)),
        common_discard=(),
    )
