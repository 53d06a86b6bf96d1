"""Rule tests for Municipium, named after the catalogue ids they check.

Expected values are worked out from the rules digest (shared/rules/municipium.md) and the
seed 004, not copied from the engine.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from reference.core.errors import BadOptions, MalformedEvent, RuleViolation
from reference.core.game import CHANCE, step
from reference.municipium import make
from reference.municipium.engine import Municipium, check_event_handlers
from reference.municipium.events import (
    BasilicaDraw,
    BasilicaExchange,
    DrawCitizen,
    DrawCommon,
    EmporiumDraw,
    EndPower,
    ForumTakeFromInstitution,
    ForumTakeFromPlayer,
    MoveMember,
    MovePrefect,
    PlaceCitizen,
    PlaceMember,
    PlayFamilyCard,
    RelocateMember,
    RevealCard,
    TavernPull,
    UseBaths,
)
from reference.municipium.state import State

ZERO = {
    "temple": 0,
    "tavern": 0,
    "baths": 0,
    "emporium": 0,
    "basilica": 0,
    "forum": 0,
    "praetorium": 0,
}


def ready(game: Municipium, layout: dict[str, dict[str, int]], fields: str = "priest") -> State:
    """Set up by real events: citizen fields all drawn as ``fields``, members placed."""
    names = list(layout)
    state = game.new_game(names)
    while state.phase == "setup":
        state = step(game, state, DrawCitizen(fields))
    queues = {n: [i for i, c in layout[n].items() for _ in range(c)] for n in names}
    while state.phase == "placement":
        state = step(game, state, PlaceMember(state.current, queues[state.current].pop(0)))
    return state


def rule_of(game: Municipium, state: State, event: Any) -> str:
    with pytest.raises(RuleViolation) as info:
        game.apply(state, event)
    return info.value.rule_id


def give(state: State, name: str, **changes: Any) -> State:
    """Move tokens into a player's hand from the bag / supply (keeps the game sound)."""
    player = state.players[name]
    bag = dict(state.bag)
    citizens = dict(player.citizens)
    for kind, n in changes.get("citizens", {}).items():
        citizens[kind] += n
        bag[kind] -= n
    favours = changes.get("favours", 0)
    players = dict(state.players)
    players[name] = attrs.evolve(player, citizens=citizens, favours=player.favours + favours)
    return attrs.evolve(
        state, players=players, bag=bag, favour_supply=state.favour_supply - favours
    )


def with_power(state: State, institution: str, user: str) -> State:
    return attrs.evolve(state, phase="power", power=institution, power_user=user, powers=())


@pytest.fixture
def game() -> Municipium:
    return make({})


def test_event_dispatch_is_complete() -> None:
    assert check_event_handlers() == []


def test_unknown_event_is_malformed(game: Municipium) -> None:
    state = game.new_game(["red", "blue"])
    with pytest.raises(MalformedEvent):
        game.apply(state, object())


def test_bad_options_and_profiles() -> None:
    with pytest.raises(BadOptions):
        make({"end_mode": "sometimes"})
    with pytest.raises(BadOptions):
        make({"colour": "red"})
    with pytest.raises(BadOptions):
        make({"profile": {"board.roads": [["temple", "nowhere"]]}})
    with pytest.raises(BadOptions):
        make(
            {
                "profile": {
                    "cards.common_cards": [{"id": "X", "kind": "prefect", "target": "temple"}]
                }
            }
        )
    with pytest.raises(BadOptions):
        make({"profile": {"components.decurions_to_end": "five"}})
    with pytest.raises(BadOptions):
        make({}).new_game(["solo"])
    with pytest.raises(BadOptions):
        make({}).new_game(["a", "b", "c", "d", "e"])
    with pytest.raises(BadOptions):
        make({"profile": {"no.such_key": 1}})


def test_placeholders_are_the_unknown_tables() -> None:
    game = make({})
    assert set(game.data.placeholders()) == {
        "board.roads",
        "cards.common_cards",
        "cards.family_cards",
    }
    statuses = {r.id: r.status for r in game.catalogue.rules}
    assert statuses["MUN-BOARD-02"] == statuses["MUN-CARD-05"] == "placeholder"


