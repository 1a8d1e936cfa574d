"""Webhook delivery end to end: outbox -> dispatcher -> a real local receiver."""

import json
from datetime import datetime, timedelta, timezone
from random import Random

import pytest

from chalicelib.kernel.clock import iso
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, CreateWebhookRequest, PlayerSeat
from chalicelib.notify.dispatcher import Dispatcher, Outlets
from chalicelib.notify.webhooks import RETRY_SCHEDULE, SendResult, http_send
from chalicelib.config import build_services

from ..fakes import FakeClock
from ..fakes import start_game as started
from .helpers import FakeDns
from .receiver import Receiver


@pytest.fixture
def receiver():
    r = Receiver().start()
    yield r
    r.stop()


@pytest.fixture
def clock():
    return FakeClock(datetime.now(timezone.utc).replace(microsecond=0))


@pytest.fixture
def world(store, clock, monkeypatch):
    monkeypatch.setenv("ALLOW_PRIVATE_WEBHOOKS", "1")
    services = build_services(store, clock, outlets=Outlets(rng=Random(1), allow_private=True))
    ann = services.players.create_player(CreatePlayerRequest(name="Ann"), None).body
    bob = services.players.create_player(CreatePlayerRequest(name="Bob"), None).body
    return services, services.dispatcher, services.players.authenticate(ann["api_key"]), services.players.authenticate(bob["api_key"])


def start_game(services, ann, bob):
    request = CreateGameRequest(game="battleline", seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)],
                                options={"first_seat": 1})
    return started(services, ann, request, [ann, bob])


def test_signed_deliveries_reach_the_receiver_once_per_message(world, receiver):
    services, dispatcher, ann, bob = world
    hook = services.webhooks.create_webhook(bob, CreateWebhookRequest(url=receiver.url))
    game = start_game(services, ann, bob)
    assert dispatcher.drain_outbox() >= 3  # invited x2, your_turn
    receiver.verify_all(hook["secret"])
    types = sorted(body["type"] for body in receiver.seen.values())
    assert types == ["game.invited"]  # Bob was invited; it is Ann's turn
    body = next(iter(receiver.seen.values()))
    assert body["data"]["game_id"] == game["game_id"] and body["data"]["seat"] == 2
    assert set(body) == {"type", "timestamp", "data"}
    # Draining again sends nothing more: every message was dispatched once.
    assert dispatcher.drain_outbox() == 0 and len(receiver.requests) == 1


def test_your_turn_and_action_messages_never_carry_hidden_cards(world, receiver):
    from chalicelib.http.models import ActionRequest

    services, dispatcher, ann, bob = world
    services.webhooks.create_webhook(bob, CreateWebhookRequest(url=receiver.url))
    game = start_game(services, ann, bob)
    ann_hand = game["state"]["hand"]
    steps = [{"type": "play", "card": ann_hand[0], "flag": 1}, {"type": "claim", "flags": []},
             {"type": "draw", "deck": "troop"}]
    reply = services.games.post_action(ann, game["game_id"], ActionRequest(expected_version=0, steps=steps), None).body
    drawn = reply["events"][-1]["data"]["card"]
    dispatcher.drain_outbox()
    kinds = sorted(b["type"] for b in receiver.seen.values())
    assert kinds == ["game.action", "game.invited", "game.your_turn"]
    sent = json.dumps(list(receiver.seen.values()))
    for card in ann_hand[1:] + [drawn]:
        assert f'"{card}"' not in sent  # Ann's hand and her drawn card stay hers


