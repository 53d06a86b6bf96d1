"""The Pillars data tables, read from ``game.data`` and checked once when the game is made.

Every value the rules use comes from ``data/*.yaml`` (or a user's profile); a value of the
wrong shape raises ``BadOptions`` naming its key.
"""

from __future__ import annotations

import attrs

from reference.core import tables as tb
from reference.core.datafile import DataSet
from reference.core.stock import Stock

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
    cubes: dict[str, Stock]
    """The game's cubes of each kind (null in a profile: an unlimited supply)."""
    market_stock: dict[str, int]
    kings_court_metal: int
    grey_workers: Stock
    """Grey workers at Shiring Castle (null in a profile: never run out)."""
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


PER_CARD_MOST = 20
"""The most cubes, workers, uses or points one card may carry (printed cards carry at most
10): a card yielding millions of cubes would make the listing of legal events explode."""


def _craftsman(key: str, raw: object, rounds: range) -> Craftsman:
    spec = tb.record(key, raw, (), CRAFTSMAN_FIELDS)
    needs = spec.get("needs_family")
    return Craftsman(
        name=tb.text(f"{key}.name", spec.get("name", key)),
        family=tb.text(f"{key}.family", spec.get("family", key)),
        round=tb.whole(f"{key}.round", spec.get("round", 0), rounds.start, rounds.stop - 1),
        cost=tb.whole(f"{key}.cost", spec.get("cost", 0)),
        uses=tb.whole(f"{key}.uses", spec.get("uses", 1), 1, PER_CARD_MOST),
        input=tb.counts(
            f"{key}.input", spec.get("input", {}), (*RESOURCES, "gold"), high=PER_CARD_MOST
        ),
        vp=tb.whole(f"{key}.vp", spec.get("vp", 0), 0, PER_CARD_MOST),
        gold=tb.whole(f"{key}.gold", spec.get("gold", 0), 0, PER_CARD_MOST),
        automatic=tb.flag(f"{key}.automatic", spec.get("automatic", False)),
        needs_metal=tb.flag(f"{key}.needs_metal", spec.get("needs_metal", False)),
        needs_family=None if needs is None else tb.text(f"{key}.needs_family", needs),
    )


CRAFTSMAN_FIELDS = (
    *("name", "family", "round", "cost", "uses", "input", "vp", "gold"),
    *("automatic", "needs_metal", "needs_family"),
)
ADVANTAGE_FIELDS = ("amount", "resource", "resources")


def _advantage(key: str, raw: object, last_round: bool) -> Advantage:
    spec = tb.record(key, raw, ("kind", "effect"), ADVANTAGE_FIELDS)
    effect = tb.choice(f"{key}.effect", spec["effect"], ADVANTAGE_EFFECTS)
    resource = spec.get("resource")
    if effect == "income" or resource is not None:
        allowed = MARKET_RESOURCES if effect == "income" else RESOURCES
        resource = tb.choice(f"{key}.resource", resource, allowed)
    return Advantage(
        kind=tb.choice(f"{key}.kind", spec["kind"], ("immediate", "permanent", "one_shot")),
        effect=effect,
        amount=tb.whole(f"{key}.amount", spec.get("amount", 0), 0, PER_CARD_MOST),
        resource=resource,
        resources=tb.counts(
            f"{key}.resources", spec.get("resources", {}), RESOURCES, high=PER_CARD_MOST
        ),
        last_round=last_round,
    )


def _event(key: str, raw: object) -> EventCard:
    spec = tb.record(key, raw, ("sign", "effect"), ("amount",))
    return EventCard(
        tb.choice(f"{key}.sign", spec["sign"], ("positive", "negative")),
        tb.choice(f"{key}.effect", spec["effect"], EVENT_EFFECTS),
        tb.whole(f"{key}.amount", spec.get("amount"), -PER_CARD_MOST, PER_CARD_MOST),
    )


