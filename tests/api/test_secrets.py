"""Secrets are shown once and never stored: API keys, webhook signing secrets, link tokens.

After every operation that hands out a secret, the whole table is scanned and no item may hold
that secret (nor, for a token, any long piece of it) in the clear.
"""

import json
import re
from urllib.parse import unquote, urlsplit

import pytest

from chalicelib.store import codec
from chalice.test import Client

import app as app_module
from chalicelib.notify.dispatcher import Outlets
from chalicelib.config import build_services
from tests.conftest import ApiClient
from tests.notify.helpers import LINKS, Outbox


def table_text(store) -> str:
    """Every item of the table, as one string: compressed values (a game version's body and clock)
    unpacked, so that nothing hides in them."""
    def readable(value):
        if isinstance(value, dict):
            return {k: readable(v) for k, v in value.items()}
        if isinstance(value, list):
            return [readable(v) for v in value]
        return codec.unpack(value) if isinstance(value, bytes) else value

    items, kwargs = [], {"TableName": store.table}
    while True:
        page = store.client.scan(**kwargs)
        items += page["Items"]
        if "LastEvaluatedKey" not in page:
            return json.dumps(readable(items))
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def assert_not_stored(store, secret: str, what: str) -> None:
    assert len(secret) >= 20, f"{what}: not a secret worth the name: {secret!r}"
    text = table_text(store)
    # The secret itself, and any 16-character piece of its random part (a stored fragment is a leak too).
    pieces = {secret} | {secret[i:i + 16] for i in range(0, len(secret) - 16, 4)}
    found = [p for p in pieces if p in text and not p.startswith(("bl_live_", "whsec_"))]
    assert secret not in text and not found, f"{what} is stored in the clear"


