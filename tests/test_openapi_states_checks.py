"""openapi.yaml states what the server checks, where a schema can say it (issue 37, item 5)."""

from __future__ import annotations

import re

import yaml

from devtools.dynamodb_local import ROOT
from devtools.openapi import TOKEN_PATTERN

SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text())


def test_item5_find_players_requires_a_name():
    params = {p.get("name"): p for p in SPEC["paths"]["/v1/players"]["get"]["parameters"]}
    assert params["name"]["required"] is True
    assert params["limit"]["required"] is False


def test_item5_a_link_token_has_the_shape_of_the_tokens_the_server_makes():
    from itsdangerous import URLSafeTimedSerializer

    tokens = [p["schema"] for path, ops in SPEC["paths"].items() if "{token}" in path for op in ops.values()
              for p in op["parameters"] if p.get("name") == "token"]
    assert tokens and all(schema["pattern"] == TOKEN_PATTERN for schema in tokens)
    serializer = URLSafeTimedSerializer("secret", salt="steps")
    for payload in ("short", {"game": "g" * 300, "steps": [{"type": "play", "card": "R1", "flag": 3}] * 10}):
        assert re.match(TOKEN_PATTERN, serializer.dumps(payload))  # compressed payloads start with "."
    assert not re.match(TOKEN_PATTERN, "not a token")


def test_item5_every_refusal_allowed_to_schema_valid_requests_says_why():
    """schemathesis' positive_data_acceptance allowance (devtools/fuzz.py): only rules no schema can
    state, each status with the rules behind it."""
    from devtools import fuzz

    assert set(fuzz.POSITIVE_DATA_STATUSES) - {"2xx", "3xx", "5xx"} == set(fuzz.POSITIVE_DATA_REFUSALS)
    assert all(len(why.split()) >= 5 for why in fuzz.POSITIVE_DATA_REFUSALS.values())
    assert "bot_policy" in fuzz.POSITIVE_DATA_REFUSALS["422"]