def test_MUN_SETUP_initial_position(game: Municipium) -> None:
    state = game.new_game(["red", "blue", "green"])
    assert state.phase == "setup" and game.to_act(state) == CHANCE
    assert state.prefect == "basilica"
    assert state.favour_supply == 9
    assert state.bag == {"soldier": 13, "advocate": 13, "merchant": 13, "priest": 14}
    assert all(i.citizens == 1 for i in state.institutions.values())
    assert not state.institutions["temple"].favour
    two = game.new_game(["red", "blue"])
    assert two.phase == "placement"


def test_MUN_SETUP_04_fields_drawn_in_order(game: Municipium) -> None:
    state = game.new_game(["a", "b", "c"])
    for kind in ("soldier", "advocate", "merchant", "priest", "soldier", "advocate"):
        state = step(game, state, DrawCitizen(kind))
    fields = [state.institutions[n].citizen_field for n in game.tables.meeting_rooms]
    assert fields == ["soldier", "advocate", "merchant", "priest", "soldier", "advocate"]
    assert state.phase == "placement"


def test_MUN_PLACE_03_initial_temple_order(game: Municipium) -> None:
    # Digest M-1: temple holds A 1, B 2, C 2 -> B, C, A (B placed earlier than C).
    layout = {
        "a": {**ZERO, "temple": 1, "forum": 6},
        "b": {**ZERO, "temple": 2, "forum": 5},
        "c": {**ZERO, "temple": 2, "forum": 5},
    }
    state = ready(game, layout)
    assert state.temple_order == ("b", "c", "a")
    assert state.phase == "move" and state.current == "a" and state.round == 1


def test_MUN_TURN_01_wrong_player(game: Municipium) -> None:
    state = ready(game, {"a": {**ZERO, "forum": 7}, "b": {**ZERO, "forum": 7}})
    assert rule_of(game, state, DrawCommon("b")) == "MUN-TURN-01"


def test_MUN_MOVE_rules(game: Municipium) -> None:
    # Digest M-18: a in baths and emporium; roads baths-emporium, emporium-basilica.
    state = ready(
        game, {"a": {**ZERO, "baths": 1, "emporium": 1, "forum": 5}, "b": {**ZERO, "forum": 7}}
    )
    two = step(game, state, MoveMember("a", ("baths", "emporium", "basilica")))
    assert two.players["a"].members["basilica"] == 1
    assert rule_of(game, two, MoveMember("a", ("emporium", "basilica"))) == "MUN-MOVE-03"
    assert rule_of(game, state, MoveMember("a", ("baths", "emporium", "baths"))) == "MUN-MOVE-02"
    assert rule_of(game, state, MoveMember("a", ("baths", "forum"))) == "MUN-MOVE-01"
    assert rule_of(game, state, MoveMember("a", ("temple", "tavern"))) == "MUN-MOVE-04"
    one = step(game, state, MoveMember("a", ("baths", "emporium")))
    # the member that just arrived cannot walk on: the emporium's other member may
    both = step(game, one, MoveMember("a", ("emporium", "basilica")))
    assert rule_of(game, both, MoveMember("a", ("emporium", "basilica"))) == "MUN-MOVE-03"
    assert rule_of(game, one, MoveMember("a", ("baths", "emporium", "basilica"))) == "MUN-MOVE-03"
    with pytest.raises(MalformedEvent, match="'nowhere' is not an institution"):
        game.apply(state, MoveMember("a", ("baths", "nowhere")))  # names nothing: malformed


def test_MUN_CARD_02_family_card_once(game: Municipium) -> None:
    state = ready(game, {"a": {**ZERO, "forum": 7}, "b": {**ZERO, "forum": 7}})
    state = step(game, state, PlayFamilyCard("a", "F2"))
    assert state.players["a"].family_cards == ("F1", "F3")
    state = attrs.evolve(state, phase="move", current="a", draws_left=0, drawn=None)
    assert rule_of(game, state, PlayFamilyCard("a", "F2")) == "MUN-CARD-02"


def test_MUN_CARD_03_deck_reshuffles(game: Municipium) -> None:
    state = ready(game, {"a": {**ZERO, "forum": 7}, "b": {**ZERO, "forum": 7}})
    deck = state.common_deck
    state = attrs.evolve(state, common_deck=(), common_discard=deck)
    state = step(game, state, DrawCommon("a"))
    assert len(state.common_deck) == 12 and state.common_discard == ()
    assert game.to_act(state) == CHANCE
    assert rule_of(game, state, RevealCard("Z99")) == "MUN-CARD-04"


