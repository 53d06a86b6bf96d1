"""The rule catalogue: every rule an engine enforces, with its sources and status.

One YAML file per game (``reference/<game>/data/rules.yaml``)::

    game: pillars
    rules:
      - id: PIL-MARKET-04
        title: Metal is never bought
        statement: At the market a player may sell metal for 5 gold but never buy it.
        status: rulebook            # rulebook | seed | secondary | ruling | placeholder
        sources:
          - {ref: "RB p.7", note: "market table"}
        data: [market.metal_sell_price]     # data keys the rule rests on (optional)
        dispute:                            # optional
          claims:
            - {source: "seed 000", claim: "stone costs 3"}
            - {source: "RB p.7", claim: "stone costs 4"}
          resolution: "Follow the rulebook: 4."
          option: null                      # option name where players really differ
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import attrs
import cattrs
import yaml

from reference.core import yamlfile
from reference.core.errors import BadOptions

Status = Literal["rulebook", "seed", "secondary", "ruling", "placeholder"]
STATUSES: tuple[str, ...] = ("rulebook", "seed", "secondary", "ruling", "placeholder")


@attrs.frozen
class Source:
    """Where a rule comes from: a rulebook page, a seed file, a public page."""

    ref: str
    note: str = ""


@attrs.frozen
class Claim:
    """One source's position on a disputed point."""

    source: str
    claim: str


@attrs.frozen
class Dispute:
    """Sources disagree: each claim, our resolution, and the option if players differ."""

    claims: tuple[Claim, ...]
    resolution: str
    option: str | None = None


@attrs.frozen
class Rule:
    """One catalogue entry."""

    id: str
    title: str
    statement: str
    status: Status
    sources: tuple[Source, ...]
    data: tuple[str, ...] = ()
    dispute: Dispute | None = None


@attrs.frozen
class Catalogue:
    """All rules of one game, by id."""

    game: str
    rules: tuple[Rule, ...]

    def get(self, rule_id: str) -> Rule | None:
        """The rule with this id, or None."""
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        return None

    def ids(self) -> tuple[str, ...]:
        """Every rule id, in catalogue order."""
        return tuple(rule.id for rule in self.rules)


_converter = cattrs.Converter(forbid_extra_keys=True)


def load_catalogue(path: Path) -> Catalogue:
    """Read and check a catalogue file; a broken file raises BadOptions naming it."""
    try:
        raw = yamlfile.load(path.read_text(encoding="utf-8"))
        catalogue = _converter.structure(raw, Catalogue)
    except (OSError, yaml.YAMLError, cattrs.BaseValidationError) as exc:
        raise BadOptions(f"{path}: not a valid rule catalogue: {_one_line(exc)}") from exc
    seen: set[str] = set()
    for rule in catalogue.rules:
        if rule.id in seen:
            raise BadOptions(f"{path}: rule id {rule.id} appears twice")
        seen.add(rule.id)
        if not rule.sources:
            raise BadOptions(f"{path}: rule {rule.id} has no source")
    return catalogue


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, cattrs.BaseValidationError):
        return "; ".join(cattrs.transform_error(exc))
    return " ".join(str(exc).split())
