"""The replay pages in a real headless Chromium: step with the keyboard, count what the board
draws against the reference state (read by state path, replayed here by the engine), and find
the failing event highlighted with its rule id. Screenshots go to each test's tmp_path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from replay_html_fixture import ROOT, write_failing_logs

from oracle.formats.converter import structure_event
from oracle.formats.log import parse_header, read_lines
from oracle.games import GameCache
from oracle.html import log_page
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


def position(page: Any) -> str:
    text: str = page.locator("#position").inner_text()
    return text


def press(page: Any, key: str, times: int = 1) -> None:
    for _ in range(times):
        page.keyboard.press(key)


@pytest.mark.parametrize("game", ["pillars", "milestones", "palmyra", "municipium"])
def test_step_through_a_game(page: Any, game: str, tmp_path: Path) -> None:
    log = ROOT / "examples" / f"{game}.jsonl"
    html, verdict = log_page(log, GameCache())
    assert verdict.kind == "valid"
    out = tmp_path / f"{game}.html"
    out.write_text(html, encoding="utf-8")
    page.goto(out.as_uri())
    page.wait_for_selector("body[data-ready=yes]")
    assert position(page).startswith("setup ")
    check_board(page, game, log, 0)
    press(page, "ArrowRight", 30)
    assert position(page).startswith("event 29 ")
    assert page.locator("#events li.current").inner_text().startswith("event 29:")
    check_board(page, game, log, 30)
    press(page, "ArrowLeft", 5)
    assert position(page).startswith("event 24 ")
    check_board(page, game, log, 25)
    press(page, "End")
    assert position(page).startswith(f"event {verdict.events - 1} ")
    check_board(page, game, log, verdict.events)
    page.screenshot(path=str(tmp_path / f"{game}-end.png"))
    press(page, "Home")
    assert position(page).startswith("setup ")
    page.goto(out.as_uri() + "#event-60")
    assert position(page).startswith("event 60 ")
    check_board(page, game, log, 61)
    page.screenshot(path=str(tmp_path / f"{game}-event-60.png"))


# kind -> (failing frame, its events replayed before the board shown, what marks it)
FAILING = {
    "illegal": ("event 3", 3, "PIL-CARDS-02"),
    "divergent": ("event 9", 10, "divergent"),
    "malformed": ("event 18", 18, "malformed"),
    "incomplete": ("event 58", 59, "incomplete"),
}


@pytest.mark.parametrize("kind", sorted(FAILING))
def test_a_failing_log_opens_at_its_problem(page: Any, kind: str, tmp_path: Path) -> None:
    log = write_failing_logs(tmp_path)[kind]
    html, verdict = log_page(log, GameCache())
    assert verdict.kind == kind
    out = tmp_path / f"{kind}.html"
    out.write_text(html, encoding="utf-8")
    page.goto(out.as_uri())
    page.wait_for_selector("body[data-ready=yes]")
    title, events, mark = FAILING[kind]
    assert position(page).startswith(title + " ")
    current = page.locator("#events li.current")
    assert "failing" in (current.get_attribute("class") or "").split()
    assert current.inner_text().startswith(f"{mark} {title}:")
    assert page.locator("#verdict.here").is_visible()
    check_board(page, "pillars", log, events)
    page.screenshot(path=str(tmp_path / f"{kind}.png"))
    if kind == "illegal":
        assert page.locator("#verdict .rule-id").inner_text() == "PIL-CARDS-02"
        assert page.locator("#verdict .rule-title").inner_text() == "Only cards in the supply"
        assert "not applied" in page.locator("#here").inner_text()
    if kind == "divergent":
        row = page.locator("#verdict .divergence").inner_text().split()
        assert row == ["players.red.gold", "11", "10"]
    press(page, "Home")
    assert position(page).startswith("setup ")
    assert not page.locator("#verdict.here").count()
    press(page, "End")
    assert position(page).startswith(title + " ")
