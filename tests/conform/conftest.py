"""Helpers for the conformance kit's tests: the example adapter with planted bugs."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = ROOT / "examples" / "adapters" / "python" / "adapter.py"
SERVE = f"{shlex.quote(sys.executable)} -m rules_oracle_cli serve"


def adapter(game: str, *flags: str) -> str:
    """The command that runs the example adapter for ``game`` with these planted bugs."""
    parts = [sys.executable, str(ADAPTER), "--game", game, *flags]
    return " ".join(shlex.quote(p) for p in parts)


EMPEROR_BUG = adapter("palmyra", "--data", "emperor.tax_bonus=2")
"""A rule bug only Palmyra's advanced game shows: a copy of our engine that pays the
emperor's tax bonus (emperor.tax_bonus, 1 in our data) as 2; the emperor is in play only in
the advanced game (PAL-EMP-01)."""
