"""Blame by the rules: a divergent verdict names the event at fault and the rule, even where
the rules changed nothing (issue 23 item 2), and credits each value to the rule that made
it in every game.

Each log is written here through the public API (``rules_oracle.load``, ``Position``,
``validate_events``): our engine plays it, every event claims the values our engine holds,
and one claim is planted as a faulty implementation would make it. The expected rules come
from the catalogues (reference/<game>/data/rules.yaml):

- Pillars, a 9th builder placed "for -1 gold" (a cost marker that fell below 0): from the
  8th draw on, placement is free, PIL-BUILD-04 ("Free and mandatory from the 8th draw");
  the rules leave the gold as it was there, and the claim is 1 more.
- Pillars, a tax refunded although the exemption means no tax: a holder who plays the tax
  exemption pays no tax, PIL-ADV-08; the claim is the die's value more.
- Palmyra, one coin too many at the end of Collect taxes: taxes pay coins from the bank,
  PAL-TAX-02 (not PAL-TURN-02, the rule of the end_action event).
- Milestones, one good too many on a move that produced: workers produce their good,
  MIL-PROD-01 (not MIL-MOVE-01, the rule of the move event).
- Municipium, three citizens to the family with most influence at a citizen event: the
  first takes two and the second the third, MUN-CITIZEN-01 (not the rule of the event
  that brought the third citizen).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import rules_oracle
from oracle.report_text import verdict_text

Event = dict[str, Any]
Policy = Callable[[Any, list[Event]], Event]
Stop = Callable[[Any, Event, Any], bool]


def write_log(
    game: str,
    players: tuple[str, ...],
    policy: Policy,
    stop: Stop,
    watched: Callable[[Any], list[str]],
    limit: int = 3000,
) -> tuple[list[Event], Any, Any]:
    """Play ``game`` with ``policy`` (position, legal events -> event) until ``stop``
    (position before, event, position after) holds; every event claims the ``watched``
    paths as our engine holds them after it. Returns the events, and the positions before
    and after the last one."""
    position = rules_oracle.load(game).setup(players)
    events: list[Event] = []
    for _ in range(limit):
        event = policy(position, position.legal())
        after = position.apply(event)
        events.append({**event, "state": {p: after[p] for p in watched(after)}})
        if stop(position, event, after):
            return events, position, after
        position = after
    raise AssertionError(f"{game}: the event looked for never came")


def random_policy(seed: int) -> Policy:
    rng = random.Random(seed)
    return lambda position, legal: rng.choice(legal)


def planted(events: list[Event], path: str, change: int) -> list[Event]:
    """The events with the last one's claim of ``path`` off by ``change``."""
    last = events[-1]
    state = dict(last["state"])
    state[path] += change
    return [*events[:-1], {**last, "state": state}]


def gold_of(position: Any) -> list[str]:
    return [p for p in position.paths() if p.endswith(".gold") and p.startswith("players.")]


# --- Pillars ---------------------------------------------------------------------------------


def builders_policy(position: Any, legal: list[Event]) -> Event:
    """Nobody buys in Phase I; every drawn builder is placed (the first space offered)."""
    for wanted in ("pass_cards", "place_master_builder"):
        for event in legal:
            if event["type"] == wanted:
                return event
    return legal[0]


def test_a_builder_placed_below_cost_0_is_blamed_on_the_rule_that_makes_it_free() -> None:
    players = ("red", "blue", "green")

    def ninth_placed(before: Any, event: Event, after: Any) -> bool:
        return bool(event["type"] == "place_master_builder" and before["draws"] == 9)

    events, before, _ = write_log("pillars", players, builders_policy, ninth_placed, gold_of)
    placer = events[-1]["player"]
    gold = f"players.{placer}.gold"
    verdict = rules_oracle.validate_events("pillars", players, planted(events, gold, +1))
    assert verdict.kind == "divergent", verdict.message
    assert verdict.event_index == len(events) - 1
    (d,) = verdict.divergences
    assert (d.path, d.claimed, d.reference) == (gold, before[gold] + 1, before[gold])
    assert d.agreed_at == len(events) - 2  # the claim of the event before agreed
    first = d.blame[0]
    assert (first.event_index, first.action) == (len(events) - 1, "place_master_builder")
    assert [s.rule_id for s in first.steps] == ["PIL-BUILD-04"]
    assert first.steps[0].why.startswith("cost 0")
    assert first.before == first.after == before[gold]
    assert "left the value as it was" in first.suspicion
    text = verdict_text(verdict)
    assert f"event {len(events) - 1} place_master_builder: cost 0" in text
    assert "PIL-BUILD-04 (Free and mandatory from the 8th draw)" in text


