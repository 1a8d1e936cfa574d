"""API keys: rotation (the old key works until the new one is first used, 24 hours at most) and
revocation (at once), keys never stored or logged in clear."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

import pytest


from ..conftest import api_on
from ..fakes import FakeClock
from .test_contract import problem_of


@pytest.fixture
def clock():
    return FakeClock(datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc))


@pytest.fixture
def api(store, clock, monkeypatch):
    yield from api_on(store, clock, monkeypatch)


def me(api, key):
    return api.get("/v1/players/me", key=key)


def rotate(api, key):
    reply = api.post("/v1/players/me/api-key", key=key)
    assert reply.status == 201, reply.body
    return reply.body


def test_the_old_key_works_until_the_new_one_is_first_used(api):
    ann = api.signup("Ann")
    old = ann["api_key"]
    rotated = rotate(api, old)
    new = rotated["api_key"]
    assert new != old and new.startswith("bl_live_")
    assert rotated["previous_key_expires_at"] == "2026-03-02T09:00:00.000Z"
    assert me(api, old).status == 200  # still, and again: the new one is not used yet
    assert me(api, old).status == 200
    assert me(api, new).body["id"] == ann["id"]
    problem_of(me(api, old), 401, "unauthorized")
    assert me(api, new).status == 200


def test_a_rotation_retried_with_the_old_key_cannot_lock_the_player_out(api):
    ann = api.signup("Ann")
    lost = rotate(api, ann["api_key"])["api_key"]  # its answer never reached the client
    kept = rotate(api, ann["api_key"])["api_key"]
    assert me(api, kept).status == 200
    problem_of(me(api, ann["api_key"]), 401, "unauthorized")
    problem_of(me(api, lost), 401, "unauthorized")  # a key nobody saw ends with the others
    assert me(api, kept).status == 200


def test_after_24_hours_the_old_key_stops_even_if_the_new_one_was_never_used(api, clock):
    ann = api.signup("Ann")
    new = rotate(api, ann["api_key"])["api_key"]
    clock.advance(timedelta(hours=23, minutes=59))
    assert me(api, ann["api_key"]).status == 200
    clock.advance(timedelta(minutes=1))
    problem_of(me(api, ann["api_key"]), 401, "unauthorized")
    assert me(api, new).status == 200


def test_a_second_rotation_does_not_extend_the_first_ones_24_hours(api, clock):
    ann = api.signup("Ann")
    rotate(api, ann["api_key"])
    clock.advance(timedelta(hours=20))
    rotate(api, ann["api_key"])
    clock.advance(timedelta(hours=4))
    problem_of(me(api, ann["api_key"]), 401, "unauthorized")


def test_revoking_stops_the_key_at_once(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    pending = rotate(api, ann["api_key"])["api_key"]
    reply = api.request("DELETE", "/v1/players/me/api-key", key=ann["api_key"])
    assert reply.status == 204
    problem_of(me(api, ann["api_key"]), 401, "unauthorized")
    problem_of(me(api, pending), 401, "unauthorized")
    problem_of(api.post("/v1/players/me/api-key", key=ann["api_key"]), 401, "unauthorized")
    assert me(api, bob["api_key"]).status == 200  # nobody else's
    public = api.get(f"/v1/players/{ann['id']}", key=bob["api_key"])
    assert public.status == 200 and public.body["name"] == "Ann"  # the player remains


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_keys_are_never_stored_or_logged_in_clear(api, store, caplog):
    caplog.set_level(logging.DEBUG)
    ann = api.signup("Ann")
    new = rotate(api, ann["api_key"])["api_key"]
    assert me(api, new).status == 200
    newer = rotate(api, new)["api_key"]
    stored = str(store.client.scan(TableName=store.table)["Items"])
    for key in (ann["api_key"], new, newer):
        assert key not in stored
        assert key.removeprefix("bl_live_") not in stored
        assert key.removeprefix("bl_live_") not in caplog.text
