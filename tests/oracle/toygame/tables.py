"""The toy's data tables, read through the core reader (one message shape, bounds)."""

from __future__ import annotations

import attrs

from reference.core import tables as tb
from reference.core.datafile import DataSet


@attrs.frozen
class Tables:
    faces: tuple[int, ...]


def read_tables(data: DataSet) -> Tables:
    return Tables(tb.wholes("dice.faces", data.value("dice.faces"), 1, 99))
