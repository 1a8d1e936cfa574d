"""The webhooks a client author codes against: openapi.yaml's `webhooks` describe every body the
server posts, field for field. tests/conftest.py already refuses any delivery with a field the
document does not name; here one player's life makes every kind of webhook with every field it
can carry, so each documented field is also one the server really sends (a schema that promises
a field nobody sends misleads as much as one that hides a field)."""

from __future__ import annotations

import json

import yaml

from tests.openapi_contract import OPENAPI, webhook_problems

# (world: the API on a fake clock with its webhook posts kept, test_ladders.py's fixture)
from .test_ladders import DAY, challenged, joined, make_ladder, resign, settle, signup, world  # noqa: F401


def hooked(api, *players):
    for player in players:
        reply = api.post("/v1/webhooks", {"url": "http://127.0.0.1:9/hook"}, key=player["api_key"])
        assert reply.status == 201, reply.body


def new_game(api, creator, *seated, first_seat=1, **extra):
    reply = api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": p["id"]} for p in seated],
                                   "options": {"first_seat": first_seat, **extra}}, key=creator["api_key"])
    assert reply.status == 201, reply.body
    return reply.body["game_id"]


def documented_fields() -> dict[str, set[str]]:
    """Each webhook type's `data` fields, as openapi.yaml names them."""
    document = yaml.safe_load(OPENAPI.read_text())
    schemas = document["components"]["schemas"]
    fields = {}
    for kind, operations in document["webhooks"].items():
        envelope = operations["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        data = schemas[envelope.rsplit("/", 1)[1]]["properties"]["data"]["$ref"]
        fields[kind] = set(schemas[data.rsplit("/", 1)[1]]["properties"])
    return fields


def test_every_webhook_field_openapi_documents_is_one_the_server_sends_and_no_other(world, monkeypatch):  # noqa: F811
    monkeypatch.setenv("ALLOW_PRIVATE_WEBHOOKS", "1")  # the posts are caught before they leave (world.posts)
    ann, bob, cat = signup(world, "Ann"), signup(world, "Bob"), signup(world, "Cat")
    hooked(world, ann, bob, cat)
    assert world.request("PUT", "/v1/players/me/preferences", {"challenges": "accept"}, key=cat["api_key"]).status == 200

    # Bob is asked (consent), accepts, and that begins the game (started); Ann resigns it (finished).
    asked = new_game(world, ann, ann, bob)
    assert world.post(f"/v1/games/{asked}/accept", key=bob["api_key"]).status == 200
    settle(world)
    resign(world, ann, asked)
    # Cat accepts challenges in advance: her game begins at once, on her move (your_move; a version-0
    # your_turn says who made it); with a clock, her time runs low (reminder).
    on_her_move = new_game(world, ann, ann, cat, first_seat=2, time_control={"per_move_days": 2})
    settle(world)
    world.clock.advance(DAY + 13 * DAY / 24)
    assert world.services.clocks.sweep_clocks()["reminders"] >= 1
    # A tournament's games name it; a ladder challenge names its ladder, and its refusal moves the ranks.
    t = world.post("/v1/tournaments", {"name": "Cup", "game": "battleline", "format": "round_robin"},
                   key=ann["api_key"]).body
    for player in (ann, bob):
        assert world.post(f"/v1/tournaments/{t['id']}/join", key=player["api_key"]).status == 200
    assert world.post(f"/v1/tournaments/{t['id']}/start", key=ann["api_key"]).status == 200
    ladder_id = make_ladder(world, ann)
    dan, eve = joined(world, ladder_id, "Dan", "Eve")
    hooked(world, dan, eve)
    declined = challenged(world, ladder_id, eve, dan)
    settle(world)
    assert world.post(f"/v1/games/{declined}/decline", key=dan["api_key"]).status == 200
    settle(world)

    assert [problem for body in world.posts for problem in webhook_problems(json.dumps(body))] == []
    sent: dict[str, set[str]] = {}
    for body in world.posts:
        sent.setdefault(body["type"], set()).update(body["data"])
    assert sent == documented_fields()
    told = {}
    for body in world.posts:  # each kind's first post to a seat of a game
        told.setdefault((body["type"], body["data"]["game_id"], body["data"]["seat"]), body["data"])
    assert told["game.invited", asked, 2]["consent"] is True
    assert told["game.invited", on_her_move, 2]["consent"] is False and told["game.invited", on_her_move, 2]["your_move"]
    assert told["game.your_turn", on_her_move, 2]["created_by"] == ann["id"]
    assert told["game.action", asked, 1]["started"] is True
    assert told["game.finished", declined, 1]["result"] == {"winner": None, "reason": "declined", "seat": 1}

