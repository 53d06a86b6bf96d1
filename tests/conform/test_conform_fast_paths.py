"""The play-out's fast paths change no verdict: the cached walk is the full walk, serve's kept
text is ``json.dumps``'s, and an answer in other bytes is still decoded and compared exactly.
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import cattrs
import pytest

from oracle.conform import Conformance
from oracle.findings import Settings
from oracle.formats.converter import to_json
from oracle.refengine import LocalEngine
from oracle.serve import Session
from reference.core.walk import LeafCache, leaves
from reference.registry import game_names, make_game
from tests.conform.conftest import adapter

NAMES = ("red", "blue", "green", "yellow", "purple")


@pytest.mark.parametrize("game", game_names())
def test_the_cached_walk_is_the_full_walk_along_play_outs(game: str) -> None:
    rules = make_game(game, {})
    for count, seed in ((rules.min_players, 1), (rules.max_players, 2)):
        engine = LocalEngine()
        engine.new_game(game, NAMES[:count], {})
        rng = random.Random(seed)
        for _ in range(400):  # long enough to pass rounds, scoring and (mostly) the end
            full = leaves(engine.position.to_json())
            assert list(engine.leaves().items()) == list(full.items())
            assert engine.leaves_json() == json.dumps(full)  # true stays true, never 1
            if engine.to_act()[1]:
                break
            assert engine.apply(engine.legal()[engine.choice(rng)]) is None


@attrs.frozen
class Inner:
    n: int
    flags: tuple[bool, ...]


@attrs.frozen
class Outer:
    inner: Inner
    table: dict[str, Any]
    numbered: dict[int, str]
    empty: dict[str, int]
    nothing: None = None


def test_the_cached_walk_follows_the_json_walk_at_its_edges() -> None:
    cache = LeafCache(to_json)
    first = Outer(
        Inner(1, (True, False)),
        {"a.b": 1, "c": {"d": 2}, "": 3},  # keys with a dot or empty cannot be path segments
        {1: "one"},  # a key that is not text: the mapping is walked in its JSON form
        {},
    )
    second = attrs.evolve(first, inner=Inner(2, (True,)), table={"c": {}, "e": [1, 2]})
    third = attrs.evolve(second, numbered={1: "one", 2: "two"})
    for state in (first, second, third, first):
        found, text = cache.walk(state)
        assert list(found.items()) == list(leaves(to_json(state)).items())
        assert text == json.dumps(found)
    assert cache.leaves(first) == {
        "inner.n": 1,
        "inner.flags": [True, False],
        "table.c.d": 2,
        "numbered.1": "one",
        "empty": {},
        "nothing": None,
    }


def test_a_class_whose_json_form_is_not_its_fields_is_walked_in_that_form() -> None:
    converter = cattrs.Converter()
    converter.register_unstructure_hook(Inner, lambda value: {"count": value.n})
    cache = LeafCache(converter.unstructure)
    state = Outer(Inner(5, ()), {}, {}, {})
    found = cache.leaves(state)
    assert found == leaves(converter.unstructure(state))
    assert found["inner.count"] == 5 and "inner.n" not in found


def test_serve_writes_its_kept_answers_as_json_dumps_would() -> None:
    session = Session(("palmyra",), 0)
    session.handle({"op": "new_game", "game": "palmyra", "players": ["a", "b"], "options": {}})
    rng = random.Random(3)
    for _ in range(60):
        paths = list(session.engine.leaves())
        for request in ({"op": "state", "paths": paths}, {"op": "legal"}):
            assert session.respond(request) == json.dumps(session.handle(request))
        session.engine.apply(session.engine.legal()[session.engine.choice(rng)])


def test_other_spacing_is_the_same_answer() -> None:
    settings = Settings(
        engine=adapter("palmyra", "--compact"),
        game="palmyra",
        players=(2,),
        games=1,
        parts=("playout",),
    )
    report = Conformance(settings).run()
    assert report.passed(), [f.message for f in report.findings]
    assert report.counts.paths_compared > 0 and report.counts.legal_sets > 0


def test_a_flag_written_as_a_number_is_a_disagreement() -> None:
    settings = Settings(
        engine=adapter("palmyra", "--flags-as-numbers", "--compact"),
        game="palmyra",
        players=(2,),
        games=1,
        parts=("playout",),
    )
    (finding,) = Conformance(settings).run().failing()
    assert (finding.kind, finding.event_index) == ("state", 0)
    assert finding.ours is False and finding.theirs == 0 and finding.theirs is not False
