"""The data tables in force, read from ``game.data`` and checked once when the game is made.

Every value a user may need to replace (roads, cards, counts) comes from ``data/*.yaml``;
a profile value of the wrong shape raises ``BadOptions`` naming the key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from reference.core import tables as tb
from reference.core.datafile import DataSet
from reference.core.stock import Stock

if TYPE_CHECKING:  # the recorder is imported only where a value is explained (a cheap start)
    from reference.core.trace import Recorder

INSTITUTIONS: tuple[str, ...] = (
    "temple",
    "tavern",
    "baths",
    "emporium",
    "basilica",
    "forum",
    "praetorium",
)
"""The seven institutions, by the names the rulebook uses; their numbers come from data."""

KINDS: tuple[str, ...] = ("soldier", "advocate", "merchant", "priest")
"""The four kinds of citizen (the grey advocates are called scholars by some sources)."""

FAVOUR = "favour"
"""How a prefect favour is named among the tokens a basilica exchange spends."""

CARD_KINDS = ("prefect", "citizen", "power")


@attrs.frozen
class Card:
    """One card: a prefect card (target), a citizen card (draws) or a power card (institutions)."""

    id: str
    name: str
    kind: str
    target: str = ""
    draws: int = 0
    institutions: tuple[str, ...] = ()
    """Institution names in resolution order; ("leading",) for the active player's."""


@attrs.frozen
class Tables:
    """The checked data tables the rules read."""

    order: tuple[str, ...]
    """Institutions by number (0 first)."""
    home: dict[str, str]
    meeting_rooms: tuple[str, ...]
    homes_of: dict[str, tuple[str, ...]]
    neighbours: dict[str, tuple[str, ...]]
    prefect_start: str
    citizens_per_kind: int
    """Citizens of each kind in the game; never unlimited (``bag_count``)."""
    favours: Stock
    """Prefect favours in the game; null in a profile (UNLIMITED): a supply that never
    runs out (reference/core/stock.py)."""
    wreaths: Stock
    """Wreaths of Distinction in the game; null: a supply that never runs out."""
    members: int
    field_min_players: int
    decurions_to_end: int
    basilica_size: int
    common_cards: dict[str, Card]
    family_cards: dict[str, Card]
    common_ids: tuple[str, ...]
    """The common card ids, sorted (what the deck and discard pile hold between them)."""
    family_ids: tuple[str, ...]
    """The family card ids, sorted (what each family holds, face up or spent)."""
    recorder: Recorder | None = None
    """Set only in the recording copy that explains a value (reference/core/trace.py)."""


def _institutions(data: DataSet) -> tuple[tuple[str, ...], dict[str, str], tuple[str, ...]]:
    key = "board.institutions"
    raw = tb.record(key, data.value(key), INSTITUTIONS)
    numbers: dict[str, int] = {}
    home: dict[str, str] = {}
    rooms: list[str] = []
    for name, item in raw.items():
        spec = tb.record(f"{key}.{name}", item, ("number", "home", "meeting_room"))
        numbers[name] = tb.whole(f"{key}.{name}.number", spec["number"], 0, len(INSTITUTIONS) - 1)
        home[name] = tb.choice(f"{key}.{name}.home", spec["home"], KINDS)
        if tb.flag(f"{key}.{name}.meeting_room", spec["meeting_room"]):
            rooms.append(name)
    if sorted(numbers.values()) != list(range(len(INSTITUTIONS))):
        raise tb.bad(key, "institution numbers 0 to 6, each once", numbers)
    if len(rooms) < 2:
        raise tb.bad(key, "at least two meeting rooms (the prefect moves)", rooms)
    if "temple" in rooms:
        raise tb.bad(key, "no meeting room in the temple (its power is the temple order)", rooms)
    order = tuple(sorted(numbers, key=numbers.__getitem__))
    return order, home, tuple(n for n in order if n in rooms)


