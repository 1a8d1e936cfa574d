"""Rate limits: 429 problem+json with Retry-After once a key (or, for sign-up, an address) has used
its bucket; the bucket refills with time (an injected clock)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from chalice.test import Client

import app as app_module
from chalicelib.config import build_services
from chalicelib.notify.dispatcher import Outlets
from chalicelib.http.ratelimit import Rate

from ..conftest import LINKS, ApiClient
from ..fakes import FakeClock
from .test_contract import problem_of


@pytest.fixture
def clock():
    return FakeClock(datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc))


@pytest.fixture
def api(store, clock, monkeypatch):
    services = build_services(store, clock=clock, outlets=Outlets(links=LINKS),
                              rates={"key": Rate(5, 10), "signup": Rate(3, 60)})
    monkeypatch.setattr(app_module.api, "services", lambda: services)
    with Client(app_module.app) as client:
        yield ApiClient(client, store)


def test_a_key_gets_429_with_retry_after_and_may_go_on_when_its_bucket_refills(api, clock):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    for _ in range(5):
        assert api.get("/v1/players/me", key=ann["api_key"]).status == 200
    refused = api.get("/v1/games", key=ann["api_key"])
    problem_of(refused, 429, "rate_limited")
    assert refused.headers["retry-after"] == "2"  # 5 requests in 10 s: a token every 2 s
    assert api.get("/v1/players/me", key=bob["api_key"]).status == 200  # another key has its own bucket
    clock.advance(timedelta(seconds=2))
    assert api.get("/v1/players/me", key=ann["api_key"]).status == 200
    problem_of(api.get("/v1/players/me", key=ann["api_key"]), 429, "rate_limited")
    clock.advance(timedelta(seconds=10))
    for _ in range(5):  # full again, no more than full
        assert api.get("/v1/players/me", key=ann["api_key"]).status == 200
    problem_of(api.get("/v1/players/me", key=ann["api_key"]), 429, "rate_limited")


def test_sign_ups_are_limited_per_address(api, clock):
    for name in ("Ann", "Bob", "Cid"):  # 3 an hour... then one every 20 s
        api.signup(name)
    refused = api.post("/v1/players", {"name": "Dan"})
    problem_of(refused, 429, "rate_limited")
    assert refused.headers["retry-after"] == "20"
    clock.advance(timedelta(seconds=20))
    assert api.post("/v1/players", {"name": "Dan"}).status == 201


def test_a_request_refused_for_its_key_costs_nothing_and_an_unknown_key_is_401(api):
    problem_of(api.get("/v1/players/me", key="bl_live_nobody"), 401, "unauthorized")
    ann = api.signup("Ann")
    for _ in range(5):
        assert api.get("/v1/players/me", key=ann["api_key"]).status == 200
    problem_of(api.get("/v1/players/me", key=ann["api_key"]), 429, "rate_limited")
