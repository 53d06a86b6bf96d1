"""The problem on the board, in Chromium: the place an illegal event tried is ringed (and the
places legal there), a divergent value is marked where it is drawn, what decides trust is
in sight, and Pillars draws its cards, offers and cathedral as the reference state holds them.
Every expected place and value comes from the hand-made edits (replay_html_fixture)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from replay_html_browse import box, encloses, open_log, position, press, show
from replay_html_fixture import example, write_failing_logs

from oracle.formats.converter import structure_event
from oracle.formats.log import parse_header, read_lines
from oracle.games import GameCache
from reference.core.game import step

# (game, kind) -> the places the illegal event names (read from its edit), and a place the
# example's own event named there (legal: the example is valid) when all legal events show.
TRIED = {
    ("pillars", "illegal"): (['#board .card[data-card="forest_small"]'], "gravel_medium"),
    ("pillars", "illegal_placeholder"): (['#board .space[data-space="market_1"]'], None),
    ("pillars", "illegal_late"): (['#board .card[data-card="forest_large"]'], "forest_medium"),
    ("milestones", "illegal"): (
        [f'#board .point[data-point="{p}"]' for p in ("0,0", "1,0", "5,0")],
        '#board .point[data-point="2,0"]',
    ),
    ("palmyra", "illegal"): (['#board .empty-cell[data-cell="5,3"]'], None),
    ("palmyra", "illegal_late"): (
        ['#board .tile[data-cell="0,2"]'],
        '#board .cell[data-cell="1,-1"]',
    ),
    ("municipium", "illegal"): (
        [f'#board .institution[data-institution="{n}"]' for n in ("tavern", "forum")],
        None,
    ),
    ("municipium", "illegal_late"): (
        [f'#board .institution[data-institution="{n}"]' for n in ("emporium", "baths", "forum")],
        None,
    ),
}


def ring_around(page: Any, selector: str, kind: str) -> bool:
    """Whether a ring of ``kind`` encloses the element ``selector`` names."""
    rings = page.evaluate(
        """cls => Array.from(document.querySelectorAll('#view .ring.' + cls)).map(r => {
        const b = r.getBoundingClientRect();
        return {left: b.left, top: b.top, right: b.right, bottom: b.bottom}; })""",
        kind,
    )
    target = box(page, selector)
    return any(encloses(ring, target) for ring in rings)


@pytest.mark.parametrize("game, kind", sorted(TRIED))
def test_the_attempted_target_is_ringed_on_the_board(
    page: Any, game: str, kind: str, tmp_path: Path
) -> None:
    targets, legal = TRIED[game, kind]
    open_log(page, write_failing_logs(tmp_path, game)[kind], tmp_path)
    for target in targets:
        assert page.locator(target).count() == 1
        assert "attempted" in (page.locator(target).get_attribute("class") or "").split()
        assert ring_around(page, target, "attempted"), target
    assert page.locator("#here .here-targets.tried").inner_text().startswith("tried: ")
    if legal is not None:
        selector = legal if legal.startswith("#") else f'#board .card[data-card="{legal}"]'
        assert ring_around(page, selector, "legal"), selector
    press(page, "Home")  # an ordinary frame rings nothing as attempted
    assert page.locator("#view .ring.attempted").count() == 0


# game -> (divergent path, the claimed value shown, the reference value drawn there): the
# reference value is the example's own claim (the example is valid).
DIVERGENT = {
    "pillars": ("players.red.gold", "11", "10"),
    "milestones": ("players.blue.coins", "4", "1"),
    "palmyra": ("players.red.legion", '"0,1"', "centre"),
    "municipium": ("bag.priest", "14", "priest 13"),
}


@pytest.mark.parametrize("game", sorted(DIVERGENT))
def test_a_divergent_value_is_marked_where_it_is_drawn(
    page: Any, game: str, tmp_path: Path
) -> None:
    path, claimed, reference = DIVERGENT[game]
    open_log(page, write_failing_logs(tmp_path, game)["divergent"], tmp_path)
    drawn = page.locator(f'#players span[data-path="{path}"]')
    assert drawn.count() == 1
    assert "divergent" in (drawn.get_attribute("class") or "").split()
    assert drawn.inner_text() == reference
    badge = page.locator(f'#players span[data-path="{path}"] + .claimed')
    assert badge.inner_text() == f"claimed {claimed}"
    assert f"{path}: claimed {claimed}" in page.locator("#here .here-divergence").inner_text()
    if game == "palmyra":  # the legion on the board is ringed too
        assert ring_around(page, f'#board .legion[data-path="{path}"]', "divergent")
    press(page, "Home")
    assert page.locator("#view .divergent").count() == 0


def test_the_divergence_trail_is_in_sight_and_its_events_are_links(
    page: Any, tmp_path: Path
) -> None:
    # Red's gold: 20 by seat, -3 for the master woodworker (line 8, event 6), -7 for the
    # builder placed at the cost marker's 7 (line 11, event 9).
    open_log(page, write_failing_logs(tmp_path, "pillars")["divergent"], tmp_path)
    row = page.locator("#verdict .divergence")
    assert row.is_visible()
    assert row.locator("td").nth(0).inner_text() == "players.red.gold"
    links = row.locator(".trail a")
    assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [
        "#event-6",
        "#event-9",
    ]
    assert links.nth(0).inner_text().startswith("-3 PIL-CARDS-04")
    links.nth(0).click()
    assert position(page).startswith("event 6 ")
    assert page.evaluate("window.scrollY") == 0


def test_what_decides_trust_is_in_sight(page: Any, tmp_path: Path) -> None:
    # PIL-BUILD-07's status is placeholder (rules.yaml), and so are four capacities.
    open_log(page, write_failing_logs(tmp_path, "pillars")["illegal_placeholder"], tmp_path)
    assert page.locator("#verdict .verdict-head .rule-status").inner_text() == "placeholder"
    standing = page.locator("#verdict .trust.rule-standing")
    assert standing.is_visible() and "placeholder" in standing.inner_text()
    unconfirmed = page.locator("#verdict .trust.unconfirmed")
    assert unconfirmed.is_visible()
    text = unconfirmed.inner_text()
    assert "this verdict rests on unconfirmed values" in text
    assert "rule PIL-BUILD-07 is a placeholder" in text
    assert "data board.capacity_market is a placeholder" in text
    # PAL-PLACE-02 is our ruling.
    open_log(page, write_failing_logs(tmp_path, "palmyra")["illegal_late"], tmp_path)
    assert page.locator("#verdict .verdict-head .rule-status").inner_text() == "ruling"
    assert page.locator("#verdict .trust.rule-standing").is_visible()


def states_of(log: Path) -> list[Any]:
    """The reference state after each frame of the log's page: setup, then each event."""
    lines = read_lines(log)
    header = parse_header(*next(lines))
    game = GameCache().get(header.game, header.options)
    states = [game.new_game(header.players)]
    for _, raw in lines:
        if "result" not in raw:
            states.append(step(game, states[-1], structure_event(game, raw)))
    return states


