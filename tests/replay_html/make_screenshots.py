"""The pictures of the replay pages in docs/images: one failing page per game, as it opens.

    python tests/replay_html/make_screenshots.py            # docs/images/replay-<game>.png
    python tests/replay_html/make_screenshots.py --out DIR  # elsewhere

Each picture is the page of a hand-made illegal log (``replay_html_fixture``: the latest
illegal edit of each game's example) in headless Chromium (Debian's ``chromium``, driven by
Playwright), 1280 x 900 pixels, exactly as it opens: scrolled to the top, at the problem.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from replay_html_fixture import CHROMIUM_ARGS, GAMES, ROOT, write_failing_logs

from oracle.games import GameCache
from oracle.html import log_page


def failing_pages(folder: Path) -> dict[str, Path]:
    """game -> the page of its latest illegal log, written in ``folder``."""
    pages = {}
    for game in GAMES:
        logs = write_failing_logs(folder, game)
        log = logs.get("illegal_late", logs["illegal"])
        html, verdict = log_page(log, GameCache())
        if verdict.kind != "illegal":
            raise SystemExit(f"{log.name}: expected an illegal verdict, got {verdict.kind}")
        pages[game] = folder / f"{game}.html"
        pages[game].write_text(html, encoding="utf-8")
    return pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as driver:
        pages = failing_pages(Path(tmp))
        context = driver.chromium.launch_persistent_context(
            str(Path(tmp) / "profile"),
            executable_path=chromium,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900},
        )
        tab = context.new_page()
        for game, page in pages.items():
            tab.goto(page.as_uri())
            tab.wait_for_selector("body[data-ready=yes]")
            image = args.out / f"replay-{game}.png"
            tab.screenshot(path=str(image))
            print(f"wrote {image}")
        context.close()


if __name__ == "__main__":
    main()
