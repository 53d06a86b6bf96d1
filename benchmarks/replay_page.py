"""Replay pages: the size of a ~900-event 4-player Pillars page, its load and step times in
headless Chromium, and the screenshots of each game in docs/images/.

    python benchmarks/replay_page.py size                # bytes, events (no browser)
    python benchmarks/replay_page.py size --browser      # and load / step times in Chromium
    python benchmarks/replay_page.py screenshots         # docs/images/replay-<game>.png

A 4-player Pillars game has about 370 events, so ``size`` replays seeded games one after
another (seeds 1, 2, 3, ...) and puts their frames on one page until it holds ``--events``
(each game's setup is one more frame, where the page carries a large change of state).
Nothing is asserted: sizes and times are measured here, not in tests.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from oracle.formats.converter import to_json
from oracle.games import GameCache
from oracle.html import log_page
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


def showcase_event(log: Path, events: int) -> int:
    """The event a screenshot shows: in Pillars the first of round 3's Phase III (every
    master builder placed); elsewhere two thirds of the way through."""
    if "pillars" not in log.name:
        return events * 2 // 3
    states = [state for record, state in replayed_states(log, GameCache()) if record is not None]
    return next(i for i, st in enumerate(states) if st.round == 3 and st.phase == "actions")


def browse(pages: list[tuple[Path, str]], action: str) -> None:
    """Open each page in headless Chromium: time loading and stepping, or take screenshots."""
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
        for path, target in pages:
            started = time.perf_counter()
            tab.goto(path.as_uri() + target)
            tab.wait_for_selector("body[data-ready=yes]")
            loaded = time.perf_counter() - started
            if action == "time":
                step_ms = tab.evaluate(
                    """() => { const t0 = performance.now(); const n = 300;
                    for (let i = 0; i < n; i++) {
                      document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight"}));
                      document.body.offsetHeight; }
                    return (performance.now() - t0) / n; }"""
                )
                print(f"{path.name}: opened in {loaded:.2f} s, {step_ms:.1f} ms per step")
            else:
                tab.screenshot(path=target_image(path), full_page=False)
                print(f"wrote {target_image(path)}")
        context.close()


def target_image(page: Path) -> str:
    return str(ROOT / "docs" / "images" / f"replay-{page.stem}.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["size", "screenshots"])
    parser.add_argument("--events", type=int, default=900)
    parser.add_argument("--browser", action="store_true", help="Also time it in Chromium.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.what == "size":
            page, frames = long_pillars_page(folder, args.events)
            out = folder / "pillars-long.html"
            out.write_text(page, encoding="utf-8")
            size = out.stat().st_size
            print(f"4-player Pillars, {frames} frames: {size} bytes ({size / 1e6:.2f} MB)")
            if args.browser:
                browse([(out, "")], "time")
            return
        # One 4-player game per game, shown at about two thirds of the way through.
        pages = []
        for game in LAYOUTS:
            log = play_log(folder, game, 4, 1)
            page, verdict = log_page(log, GameCache())
            out = folder / f"{game}.html"
            out.write_text(page, encoding="utf-8")
            pages.append((out, f"#event-{showcase_event(log, verdict.events)}"))
        (ROOT / "docs" / "images").mkdir(parents=True, exist_ok=True)
        browse(pages, "shot")


if __name__ == "__main__":
    sys.exit(main())