def _roads(data: DataSet, order: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    key = "board.roads"
    near: dict[str, set[str]] = {name: set() for name in order}
    for i, pair in enumerate(tb.items(key, data.value(key))):
        ends = tb.names(f"{key}[{i}]", pair, order)
        if len(ends) != 2 or ends[0] == ends[1]:
            raise tb.bad(f"{key}[{i}]", "two different institution names", pair)
        near[ends[0]].add(ends[1])
        near[ends[1]].add(ends[0])
    rank = {name: i for i, name in enumerate(order)}
    return {n: tuple(sorted(near[n], key=rank.__getitem__)) for n in order}


def _card(key: str, raw: object, rooms: tuple[str, ...]) -> Card:
    spec = tb.record(key, raw, ("id", "kind"), ("name", "target", "draws", "institutions"))
    cid = tb.text(f"{key}.id", spec["id"])
    kind = tb.choice(f"{key}.kind", spec["kind"], CARD_KINDS)
    name = tb.text(f"{key}.name", spec.get("name", cid))
    fields = {"prefect": "target", "citizen": "draws", "power": "institutions"}
    tb.record(key, raw, ("id", "kind", fields[kind]), ("name",))
    if kind == "prefect":
        target = tb.choice(f"{key}.target", spec["target"], (*rooms, "choose"))
        return Card(cid, name, kind, target=target)
    if kind == "citizen":
        # A card draws at most the whole bag's worth of one kind; 20 is far beyond it.
        return Card(cid, name, kind, draws=tb.whole(f"{key}.draws", spec["draws"], 1, 20))
    names = spec["institutions"]
    if names == "all":
        return Card(cid, name, kind, institutions=INSTITUTIONS)
    if names == "leading":
        return Card(cid, name, kind, institutions=("leading",))
    chosen = tb.names(f"{key}.institutions", names, INSTITUTIONS)
    if not chosen:
        raise tb.bad(f"{key}.institutions", "all, leading or a list of institutions", names)
    return Card(cid, name, kind, institutions=chosen)


def _cards(
    data: DataSet, key: str, rooms: tuple[str, ...], order: tuple[str, ...]
) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    rank = {name: i for i, name in enumerate(order)}
    for i, item in enumerate(tb.items(key, data.value(key), nonempty=True)):
        card = _card(f"{key}[{i}]", item, rooms)
        if card.id in cards:
            raise tb.bad(f"{key}[{i}].id", "an id no other card has", card.id)
        if card.institutions and card.institutions != ("leading",):
            # MUN-POWER-02: several institutions activate in ascending number.
            ordered = tuple(sorted(set(card.institutions), key=rank.__getitem__))
            card = attrs.evolve(card, institutions=ordered)
        cards[card.id] = card
    return cards


BAG_KEY = "components.citizens_per_kind"
BAG_NOT_UNLIMITED = (
    "not null: the bag cannot be unlimited, as a draw's odds are each kind's share of the "
    "bag (MUN-BAG-01) and an endless bag has no shares"
)
"""Why the bag may not be unlimited, as the error on ``null`` says it."""


def bag_count(data: DataSet) -> int:
    """The citizens of each kind (MUN-SETUP-01), a whole number 3..99. Unlike the favour and
    wreath supplies the bag may not be unlimited (null): its draws have odds by its counts
    (MUN-BAG-01), which an endless bag does not have."""
    value = data.value(BAG_KEY)
    if value is None:
        raise tb.bad(BAG_KEY, f"a whole number 3..99 ({BAG_NOT_UNLIMITED})", value)
    return tb.whole(BAG_KEY, value, 3, 99)


def read_tables(data: DataSet) -> Tables:
    """Check every data value the rules use and gather them; a bad value raises BadOptions."""
    order, home, rooms = _institutions(data)
    start = tb.choice("board.prefect_start", data.value("board.prefect_start"), rooms)
    homes_of = {k: tuple(n for n in order if home[n] == k) for k in KINDS}
    for kind, places in homes_of.items():
        if not places:
            raise tb.bad("board.institutions", f"an institution home to the {kind}s", home)
    common = _cards(data, "cards.common_cards", rooms, order)
    family = _cards(data, "cards.family_cards", rooms, order)

    return Tables(
        order=order,
        home=home,
        meeting_rooms=rooms,
        homes_of=homes_of,
        neighbours=_roads(data, order),
        prefect_start=start,
        citizens_per_kind=bag_count(data),
        # The two supplies may be unlimited (null); their bounds are there only against
        # absurd sizes (the favours: at least one for each meeting room's field).
        favours=tb.stock_at(data, "components.favours", len(rooms), 99),
        wreaths=tb.stock_at(data, "components.wreaths", 0, 99),
        members=tb.whole_at(data, "components.members_per_family", 1, 20),
        field_min_players=tb.whole_at(data, "components.citizen_field_min_players", 2, 99),
        decurions_to_end=tb.whole_at(data, "components.decurions_to_end", 1, 99),
        basilica_size=tb.whole_at(data, "components.basilica_exchange_size", 1, high=10),
        common_cards=common,
        family_cards=family,
        common_ids=tuple(sorted(common)),
        family_ids=tuple(sorted(family)),
    )
