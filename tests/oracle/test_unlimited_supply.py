"""Issue 23 item 5: a profile can say "unlimited" (null) for a supply or stock; a bound that
is there only against absurd sizes says so in its error.

PIL-PROD-02 (RB p.6): cubes the supply cannot provide are owed. A supply that never runs
out never leaves a cube owed; a limited one does once it is empty.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import rules_oracle
from rules_oracle import BadOptions

KINDS = ("sand", "wood", "stone", "metal")


def played(players: int, seed: int, profile: dict[str, Any]) -> tuple[list[str], list[Any]]:
    """A seeded game under ``profile``, every state path claimed after each event: its
    player names and its events (the result line last)."""
    lines = rules_oracle.play_log(
        "pillars", players, seed=seed, options={"profile": profile}, full=True
    )
    return json.loads(lines[0])["players"], [json.loads(line) for line in lines[1:]]


def test_a_log_declaring_999_cubes_of_each_kind_validates() -> None:
    """The regression: an implementation with no cube limit declares 999 each."""
    profile = {"setup.cubes": dict.fromkeys(KINDS, 999)}
    players, events = played(4, 1, profile)
    verdict = rules_oracle.validate_events("pillars", players, events, profile=profile)
    assert verdict.kind == "valid", verdict.message


def owed_ever(events: list[Any]) -> bool:
    """Whether any claim after any event shows a cube owed (``players.X.owed.Y``)."""
    return any(".owed." in path for e in events for path in e.get("state", {}))


def test_a_log_declaring_an_unlimited_supply_validates_and_claims_it_as_null() -> None:
    profile = {"setup.cubes": dict.fromkeys(KINDS), "setup.grey_workers": None}
    players, events = played(4, 2, profile)
    verdict = rules_oracle.validate_events("pillars", players, events, profile=profile)
    assert verdict.kind == "valid", verdict.message
    claims = events[-2]["state"]
    assert [claims[f"supply.{kind}"] for kind in KINDS] == [None] * 4
    assert claims["castle_workers"] is None
    assert not owed_ever(events)  # PIL-PROD-02: an endless supply never owes a cube


def test_a_small_limited_supply_does_leave_cubes_owed() -> None:
    """The same rule the other way: an almost empty supply owes cubes (PIL-PROD-02), so
    the test above could fail."""
    players, events = played(4, 2, {"setup.cubes": {"sand": 5, "wood": 5, "stone": 5, "metal": 1}})
    assert owed_ever(events)


def test_unlimited_and_limited_kinds_mix() -> None:
    profile = {"setup.cubes": {"sand": None, "wood": 30, "stone": None, "metal": 2}}
    players, events = played(3, 0, profile)
    verdict = rules_oracle.validate_events("pillars", players, events, profile=profile)
    assert verdict.kind == "valid", verdict.message
    claims = events[-2]["state"]
    assert claims["supply.sand"] is None
    assert isinstance(claims["supply.wood"], int)


def test_an_unlimited_castle_gives_its_grey_workers_every_time() -> None:
    """PIL-CASTLE-01: the castle's occupant takes 2 grey workers (board.castle_grey_workers);
    from a stock that never runs out, always 2."""
    profile = {"setup.grey_workers": None}
    position = rules_oracle.load("pillars", profile=profile).setup(["red", "blue"])
    assert position.to_json()["castle_workers"] is None
    taken = []
    while not position.is_over:
        before = position.to_json()["players"]
        legal = position.legal()
        castle = [e for e in legal if e.get("space") == "castle_1"]  # every round if it can
        position = position.apply((castle or legal)[0])
        after = position.to_json()["players"]
        taken += [
            after[n]["grey_workers_next"] - before[n]["grey_workers_next"]
            for n in after
            if after[n]["grey_workers_next"] > before[n]["grey_workers_next"]
        ]
    assert taken and set(taken) == {2}


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        (
            "setup.cubes",
            {"sand": 5000, "wood": 1, "stone": 1, "metal": 1},
            "data key setup.cubes.sand: expected a whole number 0..999 or null (unlimited), "
            "got 5000",
        ),
        (
            "setup.grey_workers",
            -1,
            "data key setup.grey_workers: expected a whole number 0..99 or null (unlimited), "
            "got -1",
        ),
    ],
)
def test_a_stock_out_of_bounds_names_the_way_to_say_unlimited(
    key: str, value: Any, expected: str
) -> None:
    with pytest.raises(BadOptions) as refused:
        rules_oracle.load("pillars", profile={key: value})
    assert refused.value.message == expected


def test_an_unlimited_palmyra_bank_never_runs_out() -> None:
    """PAL-END-02 ends the game when the bank's last coin is gone; a bank that never runs
    out never ends it, and is claimed as null. In the solo game (PAL-SOLO-02: the bank
    drains 3 coins a turn) the game then ends by its tiles."""
    for mode, players in (("standard", 3), ("solo", 1)):
        options = {"mode": mode, "profile": {"bank.total": None}}
        lines = rules_oracle.play_log("palmyra", players, seed=0, options=options, full=True)
        header, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
        verdict = rules_oracle.validate_events(
            "palmyra", header["players"], events, options=options
        )
        assert verdict.kind == "valid", verdict.message
        assert all(e["state"]["bank"] is None for e in events if "state" in e)
        final = rules_oracle.validate_events(
            "palmyra", header["players"], events, options=options, at=len(events) - 1
        )
        assert final.state_at["end"] == "tiles"