def test_receiver_failing_three_times_then_recovering_gets_it_on_schedule(world, receiver, clock):
    services, dispatcher, ann, bob = world
    services.webhooks.create_webhook(bob, CreateWebhookRequest(url=receiver.url, events=["game.invited"]))
    receiver.script = [500, 503, 502]
    start = clock.now()
    start_game(services, ann, bob)
    dispatcher.drain_outbox()  # attempt 1, immediately: 500
    delivery = services.webhooks.list_webhook_deliveries(bob, services.webhooks.list_webhooks(bob)["webhooks"][0]["id"])["deliveries"][0]
    assert delivery["status"] == "pending" and len(delivery["attempts"]) == 1
    for wait in RETRY_SCHEDULE[:3]:
        clock.advance(wait * 0.5)
        assert dispatcher.run_due() == 0  # not due yet
        clock.advance(wait * 0.6)  # past the wait and its jitter (at most 10 %)
        assert dispatcher.run_due() == 1
    hook_id = services.webhooks.list_webhooks(bob)["webhooks"][0]["id"]
    delivery = services.webhooks.list_webhook_deliveries(bob, hook_id)["deliveries"][0]
    assert delivery["status"] == "delivered"
    assert [a["status"] for a in delivery["attempts"]] == [500, 503, 502, 200]
    times = [datetime.fromisoformat(a["at"].replace("Z", "+00:00")) for a in delivery["attempts"]]
    gaps = [b - a for a, b in zip(times, times[1:])]
    for gap, wait in zip(gaps, RETRY_SCHEDULE):
        assert wait <= gap <= wait * 1.2
    assert times[0] == start
    assert len({r.headers["webhook-id"] for r in receiver.requests}) == 1  # the same id on every attempt
    assert len(receiver.seen) == 1


def test_crash_after_commit_before_send_still_delivers_once_per_id(world, receiver, clock):
    services, dispatcher, ann, bob = world
    services.webhooks.create_webhook(bob, CreateWebhookRequest(url=receiver.url))
    services.webhooks.create_webhook(ann, CreateWebhookRequest(url=receiver.url))
    start_game(services, ann, bob)  # committed, with its outbox messages

    crashing = Dispatcher(dispatcher.store, clock, send=lambda *a, **k: (_ for _ in ()).throw(SystemExit("crash")),
                          allow_private=True)
    with pytest.raises(SystemExit):
        crashing.drain_outbox()  # dies at its first send: nothing reached the receiver
    assert receiver.requests == []
    clock.advance(timedelta(minutes=2))  # past the dead worker's lease
    dispatcher.drain_outbox()
    dispatcher.run_due()
    ids = [r.headers["webhook-id"] for r in receiver.requests]
    assert len(ids) == len(set(ids)) == 3  # invited (to both), your_turn (Ann), and nothing twice
    assert dispatcher.drain_outbox() == 0 and dispatcher.run_due() == 0


def test_410_disables_the_endpoint(world, receiver):
    services, dispatcher, ann, bob = world
    services.webhooks.create_webhook(bob, CreateWebhookRequest(url=receiver.url))
    receiver.script = [410]
    start_game(services, ann, bob)
    dispatcher.drain_outbox()
    hook = services.webhooks.list_webhooks(bob)["webhooks"][0]
    assert hook["disabled"] and "410" in hook["disabled"]
    assert services.webhooks.list_webhook_deliveries(bob, hook["id"])["deliveries"][0]["status"] == "failed"


def _turn(view: dict) -> list[dict]:
    """A whole Battle Line turn from a seat's view: its first legal play, no claim, a troop draw."""
    play = next(s for s in view["legal_steps"] if s["type"] == "play" and "flag" in s)
    return [play, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}]


