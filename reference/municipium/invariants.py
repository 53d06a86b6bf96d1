"""Conservation and soundness checks run after every event (cheap: no copies).

``invariant_failures`` without a memo counts every law in full. The rule set passes a
``Memo``, which gives the same answer with two shortcuts, each kept because it buys more
than 5% of a validation's CPU (shortcuts for the card piles, the temple order, the
conservation totals, the players' dict and a family whose members alone moved bought less
and were removed): a family's count (its citizens, favours and wreaths, and its members,
sets and family cards checked) is reused while its record is the very same object, and
the institutions' count while the institutions are the very same dict (and the citizen
fields in play the same). States are frozen and share what an event left alone, and most
events change one family and one or two institutions. A contract test compares the memo
with the full count after every event of seeded play-outs and on states broken in each
part the shortcuts key on (tests/contract/test_invariant_shortcuts.py).

A favour or wreath supply a profile made unlimited (``null``, reference/core/stock.py) has
no total: its pieces are not conserved, only checked to be unlimited exactly when the
game's supply is (``supply_failures``). The supplies are read on every state, never memoed.
"""

from __future__ import annotations

import operator
from collections.abc import Collection

from reference.core.stock import Stock, holds
from reference.municipium.rules_flow import add
from reference.municipium.state import PHASES, Institution, PlayerState, State
from reference.municipium.tables import KINDS, Tables


class Memo:
    """The families' and the institutions' counts last made, kept by one engine (never
    shared between rule sets): a part that is the very same object gives the same count."""

    def __init__(self) -> None:
        self.family: dict[str, tuple[PlayerState, Count]] = {}
        """Each family's record (``State.players[name]``) last counted, with its count."""
        self.places: tuple[dict[str, Institution], bool, Count] | None = None
        """The institutions last counted, whether citizen fields were in play, the count."""


Count = tuple[tuple[int, ...], int, int, tuple[str, ...]]
"""What some parts of a state hold towards the game's totals: citizens (in ``KINDS``
order), favours and wreaths; and what is wrong with those parts."""

kinds_of = operator.itemgetter(*KINDS)
"""A citizen count (bag, family) as a tuple in ``KINDS`` order."""


def family_count(t: Tables, name: str, p: PlayerState) -> Count:
    """One family's citizens, favours and wreaths, and its broken invariants: members
    conserved, no unexchanged set, family cards once each."""
    bad: list[str] = []
    crowned = sum(p.wreathed.values())
    on_board = sum(p.members.values()) + crowned
    if on_board + p.unplaced != t.members:
        bad.append(f"{name} has {on_board} + {p.unplaced} members, not {t.members}")
    citizens = kinds_of(p.citizens)
    held = len([count for count in citizens if count > 0])
    # MUN-DECURION-01: a complete set never stays in front of a family.
    if held + p.favours >= len(KINDS):
        bad.append(f"{name} holds a complete set that was not exchanged")
    cards = p.family_cards + p.spent_cards
    if tuple(sorted(cards)) != t.family_ids:
        bad.append(f"{name}'s family cards {cards} are not {list(t.family_ids)}")
    return (citizens, p.favours, crowned, tuple(bad))


def families_count(t: Tables, players: dict[str, PlayerState], memo: Memo | None) -> Count:
    """The families' citizens, favours and wreaths, and their broken invariants (each
    family's from ``family_count``). With a ``memo``, a family record counted before is not
    counted again."""
    if memo is None:
        return summed([family_count(t, name, p) for name, p in players.items()])
    counts: list[Count] = []
    for name, p in players.items():
        known = memo.family.get(name)
        if known is None or known[0] is not p:
            known = memo.family[name] = (p, family_count(t, name, p))
        counts.append(known[1])
    return summed(counts)


