"""The contract as a client author reads it: openapi.yaml. Every body the server sends to a webhook
endpoint must match the ``webhooks`` schema of its type, and every answer an operation gives must be
a status the operation documents, with a body matching that status's schema; in both, with no field
the document does not name (a generated client cannot read a field its schema lacks) and, for a
problem, one of the codes the operation lists. tests/conftest.py checks every webhook delivery and
every API answer the suite makes with these (a test that fakes a fault the API cannot document is
marked ``undocumented_answer``)."""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import fastjsonschema
import yaml

OPENAPI = Path(__file__).resolve().parents[1] / "openapi.yaml"
METHODS = ("get", "put", "post", "delete", "patch")


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
def _document() -> tuple[dict, dict]:
    document = yaml.load(OPENAPI.read_text(), Loader=yaml.CSafeLoader)
    components = _closed(copy.deepcopy(document["components"]))
    # A problem is open to extensions for clients (RFC 9457), but the server sends none that Problem does
    # not name (docs/clients.md): checked closed, like every other answer.
    components["schemas"]["Problem"]["additionalProperties"] = False
    return document, components


@cache
def _validator(schema_json: str):
    """The schema compiled to Python (fastjsonschema: a test suite's thousands of answers in seconds, where
    a generic validator takes minutes), its references resolved in openapi.yaml's components; defaults
    are never written into the body."""
    return fastjsonschema.compile({**json.loads(schema_json), "components": _document()[1]}, use_default=False)


def _errors(schema: dict, payload: Any, where: str) -> list[str]:
    try:
        _validator(json.dumps(schema, sort_keys=True))(payload)
    except fastjsonschema.JsonSchemaValueException as error:
        return [f"{where}: {error.message[:400]}"]
    return []


def webhook_problems(body: str | bytes) -> list[str]:
    """What in a webhook body openapi.yaml does not document (none: it matches)."""
    payload = json.loads(body)
    webhook = _document()[0]["webhooks"].get(payload.get("type"))
    if webhook is None:
        return [f"{payload.get('type')!r} is not among openapi.yaml's webhooks"]
    return _errors(webhook["post"]["requestBody"]["content"]["application/json"]["schema"], payload, payload["type"])


@cache
def _operations() -> list[tuple[re.Pattern, str, dict]]:
    found = []
    for path, operations in _document()[0]["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")
        found += [(pattern, method.upper(), operation) for method, operation in operations.items() if method in METHODS]
    # a literal path before a templated one of the same shape (/v1/players/me before /v1/players/{player_id})
    return sorted(found, key=lambda entry: entry[0].pattern.count("[^/]+"))


def answer_problems(method: str, path: str, status: int, content_type: str, body: Any) -> list[str]:
    """What in an API answer openapi.yaml does not document (none: it matches). A JSON body is
    checked against its status's schema; other media types by their name only."""
    if method.upper() == "OPTIONS":  # a CORS preflight, answered before any operation
        return []
    bare = path.split("?", 1)[0]
    operation = next((op for pattern, verb, op in _operations() if verb == method.upper() and pattern.match(bare)), None)
    if operation is None:
        return [] if status in (404, 405) else [f"{method} {bare}: no operation of openapi.yaml answers it ({status})"]
    name = operation["operationId"]
    if status == 304:  # not modified: no body
        return []
    response = operation["responses"].get(str(status)) or operation["responses"].get(f"{str(status)[0]}XX")
    if response is None:
        return [f"{name}: status {status} is not documented"]
    media = content_type.split(";", 1)[0].strip()
    content = response.get("content", {})
    if not content:
        return [] if body in (None, "", b"") else [f"{name} {status}: a body where none is documented"]
    if media not in content:
        return [f"{name} {status}: {media or 'no media type'} is not among {sorted(content)}"]
    schema = content[media].get("schema")
    if schema is None or not media.endswith("json") or isinstance(body, (str, bytes)):
        return []
    return _errors(schema, body, f"{name} {status}")
