"""The Pillars data tables, read from ``game.data`` and checked once when the game is made.

Every value the rules use comes from ``data/*.yaml`` (or a user's profile); a value of the
wrong shape raises ``BadOptions`` naming its key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from reference.core.datafile import DataSet
from reference.core.errors import BadOptions

RESOURCES: tuple[str, ...] = ("sand", "wood", "stone", "metal")
"""The four building resources, in the order the engine lists them."""
MARKET_RESOURCES: tuple[str, ...] = ("sand", "wood", "stone")
LOCATIONS: tuple[str, ...] = (
    "bishop",
    "kingsbridge",
    "priory",
    "kings_court",
    "shiring",
    "castle",
    "market",
    "cathedral",
)
"""Master-builder locations in board (step) order."""


@attrs.frozen
class ResourceCard:
    """A building resource card: workers needed and cubes yielded."""

    resource: str
    workers: int
    yield_: int


@attrs.frozen
class Craftsman:
    """A craftsman card's printed values."""

    name: str
    family: str
    round: int
    cost: int
    uses: int
    input: dict[str, int]
    vp: int
    gold: int
    automatic: bool
    needs_metal: bool
    needs_family: str | None


@attrs.frozen
class Advantage:
    """An advantage card: kind (immediate, permanent, one_shot) and effect."""

    kind: str
    effect: str
    amount: int
    resource: str | None
    resources: dict[str, int]
    last_round: bool


@attrs.frozen
class EventCard:
    """An event card: positive or negative, and its effect."""

    sign: str
    effect: str
    amount: int


ADVANTAGE_EFFECTS = frozenset(
    {
        "vp",
        "gold",
        "metal",
        "resources",
        "income",
        "craftsman_limit",
        "worker",
        "tax_cap",
        "priory_vp",
        "event_preview",
        "tax_exemption",
        "protection",
        "free_builder",
    }
)
EVENT_EFFECTS = frozenset(
    {
        "gold",
        "metal",
        "vp",
        "wool_mill_gold",
        "yield_per_card",
        "craftsman_capacity",
        "builders_next_round",
        "discard_craftsman",
    }
)


@attrs.frozen
class Tables:
    """All data values in force, in typed form."""

    gold_by_seat: tuple[int, ...]
    start_vp: int
    workers: int
    master_builders: int
    starting_craftsmen: tuple[str, ...]
    cubes: dict[str, int]
    market_stock: dict[str, int]
    kings_court_metal: int
    grey_workers: int
    cost_start: int
    rounds: int
    capacity: dict[str, int]
    priory_vp: tuple[int, ...]
    wool_mill_gold_per_worker: int
    castle_grey_workers: int
    kings_court_first_metal: int
    free_from_draw: int
    resource_limit: int
    resource_limit_counts_metal: bool
    craftsman_limit: int
    gold_cap: int | None
    vp_floor: int
    buy_prices: dict[str, int]
    sell_prices: dict[str, int]
    die_faces: tuple[int, ...]
    shortfall_gold_per_vp: int
    resource_cards: dict[str, ResourceCard]
    resource_cards_revealed: int
    craftsmen: dict[str, Craftsman]
    permissions: dict[str, tuple[str, ...]]
    shiring_per_round: int
    advantages: dict[str, Advantage]
    advantages_per_round: int
    advantages_used: int
    events: dict[str, EventCard]
    events_used: int
    archbishop_excluded: tuple[str, ...]

    def round_craftsmen(self, round_no: int) -> tuple[str, ...]:
        """The ids of the craftsman cards of one round, in data order."""
        return tuple(k for k, c in self.craftsmen.items() if c.round == round_no)

    def ordinary_advantages(self) -> tuple[str, ...]:
        """Advantage cards dealt in rounds before the last."""
        return tuple(k for k, a in self.advantages.items() if not a.last_round)

    def last_round_advantages(self) -> tuple[str, ...]:
        """The cards kept for the last round."""
        return tuple(k for k, a in self.advantages.items() if a.last_round)


