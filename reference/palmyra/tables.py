"""The data tables Palmyra reads, checked for shape when the game is made."""

from __future__ import annotations

from typing import Any

import attrs

from reference.core.datafile import DataSet
from reference.core.errors import BadOptions
from reference.palmyra.lattice import cell_name, kind_of, parse_cell
from reference.palmyra.options import ADVANCED, SOLO, PalmyraOptions
from reference.palmyra.tiles import TILES


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
    bank_total: int
    landscape_reward: int
    icon_reward: int
    max_tiles: int
    max_tiles_with_icon: int
    emperor_price: int
    emperor_tax_bonus: int
    emperor_conquer_bonus: int
    solo_drain: int
    solo_target: int


def _int(data: DataSet, key: str, low: int = 0) -> int:
    value = data.value(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise BadOptions(f"data {key}: expected a whole number >= {low}, got {value!r}")
    return value


def _mix(data: DataSet) -> dict[str, int]:
    raw = data.value("tiles.mix")
    if not isinstance(raw, dict):
        raise BadOptions("data tiles.mix: expected a mapping from tile code to count")
    mix: dict[str, int] = {}
    for code, count in raw.items():
        if code not in TILES:
            known = ", ".join(TILES)
            raise BadOptions(f"data tiles.mix: {code!r} is no tile code (codes: {known})")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise BadOptions(f"data tiles.mix: count of {code} must be a whole number >= 0")
        if count:
            mix[code] = count
    return mix


def _layouts(data: DataSet) -> dict[int, tuple[str, ...]]:
    raw = data.value("city.layouts")
    if not isinstance(raw, dict):
        raise BadOptions("data city.layouts: expected a mapping from player count to cells")
    layouts: dict[int, tuple[str, ...]] = {}
    for key, cells in raw.items():
        try:
            count = int(key)
        except (TypeError, ValueError):
            raise BadOptions(f"data city.layouts: key {key!r} is no player count") from None
        if not isinstance(cells, list) or not cells:
            raise BadOptions(f"data city.layouts.{key}: expected a non-empty list of cells")
        names: list[str] = []
        for cell in cells:
            xy = parse_cell(str(cell))
            if xy is None:
                raise BadOptions(f"data city.layouts.{key}: {cell!r} is not a cell 'x,y'")
            names.append(cell_name(*xy))
        if len(set(names)) != len(names):
            raise BadOptions(f"data city.layouts.{key}: a cell appears twice")
        layouts[count] = tuple(names)
    for count in (2, 3, 4, 5):
        if count not in layouts:
            raise BadOptions(f"data city.layouts: no layout for {count} players")
    return layouts


def _kits(data: DataSet) -> tuple[Kit, ...]:
    raw = data.value("setup.kits")
    if not isinstance(raw, list) or len(raw) < 5:
        raise BadOptions("data setup.kits: expected a list of 5 seats {large, small, coins}")
    kits: list[Kit] = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or set(item) != {"large", "small", "coins"}:
            raise BadOptions(f"data setup.kits[{i}]: expected keys large, small, coins")
        values = [item["large"], item["small"], item["coins"]]
        if any(not isinstance(x, int) or isinstance(x, bool) or x < 0 for x in values):
            raise BadOptions(f"data setup.kits[{i}]: counts must be whole numbers >= 0")
        kits.append(Kit(*values))
    return tuple(kits)


def _denominations(data: DataSet) -> None:
    raw: Any = data.value("bank.denominations")
    if not isinstance(raw, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in raw
    ):
        raise BadOptions("data bank.denominations: expected a list of coin values > 0")


def read_tables(data: DataSet) -> Tables:
    """Check every value's shape and collect them; a bad value raises BadOptions."""
    _denominations(data)
    tables = Tables(
        mix=_mix(data),
        city_layouts=_layouts(data),
        kits=_kits(data),
        advanced_extra_coins=_int(data, "setup.advanced_extra_coins"),
        solo_kit_seat=_int(data, "solo.kit_seat", 1),
        bank_total=_int(data, "bank.total"),
        landscape_reward=_int(data, "actions.landscape_match"),
        icon_reward=_int(data, "actions.icon_match"),
        max_tiles=_int(data, "actions.max_tiles", 1),
        max_tiles_with_icon=_int(data, "actions.max_tiles_with_icon", 1),
        emperor_price=_int(data, "emperor.price"),
        emperor_tax_bonus=_int(data, "emperor.tax_bonus"),
        emperor_conquer_bonus=_int(data, "emperor.conquer_bonus"),
        solo_drain=_int(data, "solo.drain_per_turn"),
        solo_target=_int(data, "solo.target"),
    )
    if tables.solo_kit_seat > len(tables.kits):
        raise BadOptions("data solo.kit_seat: there is no such seat in setup.kits")
    for count, cells in tables.city_layouts.items():
        if any(kind_of(c) == "" for c in cells):
            raise BadOptions(f"data city.layouts.{count}: bad cell")
    return tables


@attrs.frozen
class Config:
    """A rule set's fixed parts: the tables and the options, handed to every rule."""

    tables: Tables
    options: PalmyraOptions

    @property
    def advanced(self) -> bool:
        """Whether the emperor is in play."""
        return self.options.mode == ADVANCED

    @property
    def solo(self) -> bool:
        """Whether this is the one-player game."""
        return self.options.mode == SOLO