def test_MUN_PREFECT_event_three_players(game: Municipium) -> None:
    # Digest M-6: forum A 2, B 2, C 1, temple order B, A, C; field soldier; supply 9.
    layout = {
        "a": {**ZERO, "forum": 2, "tavern": 5},
        "b": {**ZERO, "forum": 2, "temple": 1, "tavern": 4},
        "c": {**ZERO, "forum": 1, "tavern": 6},
    }
    state = ready(game, layout, fields="soldier")
    assert state.temple_order == ("b", "a", "c")
    state = step(game, state, DrawCommon("a"))
    state = step(game, state, RevealCard("C05"))  # prefect to the forum (placeholder deck)
    assert state.prefect == "forum"
    assert state.players["b"].favours == 1
    assert state.players["a"].citizens["soldier"] == 1
    assert state.favour_supply == 8 and state.institutions["forum"].favour
    assert game.to_act(state) == CHANCE and state.draw_for == "field"
    state = step(game, state, DrawCitizen("merchant"))
    assert state.institutions["forum"].citizen_field == "merchant"
    assert state.current == "b" and state.phase == "move"


def test_MUN_PREFECT_05_choose_target(game: Municipium) -> None:
    state = ready(game, {"a": {**ZERO, "forum": 7}, "b": {**ZERO, "forum": 7}})
    state = step(game, state, PlayFamilyCard("a", "F1"))
    assert rule_of(game, state, MovePrefect("a", "temple")) == "MUN-PREFECT-05"
    assert rule_of(game, state, MovePrefect("a", "basilica")) == "MUN-PREFECT-05"
    after = step(game, state, MovePrefect("a", "forum"))
    assert after.players["a"].favours == 1  # a leads (tie 7-7, a first in temple order)


def test_MUN_CITIZEN_event_and_decurion(game: Municipium) -> None:
    # Digest M-3 shape: basilica holds 1 (+1 set below); A 3, B 1 there.
    layout = {
        "a": {**ZERO, "basilica": 3, "tavern": 4},
        "b": {**ZERO, "basilica": 1, "tavern": 6},
    }
    state = ready(game, layout)
    places = dict(state.institutions)
    places["basilica"] = attrs.evolve(places["basilica"], citizens=2)
    bag = dict(state.bag)
    bag["advocate"] -= 1
    state = attrs.evolve(state, institutions=places, bag=bag)
    state = step(game, state, PlayFamilyCard("a", "F2"))  # draw two citizens
    state = step(game, state, DrawCitizen("advocate"))
    assert state.phase == "place"
    assert rule_of(game, state, PlaceCitizen("a", "tavern")) == "MUN-CITIZEN-03"
    state = step(game, state, PlaceCitizen("a", "basilica"))
    assert state.players["a"].citizens["advocate"] == 2
    assert state.players["b"].citizens["advocate"] == 1
    assert state.institutions["basilica"].citizens == 0


def test_MUN_DECURION_02_exchange_spends_one_of_each(game: Municipium) -> None:
    # Digest M-10's position (soldier, merchant, priest and a favour) is itself a complete
    # set, so MUN-DECURION-01 never lets it stand: the invariant flags it.
    from reference.municipium.rules_flow import gain_citizens

    state = ready(game, {"a": {**ZERO, "forum": 7}, "b": {**ZERO, "forum": 7}})
    assert game.invariant_failures(
        give(state, "a", citizens={"soldier": 1, "merchant": 1, "priest": 1}, favours=1)
    )
    # Reachable form: two soldiers, merchant, priest; an advocate arrives.
    state = give(state, "a", citizens={"soldier": 2, "merchant": 1, "priest": 1})
    state = attrs.evolve(state, bag={**state.bag, "advocate": state.bag["advocate"] - 1})
    state = gain_citizens(state, "a", "advocate")
    p = state.players["a"]
    assert p.decurions == 1 and p.citizens == {
        "soldier": 1,
        "advocate": 0,
        "merchant": 0,
        "priest": 0,
    }
    # spent citizens go back to the bag: 15 - 2 in institutions = 13 merchants again
    assert state.bag["merchant"] == 13 and state.bag["advocate"] == 13
    assert game.invariant_failures(state) == []