def _bad(key: str, why: str) -> BadOptions:
    return BadOptions(f"data {key}: {why}")


def _int(key: str, value: Any, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(key, f"expected a whole number, got {value!r}")
    if value < low or (high is not None and value > high):
        raise _bad(key, f"{value} is out of range {low}..{high if high is not None else ''}")
    return value


def _bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _bad(key, f"expected true or false, got {value!r}")
    return value


def _map(key: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _bad(key, f"expected a mapping, got {value!r}")
    return value


def _counts(key: str, value: Any, names: tuple[str, ...], exact: bool) -> dict[str, int]:
    raw = _map(key, value)
    unknown = set(raw) - set(names)
    if unknown:
        raise _bad(key, f"unknown names {sorted(unknown)} (known: {', '.join(names)})")
    if exact and set(raw) != set(names):
        raise _bad(key, f"needs exactly {', '.join(names)}")
    return {str(k): _int(f"{key}.{k}", v) for k, v in raw.items()}


def _ints(key: str, value: Any, low: int = 0) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise _bad(key, f"expected a non-empty list of whole numbers, got {value!r}")
    return tuple(_int(key, v, low) for v in value)


def _strs(key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise _bad(key, f"expected a list of names, got {value!r}")
    return tuple(value)


def _craftsman(key: str, raw: Any) -> Craftsman:
    spec = _map(key, raw)
    allowed = {"name", "family", "round", "cost", "uses", "input", "vp", "gold"}
    allowed |= {"automatic", "needs_metal", "needs_family"}
    extra = set(spec) - allowed
    if extra:
        raise _bad(key, f"unknown fields {sorted(extra)}")
    needs = spec.get("needs_family")
    if needs is not None and not isinstance(needs, str):
        raise _bad(key, "needs_family must be a family name")
    return Craftsman(
        name=str(spec.get("name", key)),
        family=str(spec.get("family", key)),
        round=_int(f"{key}.round", spec.get("round", 0), 0),
        cost=_int(f"{key}.cost", spec.get("cost", 0)),
        uses=_int(f"{key}.uses", spec.get("uses", 1), 1),
        input=_counts(f"{key}.input", spec.get("input", {}), (*RESOURCES, "gold"), False),
        vp=_int(f"{key}.vp", spec.get("vp", 0)),
        gold=_int(f"{key}.gold", spec.get("gold", 0)),
        automatic=_bool(f"{key}.automatic", spec.get("automatic", False)),
        needs_metal=_bool(f"{key}.needs_metal", spec.get("needs_metal", False)),
        needs_family=needs,
    )


def _advantage(key: str, raw: Any, last_round: bool) -> Advantage:
    spec = _map(key, raw)
    kind = spec.get("kind")
    if kind not in ("immediate", "permanent", "one_shot"):
        raise _bad(key, f"kind must be immediate, permanent or one_shot, got {kind!r}")
    effect = spec.get("effect")
    if effect not in ADVANTAGE_EFFECTS:
        raise _bad(key, f"unknown effect {effect!r} (known: {sorted(ADVANTAGE_EFFECTS)})")
    resource = spec.get("resource")
    if resource is not None and resource not in RESOURCES:
        raise _bad(key, f"unknown resource {resource!r}")
    if effect == "income" and resource not in MARKET_RESOURCES:
        raise _bad(key, "an income card names sand, wood or stone")
    return Advantage(
        kind=str(kind),
        effect=str(effect),
        amount=_int(f"{key}.amount", spec.get("amount", 0)),
        resource=resource,
        resources=_counts(f"{key}.resources", spec.get("resources", {}), RESOURCES, False),
        last_round=last_round,
    )


def _event(key: str, raw: Any) -> EventCard:
    spec = _map(key, raw)
    if spec.get("sign") not in ("positive", "negative"):
        raise _bad(key, "sign must be positive or negative")
    if spec.get("effect") not in EVENT_EFFECTS:
        raise _bad(key, f"unknown effect {spec.get('effect')!r} (known: {sorted(EVENT_EFFECTS)})")
    return EventCard(
        str(spec["sign"]), str(spec["effect"]), _int(f"{key}.amount", spec.get("amount"), -99)
    )


def read_tables(data: DataSet) -> Tables:
    """Typed tables from the data in force; raises BadOptions on a value of the wrong shape."""
    v = data.value
    cards_raw = _map("cards.resource_cards", v("cards.resource_cards"))
    resource_cards: dict[str, ResourceCard] = {}
    for cid, spec_raw in cards_raw.items():
        key = f"cards.resource_cards.{cid}"
        spec = _map(key, spec_raw)
        if spec.get("resource") not in MARKET_RESOURCES:
            raise _bad(key, "resource must be sand, wood or stone")
        resource_cards[str(cid)] = ResourceCard(
            str(spec["resource"]),
            _int(f"{key}.workers", spec.get("workers"), 0),
            _int(f"{key}.yield", spec.get("yield"), 0),
        )
    starting = _strs("setup.starting_craftsmen", v("setup.starting_craftsmen"))
    craftsmen: dict[str, Craftsman] = {}
    for cid in starting:
        craftsmen[cid] = _craftsman(f"craftsmen.{cid}", v(f"craftsmen.{cid}"))
    for cid, spec in _map("craftsmen.round_cards", v("craftsmen.round_cards")).items():
        craftsmen[str(cid)] = _craftsman(f"craftsmen.round_cards.{cid}", spec)
    advantages: dict[str, Advantage] = {}
    for cid, spec in _map("advantages.cards", v("advantages.cards")).items():
        advantages[str(cid)] = _advantage(f"advantages.cards.{cid}", spec, False)
    for cid, spec in _map("advantages.last_round_cards", v("advantages.last_round_cards")).items():
        advantages[str(cid)] = _advantage(f"advantages.last_round_cards.{cid}", spec, True)
    events = {
        str(k): _event(f"events.cards.{k}", s)
        for k, s in _map("events.cards", v("events.cards")).items()
    }
    perms_raw = _map("craftsmen.permissions", v("craftsmen.permissions"))
    permissions = {str(k): _strs(f"craftsmen.permissions.{k}", val) for k, val in perms_raw.items()}
    for needed in ("buy_wood", "sell_stone"):
        if needed not in permissions:
            raise _bad("craftsmen.permissions", f"needs an entry {needed}")
    gold_cap = v("board.gold_cap")
    tables = Tables(
        gold_by_seat=_ints("setup.gold_by_seat", v("setup.gold_by_seat")),
        start_vp=_int("setup.start_vp", v("setup.start_vp")),
        workers=_int("setup.workers", v("setup.workers")),
        master_builders=_int("setup.master_builders", v("setup.master_builders"), 1),
        starting_craftsmen=starting,
        cubes=_counts("setup.cubes", v("setup.cubes"), RESOURCES, True),
        market_stock=_counts("setup.market_stock", v("setup.market_stock"), MARKET_RESOURCES, True),
        kings_court_metal=_int("setup.kings_court_metal", v("setup.kings_court_metal")),
        grey_workers=_int("setup.grey_workers", v("setup.grey_workers")),
        cost_start=_int("setup.cost_start", v("setup.cost_start")),
        rounds=_int("setup.rounds", v("setup.rounds"), 1),
        capacity={
            # A board space count beyond 12 is no printed board; it would only exhaust memory.
            loc: _int(f"board.capacity_{loc}", v(f"board.capacity_{loc}"), high=12)
            for loc in LOCATIONS
        },
        priory_vp=_ints("board.priory_vp", v("board.priory_vp")),
        wool_mill_gold_per_worker=_int(
            "board.wool_mill_gold_per_worker", v("board.wool_mill_gold_per_worker")
        ),
        castle_grey_workers=_int("board.castle_grey_workers", v("board.castle_grey_workers")),
        kings_court_first_metal=_int(
            "board.kings_court_first_metal", v("board.kings_court_first_metal")
        ),
        free_from_draw=_int("board.free_from_draw", v("board.free_from_draw"), 1),
        resource_limit=_int("board.resource_limit", v("board.resource_limit")),
        resource_limit_counts_metal=_bool(
            "board.resource_limit_counts_metal", v("board.resource_limit_counts_metal")
        ),
        craftsman_limit=_int("board.craftsman_limit", v("board.craftsman_limit"), 1),
        gold_cap=None if gold_cap is None else _int("board.gold_cap", gold_cap, 1),
        vp_floor=_int("board.vp_floor", v("board.vp_floor"), -999),
        buy_prices=_counts("market.buy_prices", v("market.buy_prices"), MARKET_RESOURCES, True),
        sell_prices=_counts("market.sell_prices", v("market.sell_prices"), RESOURCES, True),
        die_faces=_ints("tax.die_faces", v("tax.die_faces")),
        shortfall_gold_per_vp=_int("tax.shortfall_gold_per_vp", v("tax.shortfall_gold_per_vp")),
        resource_cards=resource_cards,
        resource_cards_revealed=_int(
            "cards.resource_cards_revealed",
            v("cards.resource_cards_revealed"),
            0,
            len(resource_cards),
        ),
        craftsmen=craftsmen,
        permissions=permissions,
        shiring_per_round=_int("craftsmen.shiring_per_round", v("craftsmen.shiring_per_round")),
        advantages=advantages,
        advantages_per_round=_int("advantages.per_round", v("advantages.per_round")),
        advantages_used=_int("advantages.used_per_game", v("advantages.used_per_game")),
        events=events,
        events_used=_int("events.used_per_game", v("events.used_per_game")),
        archbishop_excluded=_strs("events.archbishop_excluded", v("events.archbishop_excluded")),
    )
    _check_consistency(tables)
    return tables


def _check_consistency(t: Tables) -> None:
    """Cross-table checks: enough cards for every round, sane counts."""
    for r in range(1, t.rounds + 1):
        n = len(t.round_craftsmen(r))
        if n < t.shiring_per_round:
            raise _bad("craftsmen.round_cards", f"round {r} has {n} cards")
    if t.capacity["shiring"] != t.shiring_per_round:
        raise _bad("board.capacity_shiring", "needs one Shiring space per Shiring craftsman")
    if t.capacity["priory"] != len(t.priory_vp):
        raise _bad("board.priory_vp", "needs one VP value per Priory space (board.capacity_priory)")
    if t.capacity["kingsbridge"] != t.advantages_per_round:
        raise _bad("board.capacity_kingsbridge", "needs one space per advantage card a round")
    if sum(t.capacity.values()) < 4 * t.master_builders:
        raise _bad("board.capacity_*", "fewer spaces than master builders in a 4-player game")
    ordinary = len(t.ordinary_advantages())
    dealt = t.advantages_per_round * (t.rounds - 1)
    if dealt > min(ordinary, t.advantages_used):
        raise _bad("advantages.used_per_game", f"{dealt} ordinary cards are needed")
    if len(t.last_round_advantages()) != t.advantages_per_round:
        raise _bad("advantages.last_round_cards", "needs one card per Kingsbridge card per round")
    if min(t.events_used, len(t.events)) < t.rounds:
        raise _bad("events.used_per_game", "needs one event per round")
    if len(t.gold_by_seat) < 4:
        raise _bad("setup.gold_by_seat", "needs a value for each of 4 seats")
    for name in t.starting_craftsmen:
        if t.craftsmen[name].round != 0:
            raise _bad(f"craftsmen.{name}", "a starting craftsman has round 0")
    for cid, c in t.craftsmen.items():
        if c.round > t.rounds:
            raise _bad(f"craftsmen.round_cards.{cid}", f"round {c.round} is after the last")
