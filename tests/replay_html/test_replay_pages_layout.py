"""How the replay pages look, in Chromium: nothing overlaps at 800 px, labels fit their boxes,
strings from a log are text (never markup, never ``\\u003c`` escapes), each game has a
legend whose pieces stand apart from the players' colours, the cosmetics of issue 27."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from replay_html_browse import box, open_log, open_page, overlap, press
from replay_html_fixture import EXAMPLE, GAMES, ROOT, example, write_failing_logs

from oracle.games import GameCache
from oracle.html import scenario_page

PARTS = ["header", "#controls", "#here", "#board > svg", "#legend", "#players", "aside"]
"""The page's blocks, which must not overlap one another."""


def pages_of(game: str, folder: Path) -> list[Path]:
    logs = write_failing_logs(folder, game)
    return [example(game), logs["illegal"], logs["divergent"]]


@pytest.mark.parametrize("game", GAMES)
def test_nothing_overlaps_at_800_px_and_labels_fit(page: Any, game: str, tmp_path: Path) -> None:
    for width, log in itertools.product((800, 1280), pages_of(game, tmp_path)):
        page.set_viewport_size({"width": width, "height": 900})
        open_log(page, log, tmp_path)
        for at in ("", "End"):
            if at:
                press(page, at)
            parts = {part: box(page, part) for part in PARTS}
            for (a, ra), (b, rb) in itertools.combinations(parts.items(), 2):
                assert not overlap(ra, rb), (log.name, width, at, a, b, ra, rb)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            for part in ("header", "#here", "#view"):
                wide = page.evaluate(
                    "s => { const e = document.querySelector(s); return e.scrollWidth - "
                    "e.clientWidth; }",
                    part,
                )
                assert wide <= 0, (log.name, width, part)
            too_wide = page.evaluate(
                """() => Array.from(document.querySelectorAll('svg text[data-fit]'))
                .filter(t => t.getComputedTextLength() > Number(t.dataset.fit) + 0.5)
                .map(t => t.textContent)"""
            )
            assert too_wide == [], (log.name, width)


HOSTILE = '<img src=x onerror="window.__pwned=1">&\'<script>window.__pwned=2</script>'


