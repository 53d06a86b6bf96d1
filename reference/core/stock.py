"""A supply or stock that may be unlimited: the one way every game counts a pile a profile
can make endless.

Some implementations have no limit on a supply (no cube limit, a bank that never runs out).
A profile says so with ``null`` for that count (``setup.cubes: {wood: null, ...}``); the
tables read it as ``UNLIMITED`` (None), and the state keeps it: the supply's count is then
``null`` in every state path, claim and report, taking from it always succeeds, and
returning to it changes nothing. A whole number is a stock as printed: it runs out.

    have, left = take(supply["wood"], 3)   # (3, None) from an unlimited supply
    supply["wood"] = left
"""

from __future__ import annotations

UNLIMITED = None
"""The count of a stock that never runs out (``null`` in a profile, a claim, a report)."""

Stock = int | None
"""A stock's count: a whole number, or UNLIMITED."""

UNLIMITED_WORDS = "null (unlimited)"
"""How a profile says "unlimited", as an error message names it."""


def take(stock: Stock, wanted: int) -> tuple[int, Stock]:
    """Up to ``wanted`` from ``stock``: how many are taken and the stock left (all of them
    from an unlimited stock, which stays unlimited)."""
    if stock is None:
        return wanted, None
    taken = min(stock, wanted)
    return taken, stock - taken


def put_back(stock: Stock, count: int) -> Stock:
    """``stock`` once ``count`` are returned to it (an unlimited stock stays unlimited)."""
    return None if stock is None else stock + count


def holds(stock: Stock, count: int) -> bool:
    """Whether ``stock`` holds at least ``count``."""
    return stock is None or stock >= count


def limited(stock: Stock) -> int:
    """The count of a stock the caller knows is limited; an unlimited one is a bug here."""
    if stock is None:
        raise ValueError("an unlimited stock has no count")
    return stock