def drawn_cards(page: Any, selector: str) -> list[str]:
    cards: list[str] = page.evaluate(
        "sel => Array.from(document.querySelectorAll(sel)).map(e => e.dataset.card)", selector
    )
    return cards


def test_pillars_draws_the_cards_the_offers_and_the_cathedral(page: Any, tmp_path: Path) -> None:
    log = example("pillars")
    states = states_of(log)
    open_log(page, log, tmp_path)
    # setup; after the reveals (line 4); in Phase I; Phase III of round 2; round 5; the end
    for frame in (0, 4, 6, 60, 150, len(states) - 1):
        show(page, "setup" if frame == 0 else f"event {frame - 1}")
        st = states[frame]
        assert drawn_cards(page, "#board .card.on-display") == list(st.card_supply)
        offers = page.evaluate(
            """() => Object.fromEntries(Array.from(document.querySelectorAll(
            '#board .card[data-space]')).map(e => [e.dataset.space, e.dataset.card]))"""
        )
        assert offers == {**st.kingsbridge, **st.shiring}
        for name, ps in st.players.items():
            row = f'#players tr[data-owner="{name}"]'
            for field in ("resource_cards", "craftsmen", "advantages"):
                chips = drawn_cards(page, f'{row} [data-path="players.{name}.{field}"] .card-chip')
                assert chips == list(getattr(ps, field)), (frame, name, field)
        # PIL-CATH-08: the pieces count rounds, the start player takes one each round.
        built = page.locator("#board .cathedral-piece.built").count()
        assert built == (6 if st.phase == "over" else st.round)
        event = drawn_cards(page, '#board .card[data-kind="event"]')
        assert event == ([st.event] if st.event else [])
    # In Phase I of round 1 the set-aside cards are line 4's: forest_small and quarry_small.
    show(page, "event 3")
    assert drawn_cards(page, "#board .card.set-aside") == ["forest_small", "quarry_small"]


