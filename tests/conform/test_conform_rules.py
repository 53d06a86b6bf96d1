"""Every conform finding names its rule, or says why none applies (oracle.provenance).

Bugs are planted in the example adapter (a copy of our engine behind the protocol), one at
a time, as in test_conform_faults.py. The expected rules come from the Palmyra catalogue
and rules (reference/palmyra/data/rules.yaml), not from a run:

- the bank at setup is the bank's coins less the starting coins: PAL-SETUP-06;
- a seat's starting coins: PAL-SETUP-03;
- the setup's first decision is a chance draw of a starting tile: dropped from the legal
  list, it is legal under PAL-DRAW-01 (a drawn tile is one still in its stack);
- end_action is legal under PAL-TURN-02 (one action per turn, in its steps);
- another player named to act, or an event of a player not asked listed as legal: the
  turn rule PAL-TURN-01, with the game's reason;
- a wrong result: most coins wins, PAL-END-03;
- a game that never ends for the engine: ours ended it when no tile could be drawn or the
  bank ran dry (PAL-END-01 or PAL-END-02); from the rare end with one coin left in the bank
  (oracle/reach.py), when the bank ran dry (PAL-END-02);
- a crash, a hang or garbage is the engine's fault: no rule, and the reason says so.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from oracle.conform import Conformance
from oracle.findings import Finding, Report, Settings
from oracle.formats.converter import unstructure_event
from oracle.games import GameCache
from oracle.play import choose
from oracle.provenance import Position, name_rule
from oracle.refengine import LocalEngine
from oracle.starts import palmyra_bank_nearly_dry
from reference.core.game import step
from reference.core.ruleset import RuleSet
from reference.registry import make_game
from tests.conform.conftest import adapter

GAME = "palmyra"


def run(*flags: str, parts: tuple[str, ...] = ("playout",), game: str = GAME, **kw: Any) -> Report:
    settings = Settings(
        engine=adapter(game, *flags),
        game=game,
        players=(2,),
        games=1,
        parts=parts,
        shrink_seconds=10.0,
        **kw,
    )
    return Conformance(settings).run()


def hard(report: Report) -> Finding:
    failing = report.failing()
    assert len(failing) == 1, [f.message for f in report.findings]
    return failing[0]


def test_a_wrong_value_at_the_setup_names_the_setup_rule_that_made_it() -> None:
    f = hard(run("--lie", "bank"))
    assert (f.kind, f.path, f.rule) == ("state", "bank", "PAL-SETUP-06")
    assert f.rule_reason is not None and "at setup" in f.rule_reason


def test_a_value_a_start_position_set_by_path_is_no_rule_s() -> None:
    # a play-out from a rare end (oracle/reach.py): 30 events, then the bank set to one coin
    # by path; a finding about the bank right there is named from that position
    ref = LocalEngine()
    ref.new_game(GAME, ("red", "blue"), {})
    rng = random.Random(4)
    events = []
    for _ in range(30):
        event = rng.choice(ref.legal())
        assert ref.apply(event) is None
        events.append(event)
    ref.set_state(palmyra_bank_nearly_dry(ref.position))
    start = Position(ref.internals()[1], len(events))
    finding = Finding(
        "playout", "state", "bank", players=("red", "blue"), events=tuple(events), path="bank"
    )
    named = name_rule(finding, GameCache(), GAME, {}, start)
    assert named.rule is None
    assert named.rule_reason is not None and "start position set it" in named.rule_reason
    # named from the setup instead, ours' bank is the one the 30 events left: a rule's
    from_setup = name_rule(finding, GameCache(), GAME, {})
    assert from_setup.rule is not None and from_setup.rule.startswith("PAL-")


def test_a_seat_s_starting_coins_are_the_setup_s_kit() -> None:
    f = hard(run("--lie", "players.blue.coins"))
    assert (f.kind, f.rule) == ("state", "PAL-SETUP-03")


def test_a_missing_legal_event_names_the_rule_under_which_it_is_legal() -> None:
    f = hard(run("--drop-legal"))
    assert (f.kind, len(f.events), f.rule) == ("legal", 0, "PAL-DRAW-01")
    assert f.rule_reason is not None and "legal for ours under PAL-DRAW-01" in f.rule_reason


def test_a_refused_legal_event_names_the_rule_under_which_it_is_legal() -> None:
    f = hard(run("--refuse", "end_action"))
    assert (f.kind, f.rule) == ("refused_legal", "PAL-TURN-02")


def test_an_extra_legal_event_names_the_rule_by_which_ours_refuses_it() -> None:
    f = hard(run("--extra-legal"))
    assert (f.kind, f.rule) == ("legal", "PAL-TURN-01")
    assert f.rule_reason is not None and "ours refuses it under PAL-TURN-01" in f.rule_reason


def test_a_wrong_player_to_act_names_the_turn_rule_with_the_game_s_reason() -> None:
    f = hard(run("--wrong-actor"))
    assert (f.kind, f.rule) == ("to_act", "PAL-TURN-01")
    # the game's own reason (why_to_act) names the rule that makes red the one asked
    assert f.rule_reason is not None and f.rule_reason.startswith(f"{f.ours} is to act for ours: ")
    assert "(PAL-" in f.rule_reason


def test_a_wrong_result_names_the_scoring_rule() -> None:
    f = hard(run("--wrong-result"))
    assert (f.kind, f.rule) == ("result", "PAL-END-03")


def test_an_engine_that_never_ends_names_the_rule_that_ended_ours() -> None:
    failing = run("--never-end").failing()
    assert failing and all(f.kind == "no_end" for f in failing)
    rules = [f.rule for f in failing]
    # one finding per rule that ended ours: a random play-out's, and the bank run dry in
    # the play-out from the rare end (named from the position it set by path)
    assert set(rules) <= {"PAL-END-01", "PAL-END-02"} and len(rules) == len(set(rules))
    rare = [f for f in failing if f.case.startswith("rare-")]
    assert [f.rule for f in rare] == ["PAL-END-02"]
    assert "the bank is empty" in rare[0].rule_reason


@pytest.mark.slow
@pytest.mark.parametrize(
    "flags",
    [
        ("--lie", "players.red.coins", "--from-event", "40"),
        ("--lie", "action.earned", "--from-event", "25"),
        ("--lie", "large_stack.L:D", "--from-event", "5"),
        ("--flags-as-numbers",),
        ("--accept-illegal",),
        ("--other-rule",),
        ("--crash", "--from-event", "3"),
        ("--garbage", "--from-event", "2"),
        ("--bad-next", "--from-event", "3"),
        ("--lie", "bank", "--from-event", "6"),
    ],
)
def test_every_finding_has_a_rule_or_says_why_none_applies(flags: tuple[str, ...]) -> None:
    report = run(*flags, parts=("playout", "probes", "engine"), timeout=5.0)
    assert report.findings
    ids = set(make_game(GAME, {}).catalogue.ids())
    for f in report.findings:
        assert f.rule is not None or f.rule_reason, f
        if f.rule is not None:
            assert f.rule in ids or f.kind == "rule_id", f
        if f.kind in ("crash", "garbage", "bad_event"):
            assert f.rule is None and f.rule_reason and "no rule" in f.rule_reason, f


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "path"),
    [
        ("pillars", "players.red.gold"),
        ("milestones", "players.red.coins"),
        ("municipium", "players.red.members.temple"),
    ],
)
@pytest.mark.parametrize("bug", ["--lie", "--wrong-actor", "--extra-legal", "--wrong-result"])
def test_findings_name_their_rule_in_every_game(game: str, path: str, bug: str) -> None:
    """The same bugs in the other games: each finding names a rule of that game's catalogue
    (the turn rule for a wrong player to act, the scoring rule for a result)."""
    flags = (bug, path) if bug == "--lie" else (bug,)
    report = run(*flags, "--from-event", "12", game=game)
    rules = make_game(game, {})
    assert isinstance(rules, RuleSet)
    for f in report.failing():
        assert f.rule is not None and rules.catalogue.get(f.rule) is not None, f
        assert f.rule_reason, f
        if f.kind == "to_act":
            assert f.rule == rules.turn_rule, f
        if f.kind == "result":
            assert f.rule == rules.scoring_rule(), f
    assert report.failing(), flags


def test_a_state_finding_names_the_rules_of_the_last_event_that_made_the_value() -> None:
    """At the end of a Collect taxes action the acting player's coins are paid by the tax
    (PAL-TAX-02: the coins the matches earned), then the face-down bonus (PAL-TAX-05);
    the finding names the first, and its reason both."""
    game = make_game(GAME, {})
    state = game.new_game(("red", "blue"))
    rng = random.Random(5)
    events: list[dict[str, Any]] = []
    taxing = None
    while not game.is_over(state):
        event = choose(game, state, rng)
        raw = unstructure_event(event)
        events.append(raw)
        if raw["type"] == "collect_taxes":
            taxing = raw["player"]
        state = step(game, state, event)
        if raw["type"] == "end_action" and taxing == raw["player"]:
            break
    assert taxing is not None, "no Collect taxes in this game"
    path = f"players.{taxing}.coins"
    finding = Finding(
        "playout",
        "state",
        f"{path} differs",
        players=("red", "blue"),
        events=tuple(events),
        path=path,
    )
    named = name_rule(finding, GameCache(), GAME, {})
    assert named.rule == "PAL-TAX-02"
    assert named.rule_reason is not None
    assert f"at event {len(events) - 1}" in named.rule_reason
    assert "PAL-TAX-05" in named.rule_reason