def _resource_card(key: str, raw: object) -> ResourceCard:
    spec = tb.record(key, raw, ("resource", "workers", "yield"))
    return ResourceCard(
        tb.choice(f"{key}.resource", spec["resource"], MARKET_RESOURCES),
        tb.whole(f"{key}.workers", spec["workers"], 0, PER_CARD_MOST),
        tb.whole(f"{key}.yield", spec["yield"], 0, PER_CARD_MOST),
    )


def read_tables(data: DataSet) -> Tables:
    """Typed tables from the data in force; raises BadOptions on a value of the wrong shape."""
    v = data.value

    rounds = tb.whole_at(data, "setup.rounds", 1, 20)
    resource_cards = {
        cid: _resource_card(f"cards.resource_cards.{cid}", spec)
        for cid, spec in tb.mapping("cards.resource_cards", v("cards.resource_cards")).items()
    }
    # PIL-SETUP-02: each player starts with one card of each starting craftsman (three).
    starting = tb.names("setup.starting_craftsmen", v("setup.starting_craftsmen"), distinct=True)
    craftsmen: dict[str, Craftsman] = {}
    for i, cid in enumerate(starting):
        if f"craftsmen.{cid}" not in data.entries:
            raise tb.bad(f"setup.starting_craftsmen[{i}]", "a craftsman with a data entry", cid)
        craftsmen[cid] = _craftsman(f"craftsmen.{cid}", v(f"craftsmen.{cid}"), range(0, 1))
    # PIL-CRAFT-*: the round cards come out in rounds 1..setup.rounds.
    for cid, spec in tb.mapping("craftsmen.round_cards", v("craftsmen.round_cards")).items():
        key = f"craftsmen.round_cards.{cid}"
        craftsmen[cid] = _craftsman(key, spec, range(1, rounds + 1))
    advantages: dict[str, Advantage] = {}
    for cid, spec in tb.mapping("advantages.cards", v("advantages.cards")).items():
        advantages[cid] = _advantage(f"advantages.cards.{cid}", spec, False)
    last = tb.mapping("advantages.last_round_cards", v("advantages.last_round_cards"))
    for cid, spec in last.items():
        advantages[cid] = _advantage(f"advantages.last_round_cards.{cid}", spec, True)
    events = {
        k: _event(f"events.cards.{k}", spec)
        for k, spec in tb.mapping("events.cards", v("events.cards")).items()
    }
    perms_raw = tb.record("craftsmen.permissions", v("craftsmen.permissions"), PERMISSIONS)
    permissions = {k: tb.names(f"craftsmen.permissions.{k}", val) for k, val in perms_raw.items()}
    gold_cap = v("board.gold_cap")
    tables = Tables(
        gold_by_seat=tb.wholes("setup.gold_by_seat", v("setup.gold_by_seat")),
        start_vp=tb.whole_at(data, "setup.start_vp"),
        workers=tb.whole_at(data, "setup.workers", 0, 99),
        master_builders=tb.whole_at(data, "setup.master_builders", 1, 12),
        starting_craftsmen=starting,
        cubes=tb.stocks("setup.cubes", v("setup.cubes"), RESOURCES, exact=True),
        market_stock=tb.counts(
            "setup.market_stock", v("setup.market_stock"), MARKET_RESOURCES, exact=True, high=99
        ),
        kings_court_metal=tb.whole_at(data, "setup.kings_court_metal", 0, 99),
        grey_workers=tb.stock_at(data, "setup.grey_workers", 0, 99),
        cost_start=tb.whole_at(data, "setup.cost_start"),
        rounds=rounds,
        # A board space count beyond 12 is no printed board; it would only exhaust memory.
        capacity={loc: tb.whole_at(data, f"board.capacity_{loc}", 0, 12) for loc in LOCATIONS},
        priory_vp=tb.wholes("board.priory_vp", v("board.priory_vp"), 0, PER_CARD_MOST),
        wool_mill_gold_per_worker=tb.whole_at(
            data, "board.wool_mill_gold_per_worker", 0, PER_CARD_MOST
        ),
        castle_grey_workers=tb.whole_at(data, "board.castle_grey_workers", 0, 99),
        kings_court_first_metal=tb.whole_at(data, "board.kings_court_first_metal", 0, 99),
        free_from_draw=tb.whole_at(data, "board.free_from_draw", 1),
        resource_limit=tb.whole_at(data, "board.resource_limit", 0, 99),
        resource_limit_counts_metal=tb.flag(
            "board.resource_limit_counts_metal", v("board.resource_limit_counts_metal")
        ),
        craftsman_limit=tb.whole_at(data, "board.craftsman_limit", 1, 99),
        gold_cap=None if gold_cap is None else tb.whole("board.gold_cap", gold_cap, 1),
        vp_floor=tb.whole_at(data, "board.vp_floor", -tb.MOST),
        buy_prices=tb.counts(
            "market.buy_prices", v("market.buy_prices"), MARKET_RESOURCES, exact=True
        ),
        sell_prices=tb.counts("market.sell_prices", v("market.sell_prices"), RESOURCES, exact=True),
        die_faces=tb.wholes("tax.die_faces", v("tax.die_faces"), 0, 99),
        shortfall_gold_per_vp=tb.whole_at(data, "tax.shortfall_gold_per_vp"),
        resource_cards=resource_cards,
        resource_cards_revealed=tb.whole_at(
            data, "cards.resource_cards_revealed", 0, len(resource_cards)
        ),
        craftsmen=craftsmen,
        permissions=permissions,
        shiring_per_round=tb.whole_at(data, "craftsmen.shiring_per_round", 0, 12),
        advantages=advantages,
        advantages_per_round=tb.whole_at(data, "advantages.per_round", 0, 12),
        advantages_used=tb.whole_at(data, "advantages.used_per_game"),
        events=events,
        events_used=tb.whole_at(data, "events.used_per_game"),
        archbishop_excluded=tb.names("events.archbishop_excluded", v("events.archbishop_excluded")),
    )
    _check_consistency(tables)
    return tables


