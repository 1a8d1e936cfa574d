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
    """schemathesis' allowance for schema-valid requests refused (devtools/fuzz.py): only rules no
    schema can state, a problem code each, with the rule behind it; the statuses given to
    positive_data_acceptance are those codes' and no other."""
    from chalicelib.kernel.errors import ERRORS
    from devtools import fuzz

    assert set(fuzz.POSITIVE_DATA_REFUSALS) <= set(ERRORS)
    assert all(len(why.split()) >= 5 for why in fuzz.POSITIVE_DATA_REFUSALS.values())
    assert "bot_policy" in fuzz.POSITIVE_DATA_REFUSALS["not_a_bot"]
    # Refusals of what a schema states are not allowed: the shape of the request is openapi.yaml's.
    assert not {"invalid_request", "invalid_json", "bad_request", "unknown_game_type"} & set(fuzz.POSITIVE_DATA_REFUSALS)
    assert set(fuzz.refusal_statuses()) == {str(ERRORS[code].status) for code in fuzz.POSITIVE_DATA_REFUSALS}
    assert "positive_data_refused_only_by_listed_rules" in fuzz.CHECKS


def test_item5_recovery_is_one_of_its_two_ways():
    recovery = SPEC["components"]["schemas"]["RecoverAccountRequest"]
    ways = [SPEC["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]] for ref in recovery["oneOf"]]
    assert [way["required"] for way in ways] == [["email"], ["player_id", "recovery_code"]]
    assert all(way["unevaluatedProperties"] is False for way in ways)
    # No property typed null alone: OpenAPI Generator 7 cannot take one (getPydanticType).
    assert all(prop.get("type") != "null" for way in ways for prop in way["properties"].values())


def test_item5_options_are_those_of_the_game_named_beside_them():
    schemas = SPEC["components"]["schemas"]
    for name in ("CreateGameRequest", "CreateTournamentRequest", "CreateLadderRequest"):
        body = schemas[name]
        assert body["discriminator"]["propertyName"] == "game"
        for game, ref in body["discriminator"]["mapping"].items():
            variant = schemas[ref.rsplit("/", 1)[1]]
            assert variant["properties"]["game"]["enum"] == [game]
            options = variant["properties"]["options"]["$ref"].rsplit("/", 1)[1]
            assert options == {"battleline": "BattleLineOptions", "khan": "KhanOptions"}[game]


def test_item5_the_model_rules_allowed_are_recognised_in_the_request():
    """invalid_request for a schema-valid body is allowed only for the rules devtools/fuzz.py lists
    (POSITIVE_DATA_MODEL_RULES), recognised in the body itself."""
    from devtools import fuzz

    assert fuzz.model_rules_broken({"days": 360.0}) == ["integral_number"]
    assert fuzz.model_rules_broken({"time_zone": "0"}) == ["time_zone"]
    assert fuzz.model_rules_broken({"days": 360, "time_zone": "Europe/Paris"}) == []
    assert set(fuzz.POSITIVE_DATA_MODEL_RULES) == {"integral_number", "time_zone"}


def test_item5_a_webhook_url_holds_no_control_character():
    url = SPEC["components"]["schemas"]["CreateWebhookRequest"]["properties"]["url"]
    assert re.match(url["pattern"], "https://example.com/hook")
    assert not re.match(url["pattern"], "https://example.com/\x1bhook")
