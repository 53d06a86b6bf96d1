"""The data tables in force, read from ``game.data`` and checked once when the game is made.

Every value a user may need to replace (roads, cards, counts) comes from ``data/*.yaml``;
a profile value of the wrong shape raises ``BadOptions`` naming the key.
"""

from __future__ import annotations

from typing import Any

import attrs

from reference.core.datafile import DataSet
from reference.core.errors import BadOptions

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
    favours: int
    wreaths: int
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


def _bad(key: str, why: str) -> BadOptions:
    return BadOptions(f"data value {key}: {why}")


def _int(data: DataSet, key: str, low: int, high: int | None = None) -> int:
    value = data.value(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise _bad(key, f"must be a whole number of at least {low}, not {value!r}")
    if high is not None and value > high:
        raise _bad(key, f"must be at most {high}, not {value}")
    return value


def _institutions(data: DataSet) -> tuple[tuple[str, ...], dict[str, str], tuple[str, ...]]:
    key = "board.institutions"
    raw = data.value(key)
    if not isinstance(raw, dict) or set(raw) != set(INSTITUTIONS):
        raise _bad(key, f"must map exactly the institutions {', '.join(INSTITUTIONS)}")
    numbers: dict[str, int] = {}
    home: dict[str, str] = {}
    rooms: list[str] = []
    for name, item in raw.items():
        if not isinstance(item, dict) or set(item) != {"number", "home", "meeting_room"}:
            raise _bad(key, f"{name} needs exactly number, home and meeting_room")
        if not isinstance(item["number"], int) or item["home"] not in KINDS:
            raise _bad(key, f"{name}: number must be an integer, home one of {KINDS}")
        if not isinstance(item["meeting_room"], bool):
            raise _bad(key, f"{name}: meeting_room must be true or false")
        numbers[name] = item["number"]
        home[name] = item["home"]
        if item["meeting_room"]:
            rooms.append(name)
    if sorted(numbers.values()) != list(range(len(INSTITUTIONS))):
        raise _bad(key, "institution numbers must be 0 to 6, each once")
    if len(rooms) < 2:
        raise _bad(key, "at least two institutions need a meeting room (the prefect moves)")
    if "temple" in rooms:
        raise _bad(key, "the temple has no meeting room (its power is the temple order)")
    order = tuple(sorted(numbers, key=numbers.__getitem__))
    return order, home, tuple(n for n in order if n in rooms)


def _roads(data: DataSet, order: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    key = "board.roads"
    raw = data.value(key)
    if not isinstance(raw, list):
        raise _bad(key, "must be a list of [institution, institution] pairs")
    near: dict[str, set[str]] = {name: set() for name in order}
    for pair in raw:
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(p in near for p in pair)
            or pair[0] == pair[1]
        ):
            raise _bad(key, f"bad road {pair!r}: two different institution names")
        near[pair[0]].add(pair[1])
        near[pair[1]].add(pair[0])
    rank = {name: i for i, name in enumerate(order)}
    return {n: tuple(sorted(near[n], key=rank.__getitem__)) for n in order}


def _card(key: str, raw: Any, rooms: tuple[str, ...]) -> Card:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not raw["id"]:
        raise _bad(key, f"each card needs an id: {raw!r}")
    cid = raw["id"]
    kind = raw.get("kind")
    name = str(raw.get("name", cid))
    if kind == "prefect":
        target = raw.get("target")
        if set(raw) - {"id", "name", "kind", "target"} or not (
            target == "choose" or target in rooms
        ):
            raise _bad(key, f"card {cid}: a prefect card has a target (a meeting room or choose)")
        return Card(cid, name, kind, target=str(target))
    if kind == "citizen":
        draws = raw.get("draws")
        if set(raw) - {"id", "name", "kind", "draws"} or not isinstance(draws, int) or draws < 1:
            raise _bad(key, f"card {cid}: a citizen card has draws, a whole number >= 1")
        return Card(cid, name, kind, draws=draws)
    if kind == "power":
        names = raw.get("institutions")
        if set(raw) - {"id", "name", "kind", "institutions"}:
            raise _bad(key, f"card {cid}: a power card has only id, name, kind, institutions")
        if names == "all":
            return Card(cid, name, kind, institutions=INSTITUTIONS)
        if names == "leading":
            return Card(cid, name, kind, institutions=("leading",))
        if not isinstance(names, list) or not names or not all(n in INSTITUTIONS for n in names):
            raise _bad(key, f"card {cid}: institutions is all, leading or a list of names")
        return Card(cid, name, kind, institutions=tuple(names))
    raise _bad(key, f"card {cid}: kind must be one of {CARD_KINDS}")


def _cards(
    data: DataSet, key: str, rooms: tuple[str, ...], order: tuple[str, ...]
) -> dict[str, Card]:
    raw = data.value(key)
    if not isinstance(raw, list) or not raw:
        raise _bad(key, "must be a non-empty list of cards")
    cards: dict[str, Card] = {}
    rank = {name: i for i, name in enumerate(order)}
    for item in raw:
        card = _card(key, item, rooms)
        if card.id in cards:
            raise _bad(key, f"card id {card.id} appears twice")
        if card.institutions and card.institutions != ("leading",):
            # MUN-POWER-02: several institutions activate in ascending number.
            ordered = tuple(sorted(set(card.institutions), key=rank.__getitem__))
            card = attrs.evolve(card, institutions=ordered)
        cards[card.id] = card
    return cards


def read_tables(data: DataSet) -> Tables:
    """Check every data value the rules use and gather them; a bad value raises BadOptions."""
    order, home, rooms = _institutions(data)
    start = data.value("board.prefect_start")
    if start not in rooms:
        raise _bad("board.prefect_start", "must be an institution with a meeting room")
    homes_of = {k: tuple(n for n in order if home[n] == k) for k in KINDS}
    for kind, places in homes_of.items():
        if not places:
            raise _bad("board.institutions", f"no institution is home to the {kind}s")
    common = _cards(data, "cards.common_cards", rooms, order)
    family = _cards(data, "cards.family_cards", rooms, order)
    return Tables(
        order=order,
        home=home,
        meeting_rooms=rooms,
        homes_of=homes_of,
        neighbours=_roads(data, order),
        prefect_start=str(start),
        citizens_per_kind=_int(data, "components.citizens_per_kind", 3),
        favours=_int(data, "components.favours", len(rooms)),
        wreaths=_int(data, "components.wreaths", 0),
        members=_int(data, "components.members_per_family", 1),
        field_min_players=_int(data, "components.citizen_field_min_players", 2),
        decurions_to_end=_int(data, "components.decurions_to_end", 1),
        basilica_size=_int(data, "components.basilica_exchange_size", 1, high=10),
        common_cards=common,
        family_cards=family,
        common_ids=tuple(sorted(common)),
        family_ids=tuple(sorted(family)),
    )
