"""The replay pages in a real headless Chromium: step with the keyboard, count what the board
draws against the reference state (read by state path, replayed here by the engine), and find
every failing page of the four games opened at its problem, the verdict in sight.
Screenshots go to each test's tmp_path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from replay_html_browse import box, encloses, open_log, open_page, position, press
from replay_html_fixture import GAMES, ROOT, RULES, example, failing_line, kinds, write_failing_logs

from oracle.formats.converter import structure_event
from oracle.formats.log import parse_header, read_lines
from oracle.games import GameCache
from oracle.html import scenario_page
from reference.core import paths
from reference.core.game import step


def reference_after(log: Path, events: int) -> Any:
    """The reference state after the log's first ``events`` events, by the engine itself."""
    lines = read_lines(log)
    header = parse_header(*next(lines))
    game = GameCache().get(header.game, header.options)
    state = game.new_game(header.players)
    for _, (_, raw) in zip(range(events), lines, strict=False):
        state = step(game, state, structure_event(game, raw))
    return state


def expected_counts(game: str, state: Any) -> dict[str, int]:
    """CSS selector (inside the board) -> how many such pieces the reference state has."""
    if game == "pillars":
        spaces = paths.read(state, "spaces")
        counts = {".builder": len(spaces)}
        for space, owner in spaces.items():
            counts[f'.builder[data-space="{space}"][data-owner="{owner}"]'] = 1
        return counts
    if game == "milestones":
        return {
            f".{piece}": len(paths.read(state, f"board.{field}"))
            for piece, field in (
                ("road", "roads"),
                ("house", "houses"),
                ("marketplace", "marketplaces"),
                ("milestone", "milestones"),
                ("bonus-tile", "bonus_tiles"),
            )
        }
    if game == "palmyra":
        board = paths.read(state, "board")
        counts = {".tile": len(board), ".city": len(paths.read(state, "city"))}
        for cell, tile in board.items():
            counts[f'.tile[data-cell="{cell}"][data-tile="{tile}"]'] = 1
        return counts
    if game == "municipium":
        counts = {}
        players = paths.read(state, "players")
        for name in paths.read(state, "institutions"):
            where = f'[data-institution="{name}"]'
            counts[".citizen" + where] = paths.read(state, f"institutions.{name}.citizens")
            counts[".member:not(.wreathed)" + where] = sum(
                paths.read(state, f"players.{p}.members.{name}") for p in players
            )
        counts[f'.prefect[data-institution="{paths.read(state, "prefect")}"]'] = 1
        return counts
    raise AssertionError(f"no counts for {game}")


def drawn_counts(page: Any, selectors: list[str]) -> dict[str, int]:
    script = (
        "sels => Object.fromEntries(sels.map(s => "
        "[s, document.querySelectorAll('#board ' + s).length]))"
    )
    counts: dict[str, int] = page.evaluate(script, selectors)
    return counts


def check_board(page: Any, game: str, log: Path, events: int) -> None:
    expected = expected_counts(game, reference_after(log, events))
    assert drawn_counts(page, list(expected)) == expected


@pytest.mark.parametrize("game", GAMES)
def test_step_through_a_game(page: Any, game: str, tmp_path: Path) -> None:
    log = example(game)
    verdict = open_log(page, log, tmp_path)
    assert verdict.kind == "valid"
    assert position(page).startswith("setup ")
    check_board(page, game, log, 0)
    press(page, "ArrowRight", 30)
    assert position(page).startswith("event 29 ")
    assert page.locator("#events li.current").inner_text().startswith("event 29:")
    check_board(page, game, log, 30)
    press(page, "ArrowLeft", 5)
    assert position(page).startswith("event 24 ")
    check_board(page, game, log, 25)
    press(page, "End")  # after the last event: the result, on the final position
    assert position(page).startswith("result ")
    check_board(page, game, log, verdict.events)
    press(page, "ArrowLeft")
    assert position(page).startswith(f"event {verdict.events - 1} ")
    check_board(page, game, log, verdict.events)
    page.screenshot(path=str(tmp_path / f"{game}-end.png"))
    press(page, "Home")
    assert position(page).startswith("setup ")
    page.goto(log_uri(tmp_path, log) + "#event-60")
    assert position(page).startswith("event 60 ")
    check_board(page, game, log, 61)


def log_uri(folder: Path, log: Path) -> str:
    return (folder / f"{log.stem}.html").as_uri()


def failing_pages() -> list[tuple[str, str]]:
    return [(game, kind) for game in GAMES for kind in kinds(game)]


