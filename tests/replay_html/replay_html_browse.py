"""Opening replay pages in the test browser and reading what it shows (geometry, text)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from oracle.games import GameCache
from oracle.html import log_page


def open_page(page: Any, html: str, folder: Path, name: str, fragment: str = "") -> Path:
    """Write ``html`` to ``folder/name.html`` and open it (with ``fragment``) until ready."""
    out = folder / f"{name}.html"
    out.write_text(html, encoding="utf-8")
    page.goto(out.as_uri() + fragment)
    page.wait_for_selector("body[data-ready=yes]")
    return out


def open_log(page: Any, log: Path, folder: Path, fragment: str = "") -> Any:
    """Open the replay page of ``log``; its verdict."""
    html, verdict = log_page(log, GameCache())
    open_page(page, html, folder, log.stem, fragment)
    return verdict


def box(page: Any, selector: str) -> dict[str, float]:
    """The first match's rectangle in the viewport (left, top, right, bottom, width, height)."""
    found: dict[str, float] | None = page.evaluate(
        """sel => { const e = document.querySelector(sel); if (!e) return null;
        const r = e.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                width: r.width, height: r.height}; }""",
        selector,
    )
    assert found is not None, f"nothing matches {selector}"
    return found


def position(page: Any) -> str:
    text: str = page.locator("#position").inner_text()
    return text


def show(page: Any, frame: str) -> None:
    """Show the frame titled ``frame`` ("setup", "event 12", "result") by its fragment."""
    page.evaluate("f => { location.hash = '#' + f.replace(/ /g, '-'); }", frame)
    page.wait_for_function(
        "f => document.getElementById('position').textContent.startsWith(f + ' ')", arg=frame
    )


def press(page: Any, key: str, times: int = 1) -> None:
    for _ in range(times):
        page.keyboard.press(key)


def encloses(outer: Mapping[str, float], inner: Mapping[str, float], slack: float = 0.5) -> bool:
    return (
        outer["left"] <= inner["left"] + slack
        and outer["top"] <= inner["top"] + slack
        and outer["right"] >= inner["right"] - slack
        and outer["bottom"] >= inner["bottom"] - slack
    )


def overlap(a: Mapping[str, float], b: Mapping[str, float]) -> bool:
    """Whether two rectangles share more than a pixel's width of area."""
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1 and (
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1
    )