def test_MUN_TEMPLE_01_rerank(game: Municipium) -> None:
    from reference.municipium.rules_flow import rerank_temple

    layout = {
        "c": {**ZERO, "forum": 7},
        "a": {**ZERO, "temple": 2, "forum": 5},
        "d": {**ZERO, "temple": 1, "forum": 6},
        "b": {**ZERO, "temple": 2, "forum": 5},
    }
    state = ready(game, layout)
    # Digest M-13: previous order C, A, D, B -> A, B, D, C.
    state = attrs.evolve(state, temple_order=("c", "a", "d", "b"))
    assert rerank_temple(state).temple_order == ("a", "b", "d", "c")


def test_MUN_TAVERN_01(game: Municipium) -> None:
    layout = {
        "a": {**ZERO, "tavern": 3, "emporium": 1, "forum": 3},
        "b": {**ZERO, "emporium": 3, "forum": 4},
    }
    state = with_power(ready(game, layout), "tavern", "a")
    after = step(game, state, TavernPull("a", "b", "emporium", 3))
    assert after.players["b"].members["tavern"] == 3 and after.players["a"].members["emporium"] == 1
    assert rule_of(game, state, TavernPull("a", "b", "emporium", 4)) == "MUN-TAVERN-01"
    assert rule_of(game, state, TavernPull("a", "a", "tavern", 1)) == "MUN-TAVERN-01"
    assert rule_of(game, state, TavernPull("a", "b", "emporium", 0)) == "MUN-TAVERN-01"
    assert rule_of(game, state, UseBaths("a")) == "MUN-POWER-04"


def test_MUN_BATHS_01(game: Municipium) -> None:
    layout = {"a": {**ZERO, "baths": 2, "forum": 5}, "b": {**ZERO, "forum": 7}}
    state = with_power(ready(game, layout), "baths", "a")
    after = step(game, state, UseBaths("a"))
    a = after.players["a"]
    assert (a.members["temple"], a.wreathed["temple"], a.members["baths"]) == (1, 1, 0)
    assert after.wreath_supply == 9


def test_MUN_EMPORIUM_01_stops_at_citizen_event(game: Municipium) -> None:
    # Digest M-16: tavern 1 soldier, baths 2 merchants; draw soldier then merchant -> stop.
    layout = {"a": {**ZERO, "emporium": 2, "forum": 5}, "b": {**ZERO, "forum": 7}}
    state = ready(game, layout)
    places = dict(state.institutions)
    places["baths"] = attrs.evolve(places["baths"], citizens=2)
    bag = dict(state.bag)
    bag["merchant"] -= 1
    state = with_power(attrs.evolve(state, institutions=places, bag=bag), "emporium", "a")
    state = step(game, state, EmporiumDraw("a"))
    state = step(game, state, DrawCitizen("soldier"))
    state = step(game, state, PlaceCitizen("a", "tavern"))
    assert state.institutions["tavern"].citizens == 2 and state.phase == "power"
    state = step(game, state, EmporiumDraw("a"))
    state = step(game, state, DrawCitizen("merchant"))
    state = step(game, state, PlaceCitizen("a", "baths"))
    assert state.institutions["baths"].citizens == 0
    assert state.phase == "move" and state.current == "b"  # the power (and turn) ended


def test_MUN_BASILICA(game: Municipium) -> None:
    layout = {"a": {**ZERO, "basilica": 2, "forum": 5}, "b": {**ZERO, "forum": 7}}
    state = give(ready(game, layout), "a", citizens={"soldier": 2}, favours=1)
    state = with_power(state, "basilica", "a")
    after = step(game, state, BasilicaExchange("a", ("soldier", "soldier", "favour")))
    assert after.players["a"].decurions == 1 and after.players["a"].favours == 0
    bad = BasilicaExchange("a", ("soldier", "soldier", "soldier"))
    assert rule_of(game, state, bad) == "MUN-BASILICA-01"
    drawn = step(game, step(game, state, BasilicaDraw("a")), DrawCitizen("priest"))
    assert drawn.players["a"].citizens["priest"] == 1


