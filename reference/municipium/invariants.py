"""Conservation and soundness checks run after every event (cheap: no copies)."""

from __future__ import annotations

import operator
from collections.abc import Collection

from reference.municipium.rules_flow import add
from reference.municipium.state import PHASES, Institution, PlayerState, State
from reference.municipium.tables import KINDS, Tables


class Memo:
    """The parts of a state last checked, kept by one engine: a part that is the very same
    object (states are frozen and share what an event left alone) still gives the same
    answer. Sorting every family's cards and the common cards, and counting the families'
    and the institutions' pieces, after every event is what it saves; an event that changes
    one family (a move, a citizen taken) has only that family counted again."""

    def __init__(self, round_key: tuple[int, str] = (0, "")) -> None:
        self.round_key = round_key
        """The round (``round_of``) this memo serves: a new round starts it empty."""
        self.family: dict[str, tuple[PlayerState, Count]] = {}
        """Each family's record (``State.players[name]``) last counted, with its count."""
        self.family_cards: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        """Each family's (cards in hand, spent cards) last found to be its cards once each."""
        self.families: tuple[dict[str, PlayerState], Count] | None = None
        """The families (``State.players``) last counted, with their count."""
        self.places: tuple[dict[str, Institution], bool, Count] | None = None
        """The institutions last counted, whether citizen fields were in play, the count."""
        self.common: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        """The (common deck, discard pile) last found to hold the common cards once each."""
        self.temple: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        """The (temple order, families) last found to be the same families."""
        self.totals: tuple[Totals, tuple[tuple[str, ...], tuple[str, ...]]] | None = None
        """The (bag, families' count, institutions' count, favour supply, wreath supply,
        drawn citizen) last checked for conservation, with what was wrong (the negative
        stocks; the rest)."""


def round_of(state: State) -> tuple[int, str]:
    """The round, and whether the game is over: the memo starts empty, so everything is
    checked in full, at each change."""
    return (state.round, "over" if state.phase == "over" else "")


Count = tuple[tuple[int, ...], int, int, tuple[str, ...]]
"""What some parts of a state hold towards the game's totals: citizens (in ``KINDS``
order), favours and wreaths; and what is wrong with those parts."""

Totals = tuple[dict[str, int], Count, Count, int, int, str | None]
"""What the conservation of pieces is checked on (see ``conservation_failures``)."""

kinds_of = operator.itemgetter(*KINDS)
"""A citizen count (bag, family) as a tuple in ``KINDS`` order."""


def family_count(
    t: Tables,
    name: str,
    p: PlayerState,
    memo: Memo | None,
    last: tuple[PlayerState, Count] | None = None,
) -> Count:
    """One family's citizens, favours and wreaths, and its broken invariants: members
    conserved, no unexchanged set, family cards once each (piles found sound in ``memo``
    are not sorted again). ``last``: the family's record last counted and its count; when
    that count was sound and only its members moved (the very same citizens and cards, as
    many favours and wreaths), the members are counted again and the rest is that count."""
    bad: list[str] = []
    crowned = sum(p.wreathed.values())
    on_board = sum(p.members.values()) + crowned
    if on_board + p.unplaced != t.members:
        bad.append(f"{name} has {on_board} + {p.unplaced} members, not {t.members}")
    elif last is not None:
        before, count = last
        if (
            not count[3]
            and count[2] == crowned
            and before.citizens is p.citizens
            and before.favours == p.favours
            and before.family_cards is p.family_cards
            and before.spent_cards is p.spent_cards
        ):
            return count  # a member moved: the same holdings, sound before
    citizens = kinds_of(p.citizens)
    held = len([count for count in citizens if count > 0])
    # MUN-DECURION-01: a complete set never stays in front of a family.
    if held + p.favours >= len(KINDS):
        bad.append(f"{name} holds a complete set that was not exchanged")
    piles = memo.family_cards.get(name) if memo else None
    if piles is None or piles[0] is not p.family_cards or piles[1] is not p.spent_cards:
        cards = p.family_cards + p.spent_cards
        if tuple(sorted(cards)) != t.family_ids:
            bad.append(f"{name}'s family cards {cards} are not {list(t.family_ids)}")
        elif memo:
            memo.family_cards[name] = (p.family_cards, p.spent_cards)
    return (citizens, p.favours, crowned, tuple(bad))