def summed(counts: list[Count]) -> Count:
    """The sum of some parts' counts (their failures in order). The four kinds are added
    one by one (a ``zip`` of the parts' citizens costs more than the sums themselves)."""
    soldiers = advocates = merchants = priests = 0
    favours = 0
    wreaths = 0
    bad: tuple[str, ...] = ()
    for citizens, favoured, crowned, wrong in counts:
        soldier, advocate, merchant, priest = citizens
        soldiers += soldier
        advocates += advocate
        merchants += merchant
        priests += priest
        favours += favoured
        wreaths += crowned
        bad += wrong
    return ((soldiers, advocates, merchants, priests), favours, wreaths, bad)


def places_count(
    t: Tables, institutions: dict[str, Institution], fields: bool, players: int
) -> Count:
    """The institutions' citizens and favours (they hold no wreaths), and their broken
    invariants (``fields``: whether citizen fields are in play with ``players`` families)."""
    bad: list[str] = []
    citizens = dict.fromkeys(KINDS, 0)
    favours = 0
    home = t.home
    for name, place in institutions.items():
        held = place.citizens
        citizens[home[name]] += held
        if held > 2:
            bad.append(f"the {name} holds {held} citizens; 3 trigger a citizen event")
        field = place.citizen_field
        if place.favour:
            favours += 1
        elif field is None:
            continue  # nothing in the meeting room, wherever it is
        if field is not None:
            citizens[field] += 1
            if not fields:
                bad.append(f"the {name} has a citizen field in a {players}-player game")
        if name not in t.meeting_rooms:
            bad.append(f"the {name} has no meeting room but holds a favour or field citizen")
    return (kinds_of(citizens), favours, 0, tuple(bad))


def invariant_failures(t: Tables, state: State, memo: Memo | None = None) -> list[str]:
    """Every broken invariant: pieces conserved, sets exchanged, turn fields sane. Without
    a ``memo`` every law is counted in full; with one, the families and the institutions
    counted before are not counted again (the same answer)."""
    bad: list[str] = []
    players = state.players
    phase = state.phase
    drawn = state.drawn
    names = tuple(players)
    stocks, conserved = conservation_failures(t, state, len(names), memo)
    bad += stocks
    if phase not in PHASES:
        bad.append(f"unknown phase {phase!r}")
    if state.current not in players:
        bad.append(f"current player {state.current!r} is not in the game")
    order = state.temple_order
    if sorted(order) != sorted(names):
        bad.append(f"temple order {order} is not the families {names}")
    bad += conserved
    if tuple(sorted(state.common_deck + state.common_discard)) != t.common_ids:
        bad.append("the common deck and discard pile do not hold the common cards once each")
    if state.prefect not in t.meeting_rooms:
        bad.append(f"the prefect stands in the {state.prefect}, which has no prefect field")
    if phase == "place":
        if drawn is None:
            bad.append("a citizen is to be placed but none was drawn")
    elif drawn is not None:
        bad.append("a drawn citizen was left unplaced")
    if phase == "power" and (state.power is None or state.power_user not in players):
        bad.append("a power is being used without an institution or user")
    return bad