def test_a_disabled_endpoint_loses_no_message_and_a_redelivery_lets_the_game_go_on(world, receiver):
    """A 410 disables the endpoint, and every message it subscribes to from then on is still recorded
    (failed, "the endpoint is disabled"), the next message of the same change too: it can be listed and
    redelivered, and the redelivery re-enables the endpoint, so a bot's game goes on."""
    from chalicelib.http.models import ActionRequest

    services, dispatcher, ann, bob = world
    hook = services.webhooks.create_webhook(bob, CreateWebhookRequest(url=receiver.url))
    game = start_game(services, ann, bob)
    dispatcher.drain_outbox()  # Bob's invitation, delivered
    receiver.script = [410]  # the receiver is broken for a moment
    services.games.post_action(ann, game["game_id"], ActionRequest(expected_version=0, steps=_turn(game)), None)
    dispatcher.drain_outbox()  # game.action (410: disabled), then game.your_turn in the same change
    assert services.webhooks.list_webhooks(bob)["webhooks"][0]["disabled"]
    deliveries = {d["type"]: d for d in services.webhooks.list_webhook_deliveries(bob, hook["id"])["deliveries"]}
    assert set(deliveries) == {"game.invited", "game.action", "game.your_turn"}
    assert deliveries["game.action"]["status"] == "failed" and deliveries["game.action"]["attempts"][0]["status"] == 410
    your_turn = deliveries["game.your_turn"]
    assert your_turn["status"] == "failed" and your_turn["attempts"][0]["status"] is None
    assert your_turn["attempts"][0]["error"].startswith("the endpoint is disabled")
    assert len(receiver.requests) == 2  # the disabled endpoint was not called again
    # A message of a later change is recorded too, while the endpoint stays disabled.
    other = start_game(services, ann, bob)
    dispatcher.drain_outbox()
    later = services.webhooks.list_webhook_deliveries(bob, hook["id"])["deliveries"]
    assert any(d["type"] == "game.invited" and other["game_id"] in d["id"] and d["status"] == "failed" for d in later)
    assert len(receiver.requests) == 2
    # The receiver is fixed: the bot asks for its turn again, which re-enables the endpoint.
    again = services.webhooks.redeliver_webhook(bob, hook["id"], your_turn["id"])
    assert again["status"] == "delivered"
    assert services.webhooks.list_webhooks(bob)["webhooks"][0]["disabled"] is None
    assert receiver.seen[your_turn["id"]]["type"] == "game.your_turn"
    view = services.games.get_game(bob, game["game_id"])
    services.games.post_action(bob, game["game_id"], ActionRequest(expected_version=1, steps=_turn(view)), None)
    view = services.games.get_game(ann, game["game_id"])
    services.games.post_action(ann, game["game_id"], ActionRequest(expected_version=2, steps=_turn(view)), None)
    dispatcher.drain_outbox()
    told = [b["type"] for b in receiver.seen.values() if b["data"].get("version") == 3]
    assert sorted(told) == ["game.action", "game.your_turn"]  # the game goes on
    receiver.verify_all(hook["secret"])


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_redirect_is_not_followed(world, receiver, status):
    services, dispatcher, ann, bob = world
    services.webhooks.create_webhook(bob, CreateWebhookRequest(url=receiver.url, events=["game.invited"]))
    receiver.script = [status]
    start_game(services, ann, bob)
    dispatcher.drain_outbox()
    hook = services.webhooks.list_webhooks(bob)["webhooks"][0]
    delivery = services.webhooks.list_webhook_deliveries(bob, hook["id"])["deliveries"][0]
    assert delivery["status"] == "pending" and delivery["attempts"][0]["status"] == status
    assert "redirects are not followed" in delivery["attempts"][0]["error"]
    # The Location points back at the receiver: nothing came for it.
    assert [r.path for r in receiver.requests] == ["/hooks"]


def test_retry_after_is_honoured(world, receiver, clock):
    services, dispatcher, ann, bob = world
    services.webhooks.create_webhook(bob, CreateWebhookRequest(url=receiver.url))
    receiver.script = [429]
    receiver.extra_headers = {"Retry-After": "600"}
    start_game(services, ann, bob)
    dispatcher.drain_outbox()
    hook = services.webhooks.list_webhooks(bob)["webhooks"][0]
    delivery = services.webhooks.list_webhook_deliveries(bob, hook["id"])["deliveries"][0]
    next_at = datetime.fromisoformat(delivery["next_attempt_at"].replace("Z", "+00:00"))
    assert next_at - clock.now() == timedelta(seconds=600)  # not the scheduled 5 s


def test_the_schedule_ends_in_failure(world, receiver, clock):
    services, dispatcher, ann, bob = world
    services.webhooks.create_webhook(bob, CreateWebhookRequest(url=receiver.url, events=["game.invited"]))
    receiver.script = [500] * 20
    start_game(services, ann, bob)
    dispatcher.drain_outbox()
    for _ in RETRY_SCHEDULE:
        clock.advance(timedelta(hours=30))
        dispatcher.run_due()
    hook = services.webhooks.list_webhooks(bob)["webhooks"][0]
    delivery = services.webhooks.list_webhook_deliveries(bob, hook["id"])["deliveries"][0]
    assert delivery["status"] == "failed" and len(delivery["attempts"]) == 1 + len(RETRY_SCHEDULE)


