"""Checking JSON against the shipped schemas (docs/schemas/), with the jsonschema package."""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema
import referencing

import rules_oracle


@cache
def _registry() -> referencing.Registry[Any]:
    resources = [
        referencing.Resource.from_contents(rules_oracle.schema(name))
        for name in rules_oracle.SCHEMAS
    ]
    return referencing.Registry().with_resources(
        (resource.id() or "", resource) for resource in resources
    )


@cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    """A draft 2020-12 validator of the schema ``name``, resolving the others by $id."""
    schema = rules_oracle.schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, registry=_registry())


def problems(name: str, instance: Any) -> list[str]:
    """Every way ``instance`` breaks the schema ``name`` (empty when it fits)."""
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
        for e in validator(name).iter_errors(instance)
    ]
