"""The data tables Palmyra reads, checked for shape when the game is made."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from reference.core import tables as tb
from reference.core.datafile import DataSet
from reference.core.stock import Stock
from reference.palmyra.lattice import cell_name, kind_of, parse_cell
from reference.palmyra.options import ADVANCED, SOLO, PalmyraOptions
from reference.palmyra.tiles import TILES

if TYPE_CHECKING:  # the recorder is imported only where a value is explained (a cheap start)
    from reference.core.trace import Recorder


@attrs.frozen
class Kit:
    """What one seat starts with: tiles drawn from each stack and coins from the bank."""

    large: int
    small: int
    coins: int


@attrs.frozen
class Tables:
    """Every number the rules use, read from ``game.data`` (profile applied)."""

    mix: dict[str, int]
    city_layouts: dict[int, tuple[str, ...]]
    kits: tuple[Kit, ...]
    advanced_extra_coins: int
    solo_kit_seat: int
    bank_total: Stock
    """The bank's coin value (null in a profile: a bank that never runs out)."""
    landscape_reward: int
    icon_reward: int
    max_tiles: int
    max_tiles_with_icon: int
    emperor_price: int
    emperor_tax_bonus: int
    emperor_conquer_bonus: int
    solo_drain: int
    solo_target: int


def _mix(data: DataSet) -> dict[str, int]:
    mix = tb.counts("tiles.mix", data.value("tiles.mix"), TILES, high=99)
    return {code: n for code, n in mix.items() if n}


def _layouts(data: DataSet) -> dict[int, tuple[str, ...]]:
    key = "city.layouts"
    layouts: dict[int, tuple[str, ...]] = {}
    for count, cells in tb.player_counts(key, data.value(key), (2, 3, 4, 5)).items():
        names: list[str] = []
        for i, cell in enumerate(tb.items(f"{key}.{count}", cells, nonempty=True)):
            xy = parse_cell(cell) if isinstance(cell, str) else None
            if xy is None or kind_of(cell_name(*xy)) == "":
                raise tb.bad(f"{key}.{count}[{i}]", "a cell 'x,y' of the lattice", cell)
            names.append(cell_name(*xy))
        if len(set(names)) != len(names):
            raise tb.bad(f"{key}.{count}", "each cell once", cells)
        layouts[count] = tuple(names)
    return layouts


def _kits(data: DataSet) -> tuple[Kit, ...]:
    key = "setup.kits"
    raw = tb.items(key, data.value(key), nonempty=True)
    if len(raw) < 5:
        raise tb.bad(key, "a list of 5 seats {large, small, coins}", raw)
    kits: list[Kit] = []
    for i, item in enumerate(raw):
        spec = tb.record(f"{key}[{i}]", item, ("large", "small", "coins"))
        kits.append(
            Kit(*(tb.whole(f"{key}[{i}].{f}", spec[f], 0, 99) for f in ("large", "small", "coins")))
        )
    return tuple(kits)


def _denominations(data: DataSet) -> None:
    tb.wholes("bank.denominations", data.value("bank.denominations"), 1)


def read_tables(data: DataSet) -> Tables:
    """Check every value's shape and collect them; a bad value raises BadOptions."""
    _denominations(data)
    tables = Tables(
        mix=_mix(data),
        city_layouts=_layouts(data),
        kits=_kits(data),
        advanced_extra_coins=tb.whole_at(data, "setup.advanced_extra_coins"),
        solo_kit_seat=tb.whole_at(data, "solo.kit_seat", 1),
        bank_total=tb.stock_at(data, "bank.total"),
        landscape_reward=tb.whole_at(data, "actions.landscape_match"),
        icon_reward=tb.whole_at(data, "actions.icon_match"),
        max_tiles=tb.whole_at(data, "actions.max_tiles", 1, 12),
        max_tiles_with_icon=tb.whole_at(data, "actions.max_tiles_with_icon", 1, 12),
        emperor_price=tb.whole_at(data, "emperor.price"),
        emperor_tax_bonus=tb.whole_at(data, "emperor.tax_bonus"),
        emperor_conquer_bonus=tb.whole_at(data, "emperor.conquer_bonus"),
        solo_drain=tb.whole_at(data, "solo.drain_per_turn"),
        solo_target=tb.whole_at(data, "solo.target"),
    )
    if tables.solo_kit_seat > len(tables.kits):
        expected = f"a seat of setup.kits (1..{len(tables.kits)})"
        raise tb.bad("solo.kit_seat", expected, tables.solo_kit_seat)
    return tables


@attrs.frozen
class Config:
    """A rule set's fixed parts: the tables and the options, handed to every rule."""

    tables: Tables
    options: PalmyraOptions
    recorder: Recorder | None = None
    """Set only in the recording copy that explains a value (reference/core/trace.py)."""

    @property
    def advanced(self) -> bool:
        """Whether the emperor is in play."""
        return self.options.mode == ADVANCED

    @property
    def solo(self) -> bool:
        """Whether this is the one-player game."""
        return self.options.mode == SOLO
