"""The webhook contract as a client author reads it: every body the server sends to a webhook
endpoint must match openapi.yaml's ``webhooks`` schema for its type, with no field the document
does not name (a generated client cannot read a field its schema lacks). ``problems`` says what
does not match; tests/conftest.py checks every webhook delivery the suite makes with it."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator

OPENAPI = Path(__file__).resolve().parents[1] / "openapi.yaml"


def _closed(schema: Any) -> Any:
    """The schema with every object that lists its properties closed to others."""
    if isinstance(schema, dict):
        schema = {key: _closed(value) for key, value in schema.items()}
        if "properties" in schema and "additionalProperties" not in schema:
            schema["additionalProperties"] = False
        return schema
    if isinstance(schema, list):
        return [_closed(item) for item in schema]
    return schema


@cache
def _validators() -> dict[str, Draft202012Validator]:
    document = yaml.safe_load(OPENAPI.read_text())
    components = _closed(copy.deepcopy(document["components"]))
    found = {}
    for kind, operations in document["webhooks"].items():
        body = operations["post"]["requestBody"]["content"]["application/json"]["schema"]
        found[kind] = Draft202012Validator({**body, "components": components})
    return found


def problems(body: str | bytes) -> list[str]:
    """What in a webhook body openapi.yaml does not document (none: it matches)."""
    payload = json.loads(body)
    validator = _validators().get(payload.get("type"))
    if validator is None:
        return [f"{payload.get('type')!r} is not among openapi.yaml's webhooks"]
    return [f"{payload['type']} at {'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
            for error in validator.iter_errors(payload)]