def test_every_palmyra_tile_has_a_tooltip_and_the_board_its_coordinates(
    page: Any, tmp_path: Path
) -> None:
    log = example("palmyra")
    open_log(page, log, tmp_path)
    press(page, "End")
    tiles = page.evaluate(
        """() => Array.from(document.querySelectorAll('#board .tile')).map(t => ({
        cell: t.dataset.cell, code: t.dataset.tile,
        tip: (t.querySelector(':scope > title') || {}).textContent || ''}))"""
    )
    names = {"D": "desert", "H": "hills", "M": "mountains", "W": "watchtower"}
    names |= {"O": "oasis", "C": "caravan"}
    assert tiles and any("+" in t["code"] for t in tiles)
    for tile in tiles:
        assert tile["tip"].startswith(tile["cell"] + ": "), tile
        letters = tile["code"].replace("+", ":").split(":")[1:]
        assert all(names[letter] in tile["tip"] for letter in letters), tile
    coords = page.evaluate(
        """() => Array.from(document.querySelectorAll('#board .coord')).map(t => t.textContent)"""
    )
    for tile in tiles:
        x, y = tile["cell"].split(",")
        assert x in coords and y in coords


@pytest.mark.parametrize("kind, steps", [("illegal", 1), ("illegal_late", 2)])
def test_a_municipium_walk_is_drawn_step_by_step(
    page: Any, kind: str, steps: int, tmp_path: Path
) -> None:
    # tavern -> forum (one step), emporium -> baths -> forum (two): where no road runs too.
    open_log(page, write_failing_logs(tmp_path, "municipium")[kind], tmp_path)
    assert page.locator("#board .walk line").count() == steps
    press(page, "Home")  # the setup: no event, no walk
    assert page.locator("#board .walk").count() == 0


def test_a_divergent_result_is_marked_on_the_result_frame(page: Any, tmp_path: Path) -> None:
    # The example's result line claims red 13 and blue 26 (the reference agrees: the example
    # is valid); a log claiming 14 for red diverges there, at the final position.
    lines = example("pillars").read_text(encoding="utf-8").splitlines()
    assert lines[-1].startswith('{"result": {"scores": {"red": 13,')
    lines[-1] = lines[-1].replace('"red": 13', '"red": 14')
    log = tmp_path / "result.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    verdict = open_log(page, log, tmp_path)
    assert verdict.kind == "divergent" and verdict.line == len(lines)
    assert position(page).startswith("result ")
    scores = page.locator('#here span[data-path="result.scores"]')
    assert "divergent" in (scores.get_attribute("class") or "").split()
    assert scores.inner_text() == "scores: red 13, blue 26"
    badge = page.locator('#here span[data-path="result.scores"] + .claimed')
    assert badge.inner_text() == 'claimed {"red":14,"blue":26}'
    assert "final reference position" in page.locator("#here .here-note").inner_text()