def test_rotation_signs_with_both_secrets_for_24_hours(world, receiver, clock):
    services, dispatcher, ann, bob = world
    old = services.webhooks.create_webhook(bob, CreateWebhookRequest(url=receiver.url))
    new = services.webhooks.rotate_webhook_secret(bob, old["id"])
    start_game(services, ann, bob)
    dispatcher.drain_outbox()
    receiver.verify_all(old["secret"])
    receiver.verify_all(new["secret"])
    assert len(receiver.requests[0].headers["webhook-signature"].split(" ")) == 2
    assert new["previous_secret_expires_at"] == iso(clock.now() + timedelta(hours=24))
    clock.advance(timedelta(hours=25))
    delivery = services.webhooks.list_webhook_deliveries(bob, old["id"])["deliveries"][0]
    services.webhooks.redeliver_webhook(bob, old["id"], delivery["id"])
    assert len(receiver.requests[-1].headers["webhook-signature"].split(" ")) == 1


def test_delivery_to_an_address_that_turned_private_is_refused_at_send_time(world, receiver, store, clock):
    services, _, ann, bob = world
    services.webhooks.create_webhook(bob, CreateWebhookRequest(url=receiver.url))  # allowed while registering (dev mode)
    strict = Dispatcher(store, clock, allow_private=False)
    start_game(services, ann, bob)
    strict.drain_outbox()
    assert receiver.requests == []
    hook = services.webhooks.list_webhooks(bob)["webhooks"][0]
    attempt = services.webhooks.list_webhook_deliveries(bob, hook["id"])["deliveries"][0]["attempts"][0]
    assert attempt["status"] is None and "refused" in attempt["error"]


def test_delivery_rechecks_the_address_dns_rebinding(world, store, clock, monkeypatch):
    services, _, ann, bob = world
    monkeypatch.delenv("ALLOW_PRIVATE_WEBHOOKS")
    dns = FakeDns(monkeypatch)
    dns.answers["hooks.example.com"] = ["93.184.216.34"]
    hook = services.webhooks.create_webhook(bob, CreateWebhookRequest(url="https://hooks.example.com/hook",
                                                            events=["game.invited"]))
    sent = []
    strict = Dispatcher(store, clock, allow_private=False,
                        send=lambda target, body, headers, timeout=None: sent.append(target) or SendResult(200))
    dns.answers["hooks.example.com"] = ["10.0.0.7"]  # re-pointed after registration
    start_game(services, ann, bob)
    strict.drain_outbox()
    assert sent == []
    attempt = services.webhooks.list_webhook_deliveries(bob, hook["id"])["deliveries"][0]["attempts"][0]
    assert attempt["status"] is None and "10.0.0.7 is a private address" in attempt["error"]
    # Each attempt looks again: a public address again is delivered to, at that address.
    dns.answers["hooks.example.com"] = ["93.184.216.35"]
    clock.advance(RETRY_SCHEDULE[0] * 1.2)
    assert strict.run_due() == 1
    assert [(t.address, t.host, t.port) for t in sent] == [("93.184.216.35", "hooks.example.com", 443)]
    assert services.webhooks.list_webhook_deliveries(bob, hook["id"])["deliveries"][0]["status"] == "delivered"


def test_delivery_connects_to_the_address_it_checked_without_a_second_lookup(world, receiver, store, clock,
                                                                             monkeypatch):
    services, _, ann, bob = world
    dns = FakeDns(monkeypatch)
    dns.answers["hooks.example.com"] = ["127.0.0.1"]
    port = receiver.server.server_address[1]
    services.webhooks.create_webhook(bob, CreateWebhookRequest(url=f"http://hooks.example.com:{port}/hooks",
                                                     events=["game.invited"]))

    def rebind_then_send(target, body, headers, timeout=None):
        dns.answers["hooks.example.com"] = ["127.0.0.2"]  # re-pointed between the check and the connection
        return http_send(target, body, headers, timeout)

    dispatcher = Dispatcher(store, clock, allow_private=True, send=rebind_then_send)
    lookups_before = dns.lookups["hooks.example.com"]
    start_game(services, ann, bob)
    dispatcher.drain_outbox()
    assert dns.lookups["hooks.example.com"] == lookups_before + 1  # the check's, and no other
    assert len(receiver.seen) == 1  # reached at 127.0.0.1, where the receiver listens
    assert receiver.requests[0].headers["host"] == f"hooks.example.com:{port}"