def exemption_policy(position: Any, legal: list[Event]) -> Event:
    """The tax exemption is revealed in Kingsbridge and taken there; its holder stays off
    King's Court and plays it at the tax; everything else: the first choice offered."""
    by_type: dict[str, list[Event]] = {}
    for event in legal:
        by_type.setdefault(event["type"], []).append(event)
    for event in by_type.get("reveal_advantages", []):
        if "tax_exemption" in event["cards"]:
            return event
    for event in by_type.get("place_master_builder", []):
        if position.get(f"kingsbridge.{event['space']}") == "tax_exemption":
            return event
    for event in legal:
        if event["type"] == "play_advantage" and event["card"] == "tax_exemption" and event["play"]:
            return event
    if "pass_cards" in by_type:
        return by_type["pass_cards"][0]
    places = [e for e in by_type.get("place_master_builder", []) if "kings_court" not in e["space"]]
    if places:
        return places[0]
    if "pass_master_builder" in by_type:
        return by_type["pass_master_builder"][0]
    return legal[0]


def test_a_tax_refunded_where_the_exemption_means_no_tax_is_blamed_on_the_exemption() -> None:
    players = ("red", "blue")

    def exemption_played(before: Any, event: Event, after: Any) -> bool:
        return bool(event["type"] == "play_advantage" and event["card"] == "tax_exemption")

    events, before, _ = write_log("pillars", players, exemption_policy, exemption_played, gold_of)
    holder = events[-1]["player"]
    gold = f"players.{holder}.gold"
    tax = before["tax"]
    verdict = rules_oracle.validate_events("pillars", players, planted(events, gold, +tax))
    assert verdict.kind == "divergent", verdict.message
    (d,) = verdict.divergences
    assert (d.path, d.claimed - d.reference) == (gold, tax)
    first = d.blame[0]
    assert (first.event_index, first.action) == (len(events) - 1, "play_advantage")
    assert [s.rule_id for s in first.steps] == ["PIL-ADV-08"]
    assert first.steps[0].why == "no tax: the tax exemption is played"
    assert f"the claim is off by +{tax}" in first.suspicion
    assert "play_advantage: no tax: the tax exemption is played, PIL-ADV-08" in verdict_text(
        verdict
    )


# --- the other games: each value credited to the rule that made it ---------------------------


def test_a_palmyra_tax_payout_is_credited_to_the_tax_rule_not_to_the_end_of_the_action() -> None:
    players = ("red", "blue")

    def paid_taxes(before: Any, event: Event, after: Any) -> bool:
        if event["type"] != "end_action" or before["action.kind"] != "collect_taxes":
            return False
        return bool(
            after[f"players.{event['player']}.coins"] > before[f"players.{event['player']}.coins"]
        )

    def watched(position: Any) -> list[str]:
        return ["bank", *[f"players.{p}.coins" for p in players]]

    events, before, after = write_log("palmyra", players, random_policy(3), paid_taxes, watched)
    coins = f"players.{events[-1]['player']}.coins"
    planted_events = planted(planted(events, coins, +1), "bank", -1)
    verdict = rules_oracle.validate_events("palmyra", players, planted_events)
    assert verdict.kind == "divergent", verdict.message
    by_path = {d.path: d for d in verdict.divergences}
    assert set(by_path) == {coins, "bank"}
    for d in by_path.values():
        first = d.blame[0]
        assert first.event_index == len(events) - 1
        assert first.steps[0].rule_id == "PAL-TAX-02"
        assert "PAL-TURN-02" not in [s.rule_id for s in first.steps]
        assert d.causes[-1].split(" ")[1] == "PAL-TAX-02"
    paid = after[coins] - before[coins]
    assert by_path[coins].causes[-1].startswith(f"+{paid} PAL-TAX-02")


