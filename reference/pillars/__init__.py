"""The Pillars of the Earth (Kosmos 2006), base game for 2-4 players: reference engine."""

from __future__ import annotations

from typing import Any

from reference.core.options import load_rules_and_data, read_options
from reference.pillars.engine import PACKAGE_DIR, Pillars
from reference.pillars.flow import make_ctx
from reference.pillars.options import PillarsOptions
from reference.pillars.tables import read_tables


def make(options: dict[str, Any]) -> Pillars:
    """The rule set for these options (``profile`` replaces data values)."""
    parsed, profile = read_options(options, PillarsOptions)
    parsed.check()
    catalogue, data = load_rules_and_data(PACKAGE_DIR, profile)
    return Pillars(parsed, catalogue, data, make_ctx(read_tables(data), parsed))


__all__ = ["make", "Pillars", "PillarsOptions"]
