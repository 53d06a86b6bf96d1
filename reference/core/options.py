"""Reading a game's options: its own frozen attrs class, plus ``profile`` for data tables."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import attrs
import cattrs

from reference.core.catalogue import Catalogue, load_catalogue
from reference.core.datafile import DataSet, load_data_dir
from reference.core.errors import BadOptions

T = TypeVar("T")

_converter = cattrs.Converter(forbid_extra_keys=True)


def _strict(kind: type[Any]) -> Any:
    """An option value is taken as given: ``"yes"`` is not a flag, ``1`` not text."""

    def structure(value: Any, _: Any) -> Any:
        if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__} {value!r}")
        return value

    return structure


for _kind in (bool, int, str):
    _converter.register_structure_hook(_kind, _strict(_kind))


def _problem(exc: BaseException, type_: Any) -> str:
    """One option's problem: a validator's own words name the option and its choices."""
    if isinstance(exc, (TypeError, ValueError)) and not isinstance(exc, cattrs.BaseValidationError):
        words = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
        return " ".join(words.split())
    return cattrs.v.format_exception(exc, type_)


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
        known = ", ".join(f.name for f in attrs.fields(cls))  # type: ignore[arg-type]
        problems = "; ".join(
            text.removesuffix(" @ $")
            for text in cattrs.transform_error(exc, format_exception=_problem)
        )
        raise BadOptions(f"bad options: {problems} (options: {known}, profile)") from exc
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


def option_values(options: object, name: str) -> tuple[Any, ...]:
    """The values option ``name`` of a game's options object takes, the default first
    (``("event", "cathedral")``; a flag gives ``(False, True)`` in its default's order);
    empty when the object has no such option or its values are not a fixed list."""
    cls = type(options)
    if not attrs.has(cls):
        return ()
    field = attrs.fields_dict(cls).get(name)
    if field is None:
        return ()
    default = field.default
    if isinstance(default, bool):
        return (default, not default)
    choices = getattr(field.validator, "options", None)
    if not isinstance(choices, (tuple, list, frozenset, set)):
        return ()
    values = list(choices)
    return tuple(sorted(values, key=lambda v: (v != default, values.index(v))))
