"""Reading a game's options: its own frozen attrs class, plus ``profile`` for data tables."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import cattrs

from reference.core.catalogue import Catalogue, load_catalogue
from reference.core.datafile import DataSet, load_data_dir
from reference.core.errors import BadOptions

T = TypeVar("T")

_converter = cattrs.Converter(forbid_extra_keys=True)


def read_options(options: Mapping[str, Any], cls: type[T]) -> tuple[T, dict[str, Any]]:
    """Split ``options`` into the game's options object and its data profile.

    Unknown option names and mistyped values raise BadOptions naming them.
    """
    rest = dict(options)
    profile = rest.pop("profile", None) or {}
    if not isinstance(profile, dict):
        raise BadOptions("options.profile must be a mapping from data keys to values")
    for key in profile:
        if not isinstance(key, str):
            raise BadOptions(f"options.profile: key {key!r} is not a data key (text)")
    try:
        parsed = _converter.structure(rest, cls)
    except cattrs.BaseValidationError as exc:
        raise BadOptions("bad options: " + "; ".join(cattrs.transform_error(exc))) from exc
    except (TypeError, ValueError) as exc:
        raise BadOptions(f"bad options: {exc}") from exc
    return parsed, profile


def load_rules_and_data(package_dir: Path, profile: Mapping[str, Any]) -> tuple[Catalogue, DataSet]:
    """The catalogue and data tables in ``package_dir/data``, with the profile applied."""
    catalogue = load_catalogue(package_dir / "data" / "rules.yaml")
    data = load_data_dir(package_dir / "data")
    if profile:
        data = data.with_profile(profile, "options.profile")
    return catalogue, data
