"""Account recovery (issue 23, item 4): ``recoverAccount`` by email (a single-use link, 30
minutes, to a page whose POST button gives a new key) or by recovery code; always the same 202
for an address, rate limits, and no secret stored in clear."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

import pytest
from chalice.test import Client

import app as app_module
from chalicelib.config import build_services
from chalicelib.notify.dispatcher import Outlets
from chalicelib.http.ratelimit import Rate
from tests.conftest import LINKS, ApiClient
from tests.fakes import FakeClock
from tests.notify.helpers import Outbox, html_of, text_of

from .test_contract import problem_of

FORM = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"}
CODE = "correct horse battery staple"
LOTS = Rate(1000, 1)


@pytest.fixture
def world(store, monkeypatch):
    """The API with a mailbox and a fake clock; ``world.rates`` can be lowered before requests."""
    class World:
        clock = FakeClock(datetime(2026, 11, 24, 12, 0, tzinfo=timezone.utc))
        outbox = Outbox()
        rates = {"recover": LOTS, "recover_address": LOTS, "recover_code": LOTS}

    world = World()
    services = build_services(store, clock=world.clock, rates=world.rates,
                              outlets=Outlets(mailer=world.outbox, links=LINKS))
    world.services = services
    monkeypatch.setattr(app_module.api, "services", lambda: services)
    with Client(app_module.app) as client:
        world.api = ApiClient(client, store)
        yield world


def sign_up(world, name="Ann", email="ann@example.org", **extra) -> dict:
    reply = world.api.post("/v1/players", {"name": name, "email": email, **extra})
    assert reply.status == 201, reply.body
    return reply.body


def recovery_mails(world, address="ann@example.org"):
    world.services.dispatcher.drain_outbox()
    return [m for m in world.outbox.sent if m["To"] == address and "recover" in text_of(m)]


def link_path(mail) -> str:
    url = re.search(r"http://testserver/v1/recover/\S+", text_of(mail)).group(0)
    return urlsplit(url).path


def works(world, key: str) -> bool:
    return world.api.get("/v1/players/me", key=key).status == 200


def stored_items(store) -> str:
    return repr(store.client.scan(TableName=store.table)["Items"])


def test_known_and_unknown_addresses_get_byte_identical_answers(world):
    sign_up(world)
    known = world.api.client.http.post("/v1/players/recover", headers={"Content-Type": "application/json"},
                                       body='{"email": "ann@example.org"}')
    unknown = world.api.client.http.post("/v1/players/recover", headers={"Content-Type": "application/json"},
                                         body='{"email": "nobody@example.org"}')
    assert known.status_code == unknown.status_code == 202
    assert known.body == unknown.body
    assert {k: v for k, v in known.headers.items() if k.lower() != "date"} == \
        {k: v for k, v in unknown.headers.items() if k.lower() != "date"}
    assert len(recovery_mails(world)) == 1
    assert recovery_mails(world, "nobody@example.org") == []


def test_the_link_page_changes_nothing_and_its_button_gives_a_new_key_once(world):
    ann = sign_up(world)
    world.api.post("/v1/players/recover", {"email": "ANN@Example.org"})  # in any case
    [mail] = recovery_mails(world)
    assert "Ann" in text_of(mail) and "30 minutes" in text_of(mail) and "Get a new API key" in html_of(mail)
    path = link_path(mail)
    page = world.api.get(path, headers={"Accept": "text/html"})
    assert page.status == 200 and f'<form method="post" action="{path}"' in page.body
    assert "A new API key for Ann?" in page.body
    assert works(world, ann["api_key"])  # a GET (a mail scanner) changes nothing
    done = world.api.post(path, headers=FORM)
    assert done.status == 200, done.body
    new_key = re.search(r"bl_live_[A-Za-z0-9_-]+", done.body).group(0)
    assert works(world, new_key) and not works(world, ann["api_key"])
    assert len(recovery_mails(world)) == 1  # using the link mails nothing again
    again = world.api.post(path, headers=FORM)
    assert again.status == 410 and "This link was used already" in again.body
    assert problem_of(world.api.post(path), 410, "link_used")
    assert works(world, new_key)


def test_a_link_expires_after_30_minutes(world):
    ann = sign_up(world)
    world.api.post("/v1/players/recover", {"email": "ann@example.org"})
    path = link_path(recovery_mails(world)[0])
    world.clock.advance(timedelta(minutes=30, seconds=1))
    page = world.api.get(path, headers={"Accept": "text/html"})
    assert page.status == 410 and "expired" in page.body
    assert problem_of(world.api.post(path), 410, "link_expired")
    assert works(world, ann["api_key"])


def test_a_link_within_30_minutes_works(world):
    sign_up(world)
    world.api.post("/v1/players/recover", {"email": "ann@example.org"})
    path = link_path(recovery_mails(world)[0])
    world.clock.advance(timedelta(minutes=29))
    assert world.api.post(path, headers=FORM).status == 200


def test_a_forged_or_altered_link_is_refused(world):
    sign_up(world)
    world.api.post("/v1/players/recover", {"email": "ann@example.org"})
    path = link_path(recovery_mails(world)[0])
    problem_of(world.api.post(path[:-3] + "abc"), 400, "invalid_link")
    problem_of(world.api.post("/v1/recover/not-a-token"), 400, "invalid_link")


def test_the_email_and_page_speak_the_players_language(world):
    sign_up(world, language="ja")
    world.api.post("/v1/players/recover", {"email": "ann@example.org"})
    world.services.dispatcher.drain_outbox()
    [mail] = [m for m in world.outbox.sent if m["To"] == "ann@example.org"]
    assert mail["Subject"] != "A new API key for Ann" and "Ann" in mail["Subject"]
    path = urlsplit(re.search(r"http://testserver/v1/recover/\S+", text_of(mail)).group(0)).path
    page = world.api.get(path, headers={"Accept": "text/html", "Accept-Language": "en"})
    assert '<html lang="ja">' in page.body


def test_a_recovery_code_gets_a_new_key_once(world):
    ann = sign_up(world, recovery_code=CODE)
    got = world.api.post("/v1/players/recover", {"player_id": ann["id"], "recovery_code": CODE})
    assert got.status == 202 and got.body["status"] == "recovered" and got.body["recovery_code_set"] is False
    assert works(world, got.body["api_key"]) and not works(world, ann["api_key"])
    problem_of(world.api.post("/v1/players/recover", {"player_id": ann["id"], "recovery_code": CODE}), 403,
               "recovery_refused")


def test_a_used_recovery_code_can_be_replaced_in_the_same_request(world):
    ann = sign_up(world, recovery_code=CODE)
    nxt = "another long recovery phrase"
    got = world.api.post("/v1/players/recover", {"player_id": ann["id"], "recovery_code": CODE,
                                                 "new_recovery_code": nxt})
    assert got.body["recovery_code_set"] is True
    again = world.api.post("/v1/players/recover", {"player_id": ann["id"], "recovery_code": nxt})
    assert again.status == 202 and works(world, again.body["api_key"]) and not works(world, got.body["api_key"])


def test_a_wrong_code_or_player_is_refused_the_same_way(world):
    ann = sign_up(world, recovery_code=CODE)
    bob = sign_up(world, "Bob", "bob@example.org")  # no code
    for body in ({"player_id": ann["id"], "recovery_code": "x" * 20}, {"player_id": bob["id"], "recovery_code": CODE},
                 {"player_id": "p_nobody", "recovery_code": CODE}):
        problem_of(world.api.post("/v1/players/recover", body), 403, "recovery_refused")
    assert works(world, ann["api_key"]) and works(world, bob["api_key"])


def test_a_recovery_code_is_at_least_16_characters(world):
    problem_of(world.api.post("/v1/players", {"name": "Ann", "recovery_code": "short"}), 422, "invalid_request")


def test_a_request_is_email_or_player_id_with_code(world):
    for body in ({}, {"email": "a@example.org", "player_id": "p_x", "recovery_code": CODE},
                 {"player_id": "p_x"}, {"recovery_code": CODE}):
        problem_of(world.api.post("/v1/players/recover", body), 422, "invalid_request")


def test_recovery_codes_are_tried_at_most_5_an_hour_per_player(world):
    ann = sign_up(world, recovery_code=CODE)
    world.rates["recover_code"] = Rate(2, 3600)
    for _ in range(2):
        problem_of(world.api.post("/v1/players/recover", {"player_id": ann["id"], "recovery_code": "y" * 16}), 403,
                   "recovery_refused")
    limited = world.api.post("/v1/players/recover", {"player_id": ann["id"], "recovery_code": CODE})
    problem_of(limited, 429, "rate_limited")
    assert int(limited.headers["retry-after"]) > 0


def test_over_the_address_limit_the_answer_is_the_same_and_no_email_is_sent(world):
    sign_up(world)
    world.rates["recover_address"] = Rate(1, 3600)
    first = world.api.post("/v1/players/recover", {"email": "ann@example.org"})
    second = world.api.post("/v1/players/recover", {"email": "ann@example.org"})
    assert first.status == second.status == 202 and first.body == second.body
    assert len(recovery_mails(world)) == 1


def test_over_the_source_address_limit_it_is_429_with_retry_after(world):
    world.rates["recover"] = Rate(2, 3600)
    for n in range(2):
        assert world.api.post("/v1/players/recover", {"email": f"x{n}@example.org"}).status == 202
    limited = world.api.post("/v1/players/recover", {"email": "x3@example.org"})
    problem_of(limited, 429, "rate_limited")
    assert int(limited.headers["retry-after"]) > 0


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_no_secret_is_stored_in_clear(world, store):
    ann = sign_up(world, recovery_code=CODE)
    world.api.post("/v1/players/recover", {"email": "ann@example.org"})
    path = link_path(recovery_mails(world)[0])
    token = path.rsplit("/", 1)[1]
    new_key = re.search(r"bl_live_[A-Za-z0-9_-]+", world.api.post(path, headers=FORM).body).group(0)
    by_code = world.api.post("/v1/players/recover", {"player_id": ann["id"], "recovery_code": CODE,
                                                     "new_recovery_code": "the next secret phrase"}).body["api_key"]
    items = stored_items(store)
    for secret in (ann["api_key"], new_key, by_code, CODE, "the next secret phrase", token, token.split(".")[-1]):
        assert secret not in items
    assert "EMAIL#ann@example.org" not in items and "EMAIL#" in items


def test_players_sharing_an_address_each_get_their_own_link(world):
    sign_up(world, "Ann")
    sign_up(world, "Annie")
    world.api.post("/v1/players/recover", {"email": "ann@example.org"})
    mails = recovery_mails(world)
    assert sorted(m["Subject"] for m in mails) == ["A new API key for Ann", "A new API key for Annie"]


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_a_recovery_code_is_not_in_a_sign_ups_idempotency_fingerprint(world, store):
    """A fingerprint is a fast SHA-256 of the body: with a guessable code in it, a copy of the
    table could test guesses offline. Replaying the sign-up still answers the first response."""
    import hashlib
    import json

    body = {"name": "Ann", "email": "ann@example.org", "recovery_code": CODE}
    first = world.api.post("/v1/players", body, headers={"Idempotency-Key": "k1"})
    replay = world.api.post("/v1/players", body, headers={"Idempotency-Key": "k1"})
    assert first.status == replay.status == 201 and replay.headers.get("idempotent-replayed") == "true"
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    with_code = hashlib.sha256(f"POST /v1/players\n{canonical}".encode()).hexdigest()
    assert with_code not in stored_items(store) and "fingerprint" in stored_items(store)


def test_known_and_unknown_addresses_make_the_same_store_calls(world):
    """No observable shortcut for an unknown address: the same reads and writes, in order."""
    sign_up(world)
    calls = []

    class Recording:
        def __init__(self, store):
            self.store = store

        def __getattr__(self, name):
            found = getattr(self.store, name)
            return (lambda *a, **k: (calls.append(name), found(*a, **k))[1]) if callable(found) else found

    recovery = world.services.recovery
    recovery.store = Recording(recovery.store)
    world.api.post("/v1/players/recover", {"email": "ann@example.org"})
    known, calls[:] = list(calls), []
    world.api.post("/v1/players/recover", {"email": "nobody@example.org"})
    assert known == calls == ["players_with_email", "add_recovery"]
