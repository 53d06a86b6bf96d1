"""A static HTML replay of a log or scenario: one self-contained page, drawn from data.

page, verdict = log_page(Path("game.jsonl"), GameCache())
Path("replay.html").write_text(page, encoding="utf-8")

The page embeds the setup state once and then each event's changes (compact JSON); a
small renderer per game (``templates/<game>.js``) draws the board from the state and a
layout the game's data tables give (``oracle/html/<game>.py``).
"""

from oracle.html.page import log_page, scenario_page

__all__ = ["log_page", "scenario_page"]
