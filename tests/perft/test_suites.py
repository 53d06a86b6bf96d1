"""The perft suites (perft/<game>.yaml): readable, at least ten positions each, covering every
phase, the end and the rare positions they are there for; every count reproduced by our
engine within a minute of one core per file."""

from __future__ import annotations

import time
import typing
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

import rules_oracle
from oracle.perft import spot_position
from oracle.perft_files import BadFile, load_suite, suite_path
from reference.municipium.state import Phase as MunicipiumPhase
from reference.palmyra.state import Phase as PalmyraPhase
from reference.pillars.state import Stage as PillarsStage
from reference.registry import game_names
from rules_oracle import Position

PHASES = {
    "pillars": ("stage", set(typing.get_args(PillarsStage)) - {"over"}),
    "milestones": ("phase", {"setup", "draft", "turns"}),
    "palmyra": ("phase", set(typing.get_args(PalmyraPhase)) - {"over"}),
    "municipium": ("phase", set(typing.get_args(MunicipiumPhase)) - {"over"}),
}
"""The field that names the phase, and every value it takes before the end."""

RARE: dict[str, dict[str, Callable[[Position], bool]]] = {
    "pillars": {
        "the last round": lambda p: p["round"] == 6,
        "cubes returned at the cathedral": lambda p: p["returning"] is True,
        "independent decisions": lambda p: p["stage"] in ("division", "archbishop"),
    },
    "milestones": {
        "the Castle's tax": lambda p: p["returns_due"] > 0,
        "a worker covered": lambda p: p["cover_due"] is True,
        "a bonus tile to lay": lambda p: bool(p["pending_bonus"]),
        "the end triggered": lambda p: p["end_trigger"] is not None,
        "the draw pile nearly empty": lambda p: len(p["draw_pile"]) <= 2,
    },
    "palmyra": {
        "the advanced game": lambda p: p.rules.options.get("mode") == "advanced",
        "the solo game": lambda p: p.rules.options.get("mode") == "solo",
        "the emperor held": lambda p: p["emperor"] != "",
        "the stacks nearly empty": lambda p: (
            sum(p["large_stack"].values()) + sum(p["small_stack"].values()) <= 4
        ),
    },
    "municipium": {
        "the bag nearly empty": lambda p: sum(p["bag"].values()) <= 2,
        "the common deck nearly empty": lambda p: len(p["common_deck"]) <= 1,
        "a rule option": lambda p: "end_mode" in p.rules.options,
    },
}
"""Rare positions each suite must hold as one of its positions."""


@cache
def roots(game: str) -> list[tuple[str, int, Position]]:
    """Each suite position: its id, its deepest depth, the position (fewest sequences first)."""
    suite = load_suite(suite_path(game))
    entries = sorted(suite.entries, key=lambda e: e.perft[e.depth])
    return [(e.id, e.depth, spot_position(e.spot(game))) for e in entries]


@pytest.mark.parametrize("game", game_names())
def test_each_suite_has_ten_positions_or_more_of_its_game(game: str) -> None:
    suite = load_suite(suite_path(game))
    assert suite.game == game
    assert len(suite.entries) >= 10
    assert all(e.perft[e.depth] > 0 for e in suite.entries if "end" not in e.id)
    assert any(
        e.options for e in suite.entries
    )  # an option or a profile that changes what is legal


@pytest.mark.parametrize("game", game_names())
def test_each_suite_reaches_every_phase_within_two_events(game: str) -> None:
    field, wanted = PHASES[game]
    seen = set()
    for _, _, root in roots(game):
        level = [root]
        for _ in range(3):
            seen |= {p[field] for p in level}
            level = [p.apply(e) for p in level[:40] if not p.is_over for e in p.legal()]
    assert wanted <= seen, wanted - seen


@pytest.mark.parametrize("game", game_names())
def test_each_suite_holds_its_rare_positions(game: str) -> None:
    found = roots(game)
    for what, holds in RARE[game].items():
        assert any(holds(p) for _, _, p in found), what


@pytest.mark.parametrize("game", game_names())
def test_each_suite_counts_through_the_end_of_a_game(game: str) -> None:
    """Some position's sequences reach the end within its depth (and stop there)."""

    def ends_within(position: Position, depth: int) -> bool:
        if position.is_over:
            return True
        return depth > 0 and any(
            ends_within(position.apply(e), depth - 1) for e in position.legal()
        )

    assert any(ends_within(p, d) for name, d, p in roots(game) if "end" in name)


@pytest.mark.slow
@pytest.mark.parametrize("game", game_names())
def test_each_suite_passes_on_our_engine_within_a_minute_of_one_core(game: str) -> None:
    started = time.process_time()
    checks = rules_oracle.check_perft_suite(suite_path(game))
    cpu = time.process_time() - started
    assert [c.id for c in checks if not c.passed] == []
    assert cpu < 60, f"{cpu:.1f} s of CPU"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(text)
    return path


HEAD = "format: rules-oracle-perft-suite\nversion: 1\ngame: municipium\npositions:\n"


@pytest.mark.parametrize(
    ("body", "line", "reason"),
    [
        (
            "  - {id: a, description: x, players: [red, blue], perft: {1: 7}}\n"
            "  - {id: a, description: x, players: [red, blue], perft: {1: 7}}\n",
            6,
            "twice",
        ),
        ("  - {id: a, description: x, players: [red, blue], perft: {2: 49}}\n", 5, "depths 1, 2"),
        (
            "  - {id: a, description: x, players: [red, blue], perft: {1: 7}, extra: 1}\n",
            5,
            "extra",
        ),
    ],
)
def test_a_bad_suite_is_refused_with_its_line(
    tmp_path: Path, body: str, line: int, reason: str
) -> None:
    with pytest.raises(BadFile) as caught:
        load_suite(write(tmp_path, HEAD + body))
    assert caught.value.line == line
    assert reason in caught.value.reason


def test_a_suite_with_a_wrong_count_fails_on_our_engine(tmp_path: Path) -> None:
    body = "  - {id: a, description: x, players: [red, blue], perft: {1: 7, 2: 48}}\n"
    (check,) = rules_oracle.check_perft_suite(write(tmp_path, HEAD + body))
    assert not check.passed and check.counted == {1: 7, 2: 49}


def test_a_position_that_does_not_build_is_an_error_of_its_file(tmp_path: Path) -> None:
    body = (
        "  - id: a\n    description: x\n    players: [red, blue]\n"
        "    given: {events: [{type: draw_common, player: red}]}\n    perft: {1: 7}\n"
    )
    (check,) = rules_oracle.check_perft_suite(write(tmp_path, HEAD + body))
    assert not check.passed and check.error is not None and "events[0]" in check.error
