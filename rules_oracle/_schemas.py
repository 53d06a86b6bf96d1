"""Ready validators for the shipped JSON Schemas (they refer to each other by ``urn:`` ids).

jsonschema (and its ``referencing``) is not needed by the rest of rules-oracle: it is
imported when a validator is first asked for (``pip install 'rules-oracle[schemas]'``).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import import_module
from typing import Any

from rules_oracle._check import SCHEMAS_DIR, schema

__all__ = ["schema_registry", "validator"]

MISSING = "needs the jsonschema package: pip install 'rules-oracle[schemas]'"


def _import(module: str, what: str) -> Any:
    """``module`` (jsonschema or its ``referencing``), or ModuleNotFoundError saying how to
    install it. (Typed as Any: jsonschema ships no type information.)"""
    try:
        return import_module(module)
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(f"rules_oracle.{what} {MISSING}", name=exc.name) from exc


@cache
def schema_registry() -> Any:
    """A ``referencing.Registry`` holding every schema shipped with rules-oracle (formats,
    reports, the engine protocol) by its ``urn:`` ``$id``, as jsonschema resolves ``$ref``s."""
    referencing = _import("referencing", "schema_registry()")
    resources = []
    for path in sorted(SCHEMAS_DIR.rglob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((str(contents["$id"]), referencing.Resource.from_contents(contents)))
    return referencing.Registry().with_resources(resources).crawl()


def validator(name: str) -> Any:
    """A draft 2020-12 validator of the schema ``name`` (one of ``SCHEMAS``) that resolves
    the other schemas it refers to: ``validator("log").validate(line)`` raises
    ``jsonschema.ValidationError``; ``iter_errors(line)`` gives every problem."""
    contents = schema(name)  # BadOptions for a name not in SCHEMAS
    jsonschema = _import("jsonschema", "validator()")
    return jsonschema.Draft202012Validator(contents, registry=schema_registry())