def families_count(t: Tables, players: dict[str, PlayerState], memo: Memo | None) -> Count:
    """The families' citizens, favours and wreaths, and their broken invariants (each
    family's from ``family_count``). With a ``memo``, a family record counted before is not
    counted again, and when every family counted anew holds what it held before (a member
    moved: the same citizens, favours and wreaths) the total is the very same as before."""
    if memo is None:
        return summed([family_count(t, name, p, None) for name, p in players.items()])
    last = memo.families
    if last is not None and last[0] is players:
        return last[1]
    same = last is not None and players.keys() == last[0].keys()
    counts: list[Count] = []
    for name, p in players.items():
        known = memo.family.get(name)
        if known is not None and known[0] is p:
            counts.append(known[1])
            continue
        count = family_count(t, name, p, memo, known)
        if known is None or count != known[1]:
            same = False
        memo.family[name] = (p, count)
        counts.append(count)
    total = last[1] if same and last is not None else summed(counts)
    memo.families = (players, total)
    return total


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
    a ``memo`` every card pile is checked; with one, only those not found sound before."""
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
    known = memo.temple if memo else None
    if known is None or known[0] is not order or known[1] != names:
        if sorted(order) != sorted(names):
            bad.append(f"temple order {order} is not the families {names}")
        elif memo:
            memo.temple = (order, names)
    bad += conserved
    common = memo.common if memo else None
    if (
        common is None
        or common[0] is not state.common_deck
        or common[1] is not state.common_discard
    ):
        if tuple(sorted(state.common_deck + state.common_discard)) != t.common_ids:
            bad.append("the common deck and discard pile do not hold the common cards once each")
        elif memo:
            memo.common = (state.common_deck, state.common_discard)
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
    a ``memo``, the same counts with the same bag and supplies (equal: mostly the very same
    objects, compared at once) give the same answers as before."""
    fields = families >= t.field_min_players
    held = families_count(t, state.players, memo)
    placed = memo.places if memo else None
    if placed is not None and placed[0] is state.institutions and placed[1] == fields:
        kept = placed[2]
    else:
        kept = places_count(t, state.institutions, fields, families)
        if memo:
            memo.places = (state.institutions, fields, kept)
    key = (state.bag, held, kept, state.favour_supply, state.wreath_supply, state.drawn)
    known = memo.totals if memo else None
    if known is not None and known[0] == key:
        return known[1]
    stocks: tuple[str, ...] = ()
    if min(state.bag.values()) < 0 or state.favour_supply < 0 or state.wreath_supply < 0:
        stocks = (f"a stock is negative: bag {state.bag}, favours {state.favour_supply}",)
    bad = (stocks, held[3] + kept[3] + totals_failures(t, state, held, kept))
    if memo:
        memo.totals = (key, bad)
    return bad


def totals_failures(t: Tables, state: State, held: Count, kept: Count) -> tuple[str, ...]:
    """Every kind of piece not conserved: citizens of each kind in the bag, in front of the
    families (``held``), in the institutions (``kept``) and drawn; favours and wreaths in
    their supplies, the families' and the institutions'."""
    bad: list[str] = []
    bag = state.bag if state.drawn is None else add(state.bag, state.drawn, 1)
    per_kind = t.citizens_per_kind
    # Four counts each, in KINDS order (zip's strict= keyword costs more than this loop).
    for kind, in_bag, own, placed in zip(KINDS, kinds_of(bag), held[0], kept[0]):  # noqa: B905
        if in_bag + own + placed != per_kind:
            bad.append(f"{in_bag + own + placed} {kind} citizens in the game, not {per_kind}")
    favours = state.favour_supply + held[1] + kept[1]
    wreaths = state.wreath_supply + held[2]
    if favours != t.favours:
        bad.append(f"{favours} favours in the game, not {t.favours}")
    if wreaths != t.wreaths:
        bad.append(f"{wreaths} wreaths in the game, not {t.wreaths}")
    return tuple(bad)


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
        if state.favour_supply > 0 and not place.favour:
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
