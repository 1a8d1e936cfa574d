"""DynamoDB Local stopped mid-game and started again: 503s with Retry-After in seconds while
it is down, and the game goes on afterwards with exactly the accepted moves."""

from __future__ import annotations

import time

import pytest
from chalice.test import Client

import app as app_module
from chalicelib import config
from chalicelib.notify.dispatcher import Outlets
from chalicelib.config import build_services
from chalicelib.store.dynamodb import DynamoStore
from devtools.dynamodb_local import DynamoDBLocal

from ..conftest import LINKS, ApiClient, fresh_table

pytestmark = pytest.mark.integration


def next_step(api: ApiClient, players: dict, game_id: str) -> tuple[dict, dict, int]:
    """The player to move, their first legal step (not a resignation) and the game's version."""
    view = api.view(players[1], game_id)
    mover = players[view["to_move"]]
    view = api.view(mover, game_id)
    return mover, next(s for s in view["legal_steps"] if s["type"] != "resign"), view["version"]


def events(api: ApiClient, player: dict, game_id: str) -> list[dict]:
    reply = api.get(f"/v1/games/{game_id}/events", key=player["api_key"])
    assert reply.status == 200, reply.body
    return reply.body["events"]


def assert_unavailable_in_seconds(request) -> None:
    began = time.monotonic()
    reply = request()
    assert time.monotonic() - began < 10  # bounded retries and timeouts, not botocore's 60 s
    assert reply.status == 503 and reply.headers["content-type"] == "application/problem+json", reply.body
    assert reply.body["code"] == "service_unavailable" and int(reply.headers["retry-after"]) >= 1


def test_store_down_answers_503_with_retry_after_and_the_game_goes_on_after_restart(tmp_path, monkeypatch):
    data = tmp_path / "dynamodb"  # on disk, so the table outlives the restart
    ddb = DynamoDBLocal(db_path=data).start()
    try:
        monkeypatch.setenv("DYNAMODB_ENDPOINT", ddb.endpoint)
        client = config.dynamodb_client()  # the server's own client: its timeouts and retries
        store = DynamoStore(client, fresh_table(client))
        services = build_services(store, outlets=Outlets(links=LINKS))
        monkeypatch.setattr(app_module.api, "services", lambda: services)
        with Client(app_module.app) as http:
            api = ApiClient(http)
            ann, bob = api.signup("Ann"), api.signup("Bob")
            game_id = api.new_game(ann, [ann, bob], options={"first_seat": 1})["game_id"]
            players = {1: ann, 2: bob}
            for _ in range(4):
                mover, step, version = next_step(api, players, game_id)
                assert api.act(mover, game_id, version, step).status == 200
            mover, step, version = next_step(api, players, game_id)
            accepted = events(api, mover, game_id)

            ddb.stop()
            key = {"Idempotency-Key": "after-the-outage"}
            assert_unavailable_in_seconds(lambda: api.act(mover, game_id, version, step, headers=key))
            assert_unavailable_in_seconds(lambda: api.get(f"/v1/games/{game_id}", key=ann["api_key"]))

            ddb = DynamoDBLocal(port=ddb.port, db_path=data).start()
            assert api.view(ann, game_id)["version"] == version  # the refused move was not applied
            assert events(api, mover, game_id) == accepted  # nothing half-written
            reply = api.act(mover, game_id, version, step, headers=key)  # the game goes on, from there
            assert reply.status == 200 and reply.body["version"] == version + 1
            assert "idempotent-replayed" not in reply.headers and reply.body["events"]
            assert events(api, mover, game_id) == accepted + reply.body["events"]
    finally:
        ddb.stop()