def test_MUN_FORUM(game: Municipium) -> None:
    layout = {"a": {**ZERO, "forum": 2, "tavern": 5}, "b": {**ZERO, "tavern": 7}}
    state = give(ready(game, layout), "b", citizens={"merchant": 1})
    state = with_power(state, "forum", "a")
    took = step(game, state, ForumTakeFromPlayer("a", "b", "merchant"))
    assert took.players["a"].citizens["merchant"] == 1
    assert rule_of(game, state, ForumTakeFromPlayer("a", "b", "priest")) == "MUN-FORUM-01"
    assert rule_of(game, state, ForumTakeFromPlayer("a", "a", "merchant")) == "MUN-FORUM-01"
    took = step(game, state, ForumTakeFromInstitution("a", "temple"))
    assert took.players["a"].citizens["priest"] == 1
    empty = attrs.evolve(
        state,
        institutions={
            **state.institutions,
            "temple": attrs.evolve(state.institutions["temple"], citizens=0),
        },
        bag={**state.bag, "priest": state.bag["priest"] + 1},
    )
    assert rule_of(game, empty, ForumTakeFromInstitution("a", "temple")) == "MUN-FORUM-02"


def test_MUN_PRAETORIUM_01(game: Municipium) -> None:
    layout = {"a": {**ZERO, "praetorium": 2, "tavern": 5}, "b": {**ZERO, "tavern": 7}}
    state = with_power(ready(game, layout), "praetorium", "a")
    state = step(game, state, RelocateMember("a", "tavern", "basilica"))
    state = step(game, state, RelocateMember("a", "tavern", "temple"))
    assert rule_of(game, state, RelocateMember("a", "basilica", "forum")) == "MUN-PRAETORIUM-01"
    assert rule_of(game, state, RelocateMember("a", "tavern", "tavern")) == "MUN-PRAETORIUM-01"
    state = step(game, state, EndPower("a"))
    assert state.players["a"].members["basilica"] == 1 and state.phase == "move"


def test_MUN_END_finish_round_and_result(game: Municipium) -> None:
    layout = {"a": {**ZERO, "forum": 7}, "b": {**ZERO, "tavern": 7}, "c": {**ZERO, "temple": 7}}
    state = ready(game, layout)
    players = dict(state.players)
    players["b"] = attrs.evolve(players["b"], decurions=5)
    state = attrs.evolve(state, players=players, current="b")
    state = step(game, state, PlayFamilyCard("b", "F1"))
    state = step(game, state, MovePrefect("b", "tavern"))
    state = step(game, state, DrawCitizen("priest"))
    assert state.phase == "move" and state.current == "c"  # the round goes on
    state = step(game, state, PlayFamilyCard("c", "F1"))
    state = step(game, state, MovePrefect("c", "praetorium"))
    state = step(game, state, DrawCitizen("priest"))
    assert game.is_over(state)
    assert game.result(state).winners == ("b",)
    assert rule_of(game, state, DrawCommon("a")) == "CORE-END-01"


def test_MUN_BASILICA_01_tokens_are_unordered(game: Municipium) -> None:
    """The three tokens are a handful: any order is the same event, listed once."""
    from reference.municipium.events import TOKEN_ORDER
    from reference.municipium.tables import FAVOUR, KINDS

    assert (*KINDS, FAVOUR) == TOKEN_ORDER
    same = BasilicaExchange("a", ("favour", "merchant", "soldier"))
    assert same == BasilicaExchange("a", ("soldier", "merchant", "favour"))
    layout = {"a": {**ZERO, "basilica": 2, "forum": 5}, "b": {**ZERO, "forum": 7}}
    state = give(ready(game, layout), "a", citizens={"soldier": 1, "merchant": 1}, favours=1)
    state = with_power(state, "basilica", "a")
    assert same in game.legal_events(state)
    after = step(game, state, same)
    assert after.players["a"].decurions == 1


def test_MUN_END_01_finish_turn_option() -> None:
    """end_mode finish_turn: the game ends when the turn in which a family reached five is
    over, whatever the seat."""
    game = make({"end_mode": "finish_turn"})
    layout = {"a": {**ZERO, "basilica": 7}, "b": {**ZERO, "forum": 7}}
    state = give(ready(game, layout), "a", citizens={"soldier": 1, "merchant": 1}, favours=1)
    players = dict(state.players)
    players["a"] = attrs.evolve(players["a"], decurions=4)
    state = with_power(attrs.evolve(state, players=players), "basilica", "a")
    after = step(game, state, BasilicaExchange("a", ("soldier", "merchant", "favour")))
    assert after.players["a"].decurions == 5
    assert game.is_over(after) and after.current == "a"
    assert game.result(after).winners == ("a",)