def test_a_milestones_production_is_credited_to_the_production_rule_not_to_the_move() -> None:
    players = ("red", "blue")

    def produced(before: Any, event: Event, after: Any) -> bool:
        if event["type"] != "move":
            return False
        goods = f"players.{event['player']}.goods"
        return any(after[f"{goods}.{g}"] > before[f"{goods}.{g}"] for g in before[goods])

    def watched(position: Any) -> list[str]:
        return [f"players.{p}.goods.{g}" for p in players for g in position[f"players.{p}.goods"]]

    events, before, after = write_log("milestones", players, random_policy(4), produced, watched)
    goods = f"players.{events[-1]['player']}.goods"
    good = next(g for g in before[goods] if after[f"{goods}.{g}"] > before[f"{goods}.{g}"])
    path = f"{goods}.{good}"
    verdict = rules_oracle.validate_events("milestones", players, planted(events, path, +1))
    assert verdict.kind == "divergent", verdict.message
    (d,) = verdict.divergences
    first = d.blame[0]
    assert first.event_index == len(events) - 1
    assert first.steps[0].rule_id == "MIL-PROD-01"
    assert d.causes[-1].split(" ")[1] == "MIL-PROD-01"


def test_a_municipium_citizen_event_is_credited_to_the_citizen_event_rule() -> None:
    players = ("red", "blue")

    def shared(before: Any, event: Event, after: Any) -> bool:
        """Both families gained citizens of one kind at one event, 2 and 1: a citizen
        event with both present, no decurion made."""
        gains = []
        for p in players:
            for kind, n in after[f"players.{p}.citizens"].items():
                gains.append(n - before[f"players.{p}.citizens.{kind}"])
            if after[f"players.{p}.decurions"] != before[f"players.{p}.decurions"]:
                return False
        return sorted(g for g in gains if g) == [1, 2]

    def watched(position: Any) -> list[str]:
        return [
            f"players.{p}.citizens.{k}" for p in players for k in position[f"players.{p}.citizens"]
        ]

    events, before, after = write_log("municipium", players, random_policy(6), shared, watched)
    top = next(
        f"players.{p}.citizens.{k}"
        for p in players
        for k, n in after[f"players.{p}.citizens"].items()
        if n - before[f"players.{p}.citizens.{k}"] == 2
    )
    verdict = rules_oracle.validate_events("municipium", players, planted(events, top, +1))
    assert verdict.kind == "divergent", verdict.message
    (d,) = verdict.divergences
    first = d.blame[0]
    assert first.event_index == len(events) - 1
    assert first.steps[0].rule_id == "MUN-CITIZEN-01"
    assert d.causes[-1].split(" ")[1] == "MUN-CITIZEN-01"


def test_a_value_wrong_from_the_start_is_blamed_on_the_setup_rule_that_made_it() -> None:
    """Everybody starts on 2 VP (PIL-SETUP-01); the first event (chance reveals advantage
    cards) touches no VP, so the only place the rules made red's VP is the setup."""
    position = rules_oracle.load("pillars").setup(("red", "blue"))
    first = position.legal()[0]
    claim = {**first, "state": {"players.red.vp": 3}}
    verdict = rules_oracle.validate_events("pillars", ("red", "blue"), [claim])
    assert verdict.kind == "divergent", verdict.message
    (d,) = verdict.divergences
    assert (d.reference, d.agreed_at, d.causes) == (2, None, ())
    (setup,) = d.blame
    assert (setup.event_index, setup.action) == (-1, "setup")
    assert [s.rule_id for s in setup.steps] == ["PIL-SETUP-01"]
    assert setup.text == "setup: set to 2, PIL-SETUP-01 (Starting gold and VP)"
