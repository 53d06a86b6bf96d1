"""A static HTML replay of a log or scenario: one self-contained page, drawn from data.

page, verdict = log_page(Path("game.jsonl"), GameCache())
Path("replay.html").write_text(page, encoding="utf-8")

The page embeds the setup state once and then each event's changes (compact JSON); a
small renderer per game (``templates/<game>.js``) draws the board from the state and a
layout the game's data tables give (``oracle/html/<game>.py``).

A page is always text that UTF-8 can write: a log may hold a lone surrogate in a string
(JSON allows ``"\\ud800"``) and a file name that is not UTF-8 reaches Python with escaped
bytes; each such character is written as its escape (``\\ud800``), which a script reads
back as the same string and a reader sees as it was written.
"""

from pathlib import Path

from oracle.games import GameCache
from oracle.html import page as _page
from oracle.replay import Verdict
from oracle.scenarios import ScenarioResult


def writable(text: str) -> str:
    """``text`` with every lone surrogate written as its escape (``\\ud800``)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def log_page(path: Path, games: GameCache) -> tuple[str, Verdict]:
    """The page of a log file, and the log's verdict."""
    page, verdict = _page.log_page(path, games)
    return writable(page), verdict


def scenario_page(path: Path, games: GameCache) -> tuple[str, ScenarioResult]:
    """The page of a scenario file, and the scenario's result."""
    page, result = _page.scenario_page(path, games)
    return writable(page), result


__all__ = ["log_page", "scenario_page", "writable"]