def hostile_logs(folder: Path) -> list[Path]:
    """Logs carrying HOSTILE in a claimed value, an event's type, a card and the file name."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    edits = {
        "claim": {11: lines[10].replace("10", json.dumps(HOSTILE), 1)},
        "type": {20: json.dumps({"type": HOSTILE, "player": "red", HOSTILE: HOSTILE})},
        "card": {5: lines[4].replace('"gravel_medium"', json.dumps(HOSTILE))},
    }
    made = []
    for name, changes in edits.items():
        edited = [changes.get(n, line) for n, line in enumerate(lines, 1)]
        made.append(folder / f"hostile-{name}-<b>&'.jsonl")
        made[-1].write_text("\n".join(edited) + "\n", encoding="utf-8")
    return made


def assert_nothing_injected(page: Any) -> None:
    for key in ("Home", "End", "ArrowLeft"):  # every part of the page drawn at least once
        press(page, key)
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator("#view img, #verdict img, #view script, #verdict script").count() == 0
    text = page.locator("body").inner_text()
    assert not re.search(r"\\u[0-9a-fA-F]{4}", text), "a \\u escape shows"


def test_strings_from_a_log_are_text_never_markup(page: Any, tmp_path: Path) -> None:
    claim, kind, card = hostile_logs(tmp_path)
    verdict = open_log(page, claim, tmp_path)
    assert verdict.kind == "divergent"
    assert page.title().startswith("hostile-claim-<b>&'.jsonl")
    claimed = page.locator("#verdict .divergence td").nth(1).inner_text()
    assert claimed == json.dumps(HOSTILE, ensure_ascii=False)
    assert_nothing_injected(page)
    # An event's type shows as it is, a field's value as JSON (as the event list shows both).
    for log, shown in ((kind, HOSTILE), (card, json.dumps(HOSTILE, ensure_ascii=False))):
        open_log(page, log, tmp_path)
        press(page, "End")
        assert shown in page.locator("#events li.failing").inner_text()
        assert shown in page.locator("#here").inner_text()
        assert_nothing_injected(page)


def test_a_scenarios_strings_are_text_and_a_pass_badge_is_not_red(
    page: Any, tmp_path: Path
) -> None:
    source = ROOT / "scenarios" / "pillars" / "PIL-ADV-08-tax-exemption-is-a-held-card.yaml"
    text = source.read_text(encoding="utf-8")
    description = text.split("description: ", 1)[1].split("\n", 1)[0]
    scenario = tmp_path / "hostile.yaml"
    scenario.write_text(text.replace(description, json.dumps(HOSTILE)), encoding="utf-8")
    html, result = scenario_page(scenario, GameCache())
    assert result.status == "pass"
    open_page(page, html, tmp_path, "scenario")
    assert HOSTILE in page.locator("#verdict .scenario").inner_text()
    assert_nothing_injected(page)
    # The rule it expects broken, on a PASS: a badge that is not the failing red.
    badge = rgb(
        page.evaluate("getComputedStyle(document.querySelector('.rule-id')).backgroundColor")
    )
    assert badge[1] > badge[0], badge
    # PIL-ADV-08's status in rules.yaml, shown beside it.
    assert page.locator(".verdict-head .rule-status").inner_text() == "secondary"


def rgb(css: str) -> tuple[int, int, int]:
    found = re.findall(r"\d+", css)
    return int(found[0]), int(found[1]), int(found[2])


def distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    return float(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5)


def hex_rgb(colour: str) -> tuple[int, int, int]:
    digits = colour[1:] if len(colour) == 7 else "".join(c * 2 for c in colour[1:])
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


# game -> the legend's words that must be there, and those whose colours must stand apart
# from every player's
LEGENDS = {
    "pillars": (
        [
            "master builder (its owner's colour)",
            "craftsman card",
            "advantage card",
            "cathedral piece",
        ],
        [],
    ),
    "milestones": (
        ["road", "house", "marketplace", "milestone", "bonus tile"],
        ["house", "marketplace"],
    ),
    "palmyra": (["desert (D)", "watchtower", "city centre", "legion", "censor"], []),
    "municipium": (
        ["soldier (citizen)", "advocate (citizen)", "merchant (citizen)", "priest (citizen)"],
        ["soldier (citizen)", "advocate (citizen)", "merchant (citizen)", "priest (citizen)"],
    ),
}
APART = 60
"""The least distance (RGB, 0-441) between a piece's colour and a player's."""


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_legend_apart_from_the_players_colours(
    page: Any, game: str, tmp_path: Path
) -> None:
    open_log(page, example(game), tmp_path)
    press(page, "End")
    items = page.evaluate(
        """() => Array.from(document.querySelectorAll('#legend .legend-item')).map(i => ({
        words: i.querySelector('.legend-words').textContent,
        colours: Array.from(i.querySelectorAll('svg *'))
          .flatMap(s => [s.getAttribute('fill'), s.getAttribute('stroke')])
          .filter(c => c && c[0] === '#')}))"""
    )
    words = [item["words"] for item in items]
    wanted, apart = LEGENDS[game]
    assert set(wanted) <= set(words), words
    players = page.evaluate(
        """() => Array.from(document.querySelectorAll('#players .swatch'))
        .map(s => s.dataset.playerColour)"""
    )
    assert players
    for item in items:
        if item["words"] in apart:
            assert item["colours"], item
            for colour, player in itertools.product(item["colours"], players):
                assert distance(hex_rgb(colour), hex_rgb(player)) >= APART, (item, player)


def contrast(fore: tuple[int, int, int], back: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours."""

    def luminance(colour: tuple[int, int, int]) -> float:
        def channel(c: int) -> float:
            s = c / 255
            return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

        r, g, b = (channel(c) for c in colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(fore), luminance(back)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_failing_row_reads_and_the_legal_list_is_whole(page: Any, tmp_path: Path) -> None:
    log = write_failing_logs(tmp_path, "pillars")["illegal_placeholder"]
    open_log(page, log, tmp_path)
    for step in ("", "Home"):  # the failing row current, then not
        if step:
            press(page, step)
        style = page.evaluate(
            """() => { const s = getComputedStyle(document.querySelector('#events li.failing'));
            return [s.color, s.backgroundColor]; }"""
        )
        assert contrast(rgb(style[0]), rgb(style[1])) >= 4.5, style
    # Eleven legal events (every space red's builder could take, or a pass): all shown whole.
    items = page.locator("#verdict .legal li")
    assert items.count() == 11
    listing = box(page, "#verdict .legal ul")
    for i in range(items.count()):
        item = items.nth(i).bounding_box()
        assert item is not None and item["y"] + item["height"] <= listing["bottom"] + 0.5
    assert page.evaluate(
        "(() => { const u = document.querySelector('#verdict .legal ul');"
        " return u.scrollHeight <= u.clientHeight + 1; })()"
    )