def conservation_failures(
    t: Tables, state: State, families: int, memo: Memo | None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A negative stock (bag or supplies); then what the families and the institutions
    break, then every piece not conserved: citizens of each kind, favours and wreaths,
    wherever they are (bag, families, institutions, the drawn citizen, the supplies). With
    a ``memo``, the families and institutions counted before are not counted again."""
    fields = families >= t.field_min_players
    held = families_count(t, state.players, memo)
    placed = memo.places if memo else None
    if placed is not None and placed[0] is state.institutions and placed[1] == fields:
        kept = placed[2]
    else:
        kept = places_count(t, state.institutions, fields, families)
        if memo:
            memo.places = (state.institutions, fields, kept)
    stocks: tuple[str, ...] = ()
    favour_supply, wreath_supply = state.favour_supply, state.wreath_supply  # None: unlimited
    if (
        min(state.bag.values()) < 0
        or (favour_supply is not None and favour_supply < 0)
        or (wreath_supply is not None and wreath_supply < 0)
    ):
        stocks = (f"a stock is negative: bag {state.bag}, favours {favour_supply}",)
    return stocks, held[3] + kept[3] + totals_failures(t, state, held, kept)


def totals_failures(t: Tables, state: State, held: Count, kept: Count) -> tuple[str, ...]:
    """Every kind of piece not conserved: citizens of each kind in the bag, in front of the
    families (``held``), in the institutions (``kept``) and drawn; favours and wreaths in
    their supplies, the families' and the institutions' (not those of a supply a profile
    made unlimited: ``supply_failures``)."""
    bad: list[str] = []
    bag = state.bag if state.drawn is None else add(state.bag, state.drawn, 1)
    per_kind = t.citizens_per_kind
    # Four counts each, in KINDS order (zip's strict= keyword costs more than this loop).
    for kind, in_bag, own, placed in zip(KINDS, kinds_of(bag), held[0], kept[0]):  # noqa: B905
        if in_bag + own + placed != per_kind:
            bad.append(f"{in_bag + own + placed} {kind} citizens in the game, not {per_kind}")
    bad += supply_failures("favours", state.favour_supply, held[1] + kept[1], t.favours)
    bad += supply_failures("wreaths", state.wreath_supply, held[2], t.wreaths)
    return tuple(bad)


def supply_failures(what: str, supply: Stock, elsewhere: int, in_game: Stock) -> list[str]:
    """A supply's pieces not conserved: the ``supply`` and ``elsewhere`` (families,
    fields) hold the game's ``in_game``. A supply a profile made unlimited (None,
    reference/core/stock.py) is so exactly when the game's is, and its pieces are not
    counted: it has no total to hold."""
    if supply is None or in_game is None:
        if (supply is None) != (in_game is None):
            return [f"{what}: the supply is unlimited only when the game's is"]
        return []
    if supply + elsewhere != in_game:
        return [f"{supply + elsewhere} {what} in the game, not {in_game}"]
    return []


def field_refill_failures(t: Tables, state: State) -> list[str]:
    """For a position written by hand (a scenario's given.state), not an invariant of play.

    MUN-PREFECT-04: an emptied favour field is refilled from the supply at once, and (3-4
    players) an emptied citizen field by the next draw, while the bag holds any. So in a
    game whose bag never ran dry only the setup draws and the one field being refilled may be
    empty, and nothing is refilled once the game is over. (Play can leave a field empty
    after the bag ran dry and later refilled; no hand-written position needs that.)
    """
    bad: list[str] = []
    fields = len(state.players) >= t.field_min_players
    if state.phase == "over":
        return bad
    bag_holds = sum(state.bag.values()) > 0
    refilling = state.field_for if state.phase == "draw" and state.draw_for == "field" else None
    for name in t.meeting_rooms:
        place = state.institutions[name]
        if holds(state.favour_supply, 1) and not place.favour:  # unlimited: always holds
            bad.append(f"the {name}'s favour field is empty while the supply holds favours")
        empty = fields and place.citizen_field is None and name != refilling
        if empty and bag_holds and state.phase != "setup":
            bad.append(f"the {name}'s citizen field is empty while the bag holds citizens")
    return bad


def shape_failures(t: Tables, state: State) -> list[str]:
    """For a position written by hand: every map keyed by institution or citizen kind names
    each of them once and nothing else (play never builds another, and the rules and the
    invariants look each one up). Checked before the invariants."""
    bad: list[str] = []

    def keyed(what: str, found: Collection[str], wanted: tuple[str, ...]) -> None:
        missing = [k for k in wanted if k not in found]
        extra = sorted(k for k in found if k not in wanted)
        if missing or extra:
            said = [f"lacks {', '.join(missing)}"] if missing else []
            said += (
                [f"has {', '.join(extra)}, which is none of {', '.join(wanted)}"] if extra else []
            )
            bad.append(f"{what} {' and '.join(said)}")

    keyed("institutions", state.institutions, t.order)
    keyed("bag", state.bag, KINDS)
    for name, player in state.players.items():
        keyed(f"players.{name}.members", player.members, t.order)
        keyed(f"players.{name}.wreathed", player.wreathed, t.order)
        keyed(f"players.{name}.citizens", player.citizens, KINDS)
    return bad