def expected_frame(game: str, kind: str) -> tuple[str, int]:
    """The failing frame's title and how many events the board shows replayed: the header is
    line 1, so line N holds event N - 2; an illegal or malformed event was not applied (the
    board shows the position it was tried in), a divergent one was, and an incomplete log's
    last event too."""
    index = failing_line(game, kind) - 2
    applied = kind in ("divergent", "incomplete")
    return f"event {index}", index + 1 if applied else index


@pytest.mark.parametrize("game, kind", failing_pages())
def test_a_failing_page_opens_at_its_problem_with_the_verdict_in_sight(
    page: Any, game: str, kind: str, tmp_path: Path
) -> None:
    log = write_failing_logs(tmp_path, game)[kind]
    verdict = open_log(page, log, tmp_path)
    assert verdict.kind == kind.split("_")[0]
    title, events = expected_frame(game, kind)
    mark = RULES.get((game, kind), verdict.kind)
    assert position(page).startswith(title + " ")
    current = page.locator("#events li.current")
    assert "failing" in (current.get_attribute("class") or "").split()
    assert current.inner_text().startswith(f"{mark} {title}:")
    # The window is not scrolled: the verdict's headline is inside the viewport ...
    assert page.evaluate("window.scrollY") == 0
    viewport = {"left": 0, "top": 0, "right": 1280, "bottom": 900}
    assert encloses(viewport, box(page, "#verdict .verdict-head"))
    assert page.locator("#verdict.here").is_visible()
    # ... and the event list shows the failing event.
    assert encloses(box(page, "aside"), box(page, "#events li.current"))
    check_board(page, game, log, events)
    page.screenshot(path=str(tmp_path / f"{game}-{kind}.png"))
    if kind.startswith("illegal"):
        assert page.locator("#verdict .rule-id").inner_text() == mark
        assert "not applied" in page.locator("#here").inner_text()
    press(page, "Home")
    assert position(page).startswith("setup ")
    assert not page.locator("#verdict.here").count()
    press(page, "End")
    assert position(page).startswith(title + " ")


def test_the_illegal_pillars_page_names_the_rule_and_its_title(page: Any, tmp_path: Path) -> None:
    log = write_failing_logs(tmp_path, "pillars")["illegal"]
    open_log(page, log, tmp_path)
    assert page.locator("#verdict .rule-id").inner_text() == "PIL-CARDS-02"
    assert page.locator("#verdict .rule-title").inner_text() == "Only cards in the supply"


def test_a_valid_page_shows_the_result_and_its_anchor_opens_it(page: Any, tmp_path: Path) -> None:
    log = example("pillars")
    claimed = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])["result"]
    assert claimed == {"scores": {"red": 13, "blue": 26}, "winners": ["blue"]}
    open_log(page, log, tmp_path)
    shown = page.locator("#verdict .verdict-result")
    assert shown.is_visible()
    assert shown.inner_text().startswith("result: blue wins · scores: red 13, blue 26")
    page.locator("#verdict .verdict-result a").click()
    assert position(page).startswith("result ")
    here = page.locator("#here").inner_text()
    assert "reference result: winners: blue · scores: red 13, blue 26" in here
    assert '"winners": ["blue"]' in here or '"winners":["blue"]' in here  # the log's own line
    press(page, "Home")
    page.goto(log_uri(tmp_path, log) + "#result")
    assert position(page).startswith("result ")
    assert page.locator("#events li.current").inner_text().startswith("result:")


def test_a_failing_scenario_opens_at_its_step_with_the_verdict_in_sight(
    page: Any, tmp_path: Path
) -> None:
    # PIL-ADV-08's step 1 (a plays Francis, whom a does not hold) breaks PIL-ADV-08; the
    # scenario made to expect PIL-ADV-09 there fails at that step.
    name = "PIL-ADV-08-tax-exemption-is-a-held-card.yaml"
    text = (ROOT / "scenarios" / "pillars" / name).read_text(encoding="utf-8")
    text = text.replace("    rule: PIL-ADV-08", "    rule: PIL-ADV-09")
    html, result = scenario_page_of(
        tmp_path, text.replace("- PIL-ADV-08\n", "- PIL-ADV-08\n- PIL-ADV-09\n", 1)
    )
    assert result.status == "fail"
    open_page(page, html, tmp_path, "scenario")
    assert position(page).startswith("step 1 ")
    assert page.evaluate("window.scrollY") == 0
    viewport = {"left": 0, "top": 0, "right": 1280, "bottom": 900}
    assert encloses(viewport, box(page, "#verdict .verdict-head"))
    assert page.locator("#here .here-targets.tried").inner_text() == (
        "tried: card francis (not on the board)"
    )


def scenario_page_of(folder: Path, text: str) -> tuple[str, Any]:
    scenario = folder / "scenario.yaml"
    scenario.write_text(text, encoding="utf-8")
    return scenario_page(scenario, GameCache())
