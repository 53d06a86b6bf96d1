"""Rule provenance (reference/core/trace.py), the same in every game.

A recording copy of a rule set plays exactly as the rule set does; every trace point names
a rule of the game's catalogue and paths the state has; every value a game changes is put
down to a catalogue rule, and the rules' own trace points (not the event type's rule) take
the values each game pays out: a player's coins in Palmyra, goods in Milestones, citizens,
favours and decurions in Municipium, gold in Pillars.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from oracle.explain import traced
from oracle.formats.converter import to_json
from oracle.play import choose
from reference.core import paths
from reference.core.game import step
from reference.core.ruleset import RuleSet
from reference.core.trace import SETUP_INDEX, Change, Mark, Recorder
from reference.core.walk import leaves
from reference.registry import game_names, make_game

CASES = [
    ("pillars", {}, 3, 11),
    ("pillars", {"bishop_positive": "cube_only", "archbishop_timing": "cathedral"}, 4, 12),
    ("palmyra", {}, 3, 13),
    ("palmyra", {"mode": "advanced"}, 2, 14),
    ("palmyra", {"mode": "solo"}, 1, 15),
    ("milestones", {}, 3, 16),
    ("municipium", {}, 3, 17),
    ("municipium", {"end_mode": "immediate"}, 4, 18),
]
NAMES = ("red", "blue", "green", "white")


def play(game: RuleSet[Any, Any, Any, Any], players: int, seed: int) -> list[Any]:
    """A seeded random game's events (to its end)."""
    state = game.new_game(NAMES[:players])
    rng = random.Random(seed)
    events = []
    while not game.is_over(state):
        event = choose(game, state, rng)
        events.append(event)
        state = step(game, state, event)
    return events


class Keeping(Recorder):
    """A recorder that keeps every mark of a whole game (``marks`` is cleared per event)."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: list[Mark] = []

    def note(self, rule_id: str, state: Any, decided: Any = (), why: str = "") -> None:
        super().note(rule_id, state, decided, why)
        self.kept.append(self.marks[-1])


@pytest.mark.parametrize(("name", "options", "players", "seed"), CASES)
def test_a_recording_rule_set_plays_exactly_as_the_rule_set(
    name: str, options: dict[str, Any], players: int, seed: int
) -> None:
    game = make_game(name, options)
    assert isinstance(game, RuleSet)
    recorder = Keeping()
    recording = game.recording(recorder)
    assert recording is not game and recording.tables.recorder is recorder
    assert game.tables.recorder is None
    state = game.new_game(NAMES[:players])
    assert recording.new_game(NAMES[:players]) == state
    for event in play(game, players, seed):
        after = step(game, state, event)
        assert step(recording, state, event) == after
        state = after
    assert recorder.kept, "no trace point noted anything"
    catalogue = set(game.catalogue.ids())
    for mark in recorder.kept:
        assert mark.rule_id in catalogue, mark.rule_id
        for path in mark.decided:
            concrete = path.replace("*", NAMES[0]) if path.startswith("players.*") else path
            if "*" in concrete:
                continue
            paths.read(mark.state, concrete)  # raises UnknownPath for a path it has not


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options", "players", "seed"), CASES)
def test_every_value_a_game_changes_is_put_down_to_a_catalogue_rule(
    name: str, options: dict[str, Any], players: int, seed: int
) -> None:
    game = make_game(name, options)
    assert isinstance(game, RuleSet)
    events = play(game, players, seed)
    setup = game.new_game(NAMES[:players])
    wanted = sorted(leaves(to_json(setup)))
    catalogue = set(game.catalogue.ids())
    changes = traced(game, NAMES[:players], events, wanted)
    changed = 0
    for path in wanted:
        for change in changes[path]:
            assert change.rule_id in catalogue, (path, change)
            changed += change.changed
    assert changed > 0


PAYOUTS = {
    "pillars": (
        "gold",
        {
            "PIL-CARDS-04",  # a craftsman bought
            "PIL-BUILD-02",  # a builder placed
            "PIL-EVENT-01",  # king, William, Philip
            "PIL-TAX-02",  # a fine or tax not paid in full
            "PIL-CARDS-07",  # the wool mill
            "PIL-ADV-01",  # an immediate gold card
            "PIL-TAX-01",  # the tax
            "PIL-ADV-05",  # Francis caps the tax
            "PIL-MARKET-02",  # buying
            "PIL-MARKET-03",  # selling
            "PIL-CATH-01",  # a conversion: master woodworker's gold, goldsmith's cost
            "PIL-CATH-05",  # tool maker and architect
        },
    ),
    "palmyra": ("coins", {"PAL-TAX-02", "PAL-TAX-05", "PAL-EMP-05", "PAL-EMP-02"}),
    "milestones": (
        "goods",
        {
            "MIL-PROD-01",  # production
            "MIL-PROD-02",  # doubled by a bonus tile
            "MIL-CASTLE-02",  # the Castle tax
            "MIL-TRADE-05",  # buying
            "MIL-TRADE-06",  # selling
            "MIL-BUILD-01",  # building costs
            "MIL-MILL-01",  # flour costs grain
        },
    ),
    "municipium": ("decurions", {"MUN-DECURION-01", "MUN-BASILICA-01"}),
}
"""Per game, a value the rules pay out inside other rules' events, and every rule that can
change it (from each game's rules): its changes come from the rules' own trace points, never
from the type of the event they happen in (a Palmyra tax payout at ``end_action`` is
PAL-TAX-02's, not PAL-TURN-02's)."""


@pytest.mark.parametrize("name", game_names())
def test_payouts_are_put_down_to_the_rule_that_pays_them_not_to_the_event_type(
    name: str,
) -> None:
    field, rules = PAYOUTS[name]
    seen: set[str] = set()
    for case_name, options, players, seed in CASES:
        if case_name != name:
            continue
        game = make_game(name, options)
        assert isinstance(game, RuleSet)
        events = play(game, players, seed)
        wanted = [f"players.{p}.{field}" for p in NAMES[:players]]
        for path, found in traced(game, NAMES[:players], events, wanted).items():
            for change in found:
                if change.changed and change.event_index >= 0:
                    assert change.rule_id in rules, (path, change)
                    seen.add(change.rule_id)
    assert seen, f"no {field} changed in {name}'s games"


def test_a_change_shows_its_values_as_a_log_writes_them() -> None:
    # A reader compares these with their log's claims: null, not None; "red", not 'red'.
    assert Change("bank", None, None, "PAL-SETUP-06", SETUP_INDEX).gave() == "set to null"
    assert Change("supply.wood", 23, None, "X-1", 4).gave() == "23 -> null"
    assert Change("current", "red", "blue", "X-1", 4).gave() == '"red" -> "blue"'
    assert Change("flag", False, True, "X-1", 4).gave() == "false -> true"
    assert Change("gold", 5, 8, "X-1", 4).gave() == "+3"
    long = Change("deck", [], list(range(30)), "X-1", 4).gave()
    assert long.startswith("[] -> [0, 1, 2") and long.endswith("...")
    assert len(long.split(" -> ")[1]) == 40
