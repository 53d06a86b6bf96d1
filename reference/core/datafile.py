"""Data tables (cards, prices, maps, thresholds) with a source and status on every value.

A game keeps its tables in ``reference/<game>/data/*.yaml`` (not ``rules.yaml``). Each
top-level key of a file is one entry; its full key is ``<file stem>.<key>``::

    # reference/pillars/data/market.yaml
    prices:
      value: {sand: 2, wood: 3, stone: 4}
      status: rulebook
      source: "RB p.7 market table"
      note: "seed 000 says stone costs 3; see PIL-MARKET-02"

A *profile* replaces values without touching code: a mapping from full keys to new
values, given as a YAML/JSON file (``--profile``) or as ``options.profile`` in a log
header or scenario. A replaced entry gets status ``profile``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import yaml

from reference.core import yamlfile
from reference.core.catalogue import STATUSES
from reference.core.errors import BadOptions


@attrs.frozen
class DataEntry:
    """One data value with where it comes from."""

    value: Any
    status: str
    source: str
    note: str = ""


@attrs.frozen
class DataSet:
    """A game's data tables in force, by full key."""

    entries: dict[str, DataEntry]

    def value(self, key: str) -> Any:
        """The value of ``key``; a missing key is a bug in the engine, not the user's."""
        return self.entries[key].value

    def placeholders(self) -> tuple[str, ...]:
        """Keys whose value in force nobody has confirmed."""
        return tuple(k for k, e in self.entries.items() if e.status == "placeholder")

    def with_profile(self, profile: Mapping[str, Any], origin: str) -> DataSet:
        """A copy with the profile's values in force; an unknown key raises BadOptions."""
        entries = dict(self.entries)
        for key, value in profile.items():
            if key not in entries:
                known = ", ".join(sorted(entries))
                raise BadOptions(f"profile {origin}: unknown data key {key!r} (known: {known})")
            entries[key] = DataEntry(value, "profile", origin, entries[key].source)
        return DataSet(entries)


def load_data_dir(folder: Path) -> DataSet:
    """Every table in ``folder`` except the rule catalogue."""
    entries: dict[str, DataEntry] = {}
    for path in sorted(folder.glob("*.yaml")):
        if path.name == "rules.yaml":
            continue
        try:
            raw = yamlfile.load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise BadOptions(
                f"{path}: cannot read data file: {' '.join(str(exc).split())}"
            ) from exc
        if not isinstance(raw, dict):
            raise BadOptions(f"{path}: a data file is a mapping of entries")
        for key, item in raw.items():
            full = f"{path.stem}.{key}"
            if not isinstance(item, dict) or not {"value", "status", "source"} <= set(item):
                raise BadOptions(f"{path}: entry {key!r} needs value, status and source")
            if item["status"] not in STATUSES:
                raise BadOptions(f"{path}: entry {key!r} has unknown status {item['status']!r}")
            extra = set(item) - {"value", "status", "source", "note"}
            if extra:
                raise BadOptions(f"{path}: entry {key!r} has unknown fields {sorted(extra)}")
            entries[full] = DataEntry(
                item["value"], item["status"], str(item["source"]), str(item.get("note", ""))
            )
    return DataSet(entries)


MAX_PROFILE_BYTES = 1_000_000
"""A larger profile file is refused before it is read."""


def load_profile_file(path: Path) -> dict[str, Any]:
    """A profile from a YAML or JSON file (JSON is YAML): a mapping of data keys to values.

    Anything wrong with the file (unreadable, too large, not UTF-8, not plain YAML, not a
    mapping of text keys) raises BadOptions naming the file.
    """
    try:
        if path.stat().st_size > MAX_PROFILE_BYTES:
            raise BadOptions(f"{path}: profile larger than {MAX_PROFILE_BYTES} bytes")
        raw = yamlfile.load(path.read_text(encoding="utf-8"))
    except IsADirectoryError as exc:
        raise BadOptions(f"{path}: a folder, not a profile file (YAML/JSON)") from exc
    except OSError as exc:
        raise BadOptions(f"{path}: cannot read profile: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise BadOptions(f"{path}: cannot read profile: not UTF-8 (byte {exc.start})") from exc
    except yaml.YAMLError as exc:
        raise BadOptions(f"{path}: cannot read profile: {' '.join(str(exc).split())}") from exc
    if not isinstance(raw, dict):
        raise BadOptions(f"{path}: a profile is a mapping from data keys to values")
    for key in raw:
        if not isinstance(key, str):
            raise BadOptions(f"{path}: profile key {key!r} is not a data key (text)")
    return dict(raw)
