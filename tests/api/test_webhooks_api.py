"""The webhook operations through the HTTP API."""

import pytest

from ..outbox import written
from .test_contract import problem_of


@pytest.fixture
def dev_mode(monkeypatch):
    monkeypatch.setenv("ALLOW_PRIVATE_WEBHOOKS", "1")


def test_create_list_rotate_delete(api, dev_mode):
    ann = api.signup("Ann")
    created = api.post("/v1/webhooks", {"url": "http://127.0.0.1:9/hook", "events": ["game.your_turn"]}, key=ann["api_key"])
    assert created.status == 201 and created.body["secret"].startswith("whsec_")
    hook_id = created.body["id"]
    listed = api.get("/v1/webhooks", key=ann["api_key"]).body["webhooks"]
    assert listed == [{k: created.body[k] for k in ("id", "url", "events", "disabled", "created_at")}]
    assert "secret" not in listed[0]
    rotated = api.post(f"/v1/webhooks/{hook_id}/rotate", key=ann["api_key"]).body
    assert rotated["secret"].startswith("whsec_") and rotated["secret"] != created.body["secret"]
    assert api.get(f"/v1/webhooks/{hook_id}/deliveries", key=ann["api_key"]).body == {"deliveries": [], "next_cursor": None}
    deleted = api.request("DELETE", f"/v1/webhooks/{hook_id}", key=ann["api_key"])
    assert deleted.status == 204 and deleted.body is None
    problem_of(api.request("DELETE", f"/v1/webhooks/{hook_id}", key=ann["api_key"]), 404, "webhook_not_found")


def test_webhooks_belong_to_their_player(api, dev_mode):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    hook_id = api.post("/v1/webhooks", {"url": "http://127.0.0.1:9/hook"}, key=ann["api_key"]).body["id"]
    assert api.get("/v1/webhooks", key=bob["api_key"]).body["webhooks"] == []
    problem_of(api.post(f"/v1/webhooks/{hook_id}/rotate", key=bob["api_key"]), 404, "webhook_not_found")
    problem_of(api.post(f"/v1/webhooks/{hook_id}/deliveries/msg_x/redeliver", key=ann["api_key"]), 404,
               "delivery_not_found")


@pytest.mark.parametrize("url", ["https://127.0.0.1/hook", "https://169.254.169.254/", "http://example.com/x",
                                 "https://[::1]/", "https://2130706433/", "https://example.com:22/hook",
                                 "https://example.com:0/hook", "https://[2002:a9fe:a9fe::1]/hook",
                                 "https://[64:ff9b::169.254.169.254]/hook", "https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/"])
def test_unsafe_urls_are_refused_at_registration(api, url, monkeypatch):
    monkeypatch.delenv("ALLOW_PRIVATE_WEBHOOKS", raising=False)
    monkeypatch.delenv("WEBHOOK_PORTS", raising=False)
    ann = api.signup("Ann")
    problem_of(api.post("/v1/webhooks", {"url": url}, key=ann["api_key"]), 422, "unsafe_webhook_url")


def test_unknown_event_types_are_refused(api, dev_mode):
    ann = api.signup("Ann")
    problem_of(api.post("/v1/webhooks", {"url": "http://127.0.0.1:9/h", "events": ["game.exploded"]},
                        key=ann["api_key"]), 422, "invalid_request")


def test_an_action_writes_its_messages_to_the_outbox_in_the_same_write(api, store):
    """A move writes only its version; the messages it implies come with it in the table's stream
    (the outbox), so the move and its notifications are written together or not at all."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    before = {m.id for m in written(store)}
    assert {m.type for m in written(store)} == {"game.invited", "game.your_turn"}
    step = {"type": "play", "card": game["state"]["hand"][0], "flag": 1}
    api.act(ann, game["game_id"], 0, step, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    added = [m for m in written(store) if m.id not in before]
    assert sorted(m.type for m in added) == ["game.action", "game.action", "game.your_turn"]
    assert next(m for m in added if m.type == "game.your_turn").player_id == bob["id"]
    # A refused action writes nothing, messages included.
    api.act(ann, game["game_id"], 0, {"type": "resign"})
    assert len(written(store)) == len(before) + 3


def test_a_webhook_registered_mid_game_is_told_the_next_move(api, dev_mode, services, monkeypatch):
    """Players with no email and no webhook are quiet in their games (the outbox consumer looks
    nothing up for them); registering a webhook un-quiets them in every game they play."""
    monkeypatch.setenv("WEBHOOK_PORTS", "9")
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    services.dispatcher.drain_outbox()  # the invitations: told to nobody
    assert all(s.quiet for s in services.store.load_game(game["game_id"]).seats)
    hook = api.post("/v1/webhooks", {"url": "http://127.0.0.1:9/hook"}, key=bob["api_key"]).body
    assert [s.quiet for s in services.store.load_game(game["game_id"]).seats] == [True, False]
    step = {"type": "play", "card": game["state"]["hand"][0], "flag": 1}
    api.act(ann, game["game_id"], 0, step, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    services.dispatcher.drain_outbox()
    deliveries = api.get(f"/v1/webhooks/{hook['id']}/deliveries", key=bob["api_key"]).body["deliveries"]
    assert {d["type"] for d in deliveries} == {"game.action", "game.your_turn"}
