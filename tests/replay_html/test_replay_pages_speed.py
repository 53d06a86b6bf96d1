"""The replay page's budget, measured in Chromium: at most 2 MB for 900 events and ready in
at most 1 s (the page's own clock: from navigation start to the first frame drawn). The
numbers are printed (and recorded as test properties); nothing tighter is asserted."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from replay_html_browse import open_page
from replay_html_fixture import GAMES, ROOT

from oracle.games import GameCache
from oracle.html import log_page

MAX_BYTES = 2_000_000
MAX_READY_MS = 1_000


def benchmark() -> Any:
    """benchmarks/replay_page.py, which makes the long pages (a script, not a package)."""
    spec = importlib.util.spec_from_file_location(
        "replay_page", ROOT / "benchmarks" / "replay_page.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ready_ms(page: Any, html: str, folder: Path, name: str) -> int:
    open_page(page, html, folder, name)
    return int(page.evaluate("document.body.dataset.readyMs"))


@pytest.mark.slow
def test_the_page_stays_small_and_ready_within_a_second(
    page: Any, tmp_path: Path, record_property: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = benchmark()
    measured = []
    html, frames = bench.long_pillars_page(tmp_path, 900)
    measured.append(("pillars, 4 players, 900 frames", frames, html, "pillars-900"))
    for game in GAMES:  # a whole seeded 4-player game of each
        log = bench.play_log(tmp_path, game, 4, 1)
        html, verdict = log_page(log, GameCache())
        measured.append((f"{game}, 4 players, seed 1", verdict.events, html, game))
    lines = []
    for what, events, html, name in measured:
        size = len(html.encode("utf-8"))
        ready = ready_ms(page, html, tmp_path, name)
        record_property(name, {"events": events, "bytes": size, "ready_ms": ready})
        lines.append(f"{what}: {events} events, {size / 1e6:.2f} MB, ready in {ready} ms")
        assert ready <= MAX_READY_MS, lines[-1]
        if events <= 900:
            assert size <= MAX_BYTES, lines[-1]
    with capsys.disabled():
        print("\nreplay pages in Chromium:\n  " + "\n  ".join(lines))
