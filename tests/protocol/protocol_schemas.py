"""The engine protocol's JSON Schemas (docs/schemas/protocol/), loaded for the tests."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schemas" / "protocol"
BASE = "urn:rules-oracle:protocol:v1:"
OPS = (
    "hello",
    "new_game",
    "apply",
    "to_act",
    "state",
    "legal",
    "result",
    "set_state",
    "next",
    "perft",
    "bye",
)


@cache
def registry() -> Registry[Any]:
    """Every schema file, by its $id."""
    resources = []
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


@cache
def validator(name: str) -> Draft202012Validator:
    """The validator of one schema, e.g. ``hello-request`` or ``response``."""
    schema = registry().contents(BASE + name)
    return Draft202012Validator(schema, registry=registry())


def problems(name: str, message: Any) -> list[str]:
    """Why ``message`` does not validate against schema ``name`` (empty when it does)."""
    return [error.message for error in validator(name).iter_errors(message)]