PERMISSIONS = ("buy_wood", "sell_stone")
"""The permission entries the market rules read (PIL-MARKET-*)."""


def _check_consistency(t: Tables) -> None:
    """Cross-table checks: enough cards for every round, one space per card, sane counts."""
    for r in range(1, t.rounds + 1):
        n = len(t.round_craftsmen(r))
        if n < t.shiring_per_round:
            raise tb.bad(
                "craftsmen.round_cards", f"{t.shiring_per_round} cards for round {r}", f"{n}"
            )
    if t.capacity["shiring"] != t.shiring_per_round:
        expected = "one Shiring space per Shiring craftsman (craftsmen.shiring_per_round)"
        raise tb.bad("board.capacity_shiring", expected, t.capacity["shiring"])
    if t.capacity["priory"] != len(t.priory_vp):
        expected = "one VP value per Priory space (board.capacity_priory)"
        raise tb.bad("board.priory_vp", expected, t.priory_vp)
    if t.capacity["kingsbridge"] != t.advantages_per_round:
        expected = "one space per advantage card a round (advantages.per_round)"
        raise tb.bad("board.capacity_kingsbridge", expected, t.capacity["kingsbridge"])
    if sum(t.capacity.values()) < 4 * t.master_builders:
        expected = "a space for every master builder in a 4-player game"
        raise tb.bad("board.capacity_*", expected, sum(t.capacity.values()))
    ordinary = len(t.ordinary_advantages())
    dealt = t.advantages_per_round * (t.rounds - 1)
    if dealt > min(ordinary, t.advantages_used):
        expected = f"at least {dealt} ordinary cards used (advantages.cards)"
        raise tb.bad("advantages.used_per_game", expected, min(ordinary, t.advantages_used))
    if len(t.last_round_advantages()) != t.advantages_per_round:
        expected = "one card per Kingsbridge card a round (advantages.per_round)"
        raise tb.bad("advantages.last_round_cards", expected, len(t.last_round_advantages()))
    if min(t.events_used, len(t.events)) < t.rounds:
        expected = f"one event per round ({t.rounds})"
        raise tb.bad("events.used_per_game", expected, min(t.events_used, len(t.events)))
    if len(t.gold_by_seat) < 4:
        raise tb.bad("setup.gold_by_seat", "a value for each of 4 seats", t.gold_by_seat)