@pytest.fixture
def mailed(store, monkeypatch):
    """The API on services that sends email (to an Outbox) and signs links."""
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS, allow_private=True))
    monkeypatch.setattr(app_module.api, "services", lambda: services)
    monkeypatch.setenv("ALLOW_PRIVATE_WEBHOOKS", "1")
    with Client(app_module.app) as client:
        yield ApiClient(client, store), services, outbox


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_signup_replay_never_reveals_the_api_key(api, store):
    body = {"name": "Victim"}
    first = api.post("/v1/players", body, headers={"Idempotency-Key": "signup-1"})
    assert first.status == 201 and first.body["api_key"].startswith("bl_live_")
    replay = api.post("/v1/players", body, headers={"Idempotency-Key": "signup-1"})
    assert replay.status == 201 and replay.headers.get("idempotent-replayed") == "true"
    assert replay.body["id"] == first.body["id"] and replay.body["api_key"] is None
    assert "bl_live_" not in json.dumps(replay.body)
    assert api.get("/v1/players/me", key=first.body["api_key"]).status == 200  # the first key still works
    assert_not_stored(store, first.body["api_key"], "the API key of a sign-up with an Idempotency-Key")


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_no_stored_item_holds_a_secret(mailed, store):
    api, services, outbox = mailed
    ann = api.post("/v1/players", {"name": "Ann", "email": "ann@example.org"},
                   headers={"Idempotency-Key": "ann"}).body
    assert_not_stored(store, ann["api_key"], "an API key")
    bob = api.signup("Bob")
    assert_not_stored(store, bob["api_key"], "an API key (no Idempotency-Key)")

    hook = api.post("/v1/webhooks", {"url": "http://127.0.0.1:9/hook"}, key=ann["api_key"]).body
    assert_not_stored(store, hook["secret"], "a webhook signing secret")
    rotated = api.post(f"/v1/webhooks/{hook['id']}/rotate", key=ann["api_key"]).body
    assert_not_stored(store, rotated["secret"], "a rotated webhook signing secret")

    game = api.post("/v1/games", {"game": "battleline", "options": {"first_seat": 1},
                                  "seats": [{"player_id": ann["id"]}, {"email": "cat@example.org"}]},
                    key=ann["api_key"], headers={"Idempotency-Key": "game-1"}).body
    link = api.get(f"/v1/games/{game['game_id']}/board-link", key=ann["api_key"]).body["url"]
    assert_not_stored(store, unquote(link.split("seat=")[1]), "a board link token")

    services.dispatcher.drain_outbox()
    invitation = next(m for m in outbox.sent if m["To"] == "cat@example.org").get_body(("plain",)).get_content()
    token = unquote(urlsplit(re.search(r"http://play\.example/v1/invitations/\S+", invitation).group(0)).path
                    .rsplit("/", 1)[1])
    assert_not_stored(store, token, "an invitation token")
    page = api.post(f"/v1/invitations/{token}")
    cat_key = re.search(r"bl_live_[A-Za-z0-9_-]+", page.body).group(0)
    assert_not_stored(store, cat_key, "the API key shown when an invitation is accepted")

    services.dispatcher.drain_outbox()
    your_move = next(m for m in outbox.sent if m["To"] == "ann@example.org" and "_your_turn_" in m["X-Battleline-Message"])
    text = your_move.get_body(("html",)).get_content()
    tokens = [unquote(url.rsplit("/", 1)[1]) for url in re.findall(r'http://play\.example/v1/links/[^"]+', text)]
    assert tokens
    for token in tokens[:3]:
        assert_not_stored(store, token, "a step link token")
    played = api.post(f"/v1/links/{tokens[0]}")  # a step played by link is idempotent: its record is stored
    assert played.status == 200
    for token in tokens[:3]:
        assert_not_stored(store, token, "a step link token, after it was played")
    for unsubscribe in re.findall(r"http://play\.example/v1/unsubscribe/\S+", text)[:1]:
        assert_not_stored(store, unquote(unsubscribe.rsplit("/", 1)[1]), "an unsubscribe token")


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_a_replayed_webhook_registration_gives_the_secret_again_and_stores_it_nowhere(mailed, store):
    """A bot whose createWebhook timed out retries with its Idempotency-Key: the answer is the first, with
    the same secret, derived again from the endpoint's salt and the server key (never stored: neither the
    endpoint nor the key's record holds it), also after a rotation; once the endpoint is deleted, 404."""
    api, services, _ = mailed
    ann = api.signup("Ann")
    body, headers = {"url": "http://127.0.0.1:9/hook"}, {"Idempotency-Key": "hook-1"}
    first = api.post("/v1/webhooks", body, key=ann["api_key"], headers=headers)
    replay = api.post("/v1/webhooks", body, key=ann["api_key"], headers=headers)
    assert replay.headers.get("idempotent-replayed") == "true" and replay.body == first.body
    assert replay.body["secret"].startswith("whsec_")
    assert_not_stored(store, first.body["secret"], "a webhook signing secret of a registration with an Idempotency-Key")
    rotated = api.post(f"/v1/webhooks/{first.body['id']}/rotate", key=ann["api_key"]).body
    after = api.post("/v1/webhooks", body, key=ann["api_key"], headers=headers)
    assert after.body == first.body and after.body["secret"] != rotated["secret"]  # the first answer, as it was
    assert_not_stored(store, first.body["secret"], "a replayed webhook signing secret")
    assert len(api.get("/v1/webhooks", key=ann["api_key"]).body["webhooks"]) == 1
    api.request("DELETE", f"/v1/webhooks/{first.body['id']}", key=ann["api_key"])
    gone = api.post("/v1/webhooks", body, key=ann["api_key"], headers=headers)
    assert gone.status == 404 and gone.body["code"] == "webhook_not_found"
    assert api.get("/v1/webhooks", key=ann["api_key"]).body["webhooks"] == []


def test_webhook_secret_is_derived_from_the_server_key(store):
    """A copy of the table alone signs nothing: the same item under another server key gives
    another secret."""
    from chalicelib.presenting.links import Links
    from chalicelib.notify.webhooks import SigningKeys

    ours, theirs = SigningKeys(LINKS.key), SigningKeys(Links("another-key", "http://x").key)
    salt = SigningKeys.new_salt()
    assert ours.secret("wh_1", salt) == ours.secret("wh_1", salt)
    assert ours.secret("wh_1", salt) != theirs.secret("wh_1", salt) != ours.secret("wh_2", salt)
    assert re.fullmatch(r"whsec_[A-Za-z0-9+/]{43}=", ours.secret("wh_1", salt))
