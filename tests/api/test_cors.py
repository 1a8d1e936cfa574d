"""Browser clients on other sites: CORS for the origins in ALLOWED_ORIGINS, nothing for others."""

import app as app_module


def test_an_allowed_origin_gets_cors_headers_and_a_preflight(api, monkeypatch):
    monkeypatch.setattr(app_module.api, "allowed_origins", {"https://client.example"})
    origin = {"Origin": "https://client.example"}
    reply = api.get("/v1/khan/card-sets", headers=origin)
    assert reply.headers["access-control-allow-origin"] == "https://client.example"
    assert reply.headers["vary"] == "Origin"
    preflight = api.request("OPTIONS", "/v1/games/g_1/actions", headers={
        **origin, "Access-Control-Request-Method": "POST"})
    assert preflight.status == 204
    assert preflight.headers["access-control-allow-methods"] == "POST"
    assert "Idempotency-Key" in preflight.headers["access-control-allow-headers"]
    refused = api.post("/v1/players", {"name": "x" * 100}, headers=origin)  # errors carry them too
    assert refused.status == 422 and refused.headers["access-control-allow-origin"] == "https://client.example"


def test_other_origins_get_no_cors_headers(api, monkeypatch):
    monkeypatch.setattr(app_module.api, "allowed_origins", {"https://client.example"})
    reply = api.get("/v1/khan/card-sets", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in reply.headers
    preflight = api.request("OPTIONS", "/v1/players", headers={"Origin": "https://evil.example"})
    assert preflight.status == 204 and "access-control-allow-methods" not in preflight.headers


def test_no_origins_are_allowed_by_default(api):
    reply = api.get("/v1/khan/card-sets", headers={"Origin": "https://client.example"})
    assert "access-control-allow-origin" not in reply.headers
