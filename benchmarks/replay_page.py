"""Replay pages: the size of a ~900-event 4-player Pillars page, and its load and step times
in headless Chromium (the pictures in docs/images/ come from
tests/replay_html/make_screenshots.py).

    python benchmarks/replay_page.py size                # bytes, events (no browser)
    python benchmarks/replay_page.py size --browser      # and load / step times in Chromium

A 4-player Pillars game has about 370 events, so ``size`` replays seeded games one after
another (seeds 1, 2, 3, ...) and puts their frames on one page until it holds ``--events``
(each game's setup is one more frame, where the page carries a large change of state).
Nothing is asserted: sizes and times are measured here, not in tests.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from oracle.formats.converter import to_json
from oracle.games import GameCache
from oracle.html.page import LAYOUTS, Frame, render
from oracle.play import PLAYER_NAMES, play_lines
from oracle.replay import validate_log
from reference.registry import make_game

ROOT = Path(__file__).resolve().parents[1]
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def play_log(folder: Path, game: str, players: int, seed: int) -> Path:
    """A seeded random legal game written as a log."""
    rules = make_game(game, {})
    log = folder / f"{game}-{players}p-{seed}.jsonl"
    lines = play_lines(rules, PLAYER_NAMES[:players], seed, {})
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return log


def replayed_states(log: Path, games: GameCache) -> list[tuple[Any, Any]]:
    """(record or None for the setup, reference state after it), as the replay gives them."""
    seen: list[tuple[Any, Any]] = []
    validate_log(log, games, on_state=lambda record, state: seen.append((record, state)))
    return seen


def long_pillars_page(folder: Path, events: int) -> tuple[str, int]:
    """One page with the frames of consecutive 4-player Pillars games, ``events`` or more."""
    games = GameCache()
    frames: list[Frame] = []
    seed = 0
    while len(frames) < events:
        seed += 1
        log = play_log(folder, "pillars", 4, seed)
        for record, state in replayed_states(log, games)[: events - len(frames)]:
            if record is None:
                frames.append(Frame("setup", None, None, to_json(state)))
                continue
            event = {k: v for k, v in record.raw.items() if k != "state"}  # as log_page does
            frames.append(Frame(f"event {len(frames)}", record.line, event, to_json(state)))
    game = make_game("pillars", {})
    verdict = {"kind": "valid", "message": "", "text": "", "failed": False}
    page = render(f"{len(frames)} frames", "pillars", LAYOUTS["pillars"](game), frames, verdict)
    return page, len(frames)


def browse(pages: list[Path]) -> None:
    """Open each page in headless Chromium: time loading (the page's own clock: navigation
    start to the first frame drawn) and stepping."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as profile, sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            profile,
            executable_path="/usr/bin/chromium",
            headless=True,
            args=ARGS,
            viewport={"width": 1180, "height": 780},
        )
        tab = context.new_page()
        for path in pages:
            tab.goto(path.as_uri() + "#setup")
            tab.wait_for_selector("body[data-ready=yes]")
            ready_ms = int(tab.evaluate("document.body.dataset.readyMs"))
            step_ms = tab.evaluate(
                """() => { const t0 = performance.now(); const n = 300;
                for (let i = 0; i < n; i++) {
                  document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight"}));
                  document.body.offsetHeight; }
                return (performance.now() - t0) / n; }"""
            )
            print(f"{path.name}: ready in {ready_ms} ms, {step_ms:.1f} ms per step")
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["size"])
    parser.add_argument("--events", type=int, default=900)
    parser.add_argument("--browser", action="store_true", help="Also time it in Chromium.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        page, frames = long_pillars_page(folder, args.events)
        out = folder / "pillars-long.html"
        out.write_text(page, encoding="utf-8")
        size = out.stat().st_size
        print(f"4-player Pillars, {frames} frames: {size} bytes ({size / 1e6:.2f} MB)")
        if args.browser:
            browse([out])


if __name__ == "__main__":
    main()
