"""SES's bounce and complaint events stop all mail to the address (services/mailevents.py): every
email is checked before it is sent, the player's preferences say so, and setting the address again
resumes it."""

import json
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage

import pytest

import app as app_module
from chalicelib import config
from chalicelib.kernel import ids
from chalicelib.kernel.clock import iso
from chalicelib.config import build_services
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, EmailSeat, PlayerSeat, Preferences
from chalicelib.notify.dispatcher import Outlets
from chalicelib.notify.mail import SesMailer
from chalicelib.services.mailevents import MailEvents

from ..fakes import FakeClock
from .helpers import LINKS, Outbox, game_by_mail, kind_of

SENT_AT = "2026-11-20T10:00:00.000Z"


def bounce(*addresses, bounce_type="Permanent", sub_type="General", at=SENT_AT, field="eventType"):
    """A configuration set's bounce event (``field="notificationType"``: the identity's notification)."""
    return {field: "Bounce", "bounce": {"bounceType": bounce_type, "bounceSubType": sub_type, "timestamp": at,
                                        "feedbackId": "0100-bounce",
                                        "bouncedRecipients": [{"emailAddress": a, "action": "failed",
                                                               "diagnosticCode": f"smtp; 550 {a} unknown"}
                                                              for a in addresses]},
            "mail": {"timestamp": at, "messageId": "0100-sent", "destination": list(addresses)}}


def complaint(*addresses, at=SENT_AT):
    return {"eventType": "Complaint", "complaint": {"timestamp": at, "feedbackId": "0100-complaint",
                                                    "complaintFeedbackType": "abuse",
                                                    "complainedRecipients": [{"emailAddress": a} for a in addresses]},
            "mail": {"timestamp": at, "messageId": "0100-sent", "destination": list(addresses)}}


def delivered(events, monkeypatch, handler) -> list[str]:
    """The events through the mail_events function, as SNS invokes it."""
    monkeypatch.setattr(config, "mail_events", lambda: handler)
    return app_module.mail_events({"Records": [{"Sns": {"Message": json.dumps(e)}} for e in events]}, None)["outcomes"]


@pytest.fixture
def world(store, monkeypatch):
    services, _inbound, outbox, game, ann, bob = game_by_mail(store, "battleline")
    clock = FakeClock(datetime(2026, 11, 21, 9, 0, tzinfo=timezone.utc))
    return services, outbox, game, ann, bob, MailEvents(store, clock), clock


def your_turns(outbox, to):
    return [m for m in outbox.sent if kind_of(m) == "your_turn" and m["To"] == to]


def test_a_permanent_bounce_stops_your_move_emails_and_shows_in_preferences(world, monkeypatch):
    services, outbox, game, ann, bob, events, clock = world
    assert delivered([bounce("ANN@example.org")], monkeypatch, events) == ["stopped"]
    services.dispatcher.drain_outbox()
    assert your_turns(outbox, "ann@example.org") == []  # Ann is to move: her email is not sent
    assert any(m["To"] == "bob@example.org" for m in outbox.sent)  # others' mail goes on
    status = services.players.get_preferences(ann)["email_status"]
    assert status["state"] == "stopped" and status["reason"] == "bounced" and status["since"] == SENT_AT
    assert "Permanent/General" in status["detail"] and "email_address" in status["detail"]
    assert "email_status" not in services.players.get_preferences(bob)
    # the delivery is recorded as failed, with why: it is not tried again
    recorded = services.store.get_delivery(f"email-{ann.id}", f"msg_{game['game_id']}_0_your_turn_1")
    assert recorded.status == "failed" and recorded.attempts[-1].error == "not sent: the address bounced"


def test_a_complaint_stops_mail_too(world, monkeypatch):
    services, outbox, game, ann, bob, events, clock = world
    assert delivered([complaint("ann@example.org")], monkeypatch, events) == ["stopped"]
    services.dispatcher.drain_outbox()
    assert your_turns(outbox, "ann@example.org") == []
    status = services.players.get_preferences(ann)["email_status"]
    assert status["reason"] == "complained" and "spam" in status["detail"]


def test_transient_bounces_rejects_and_deliveries_change_nothing(world, monkeypatch):
    services, outbox, game, ann, bob, events, clock = world
    assert delivered([bounce("ann@example.org", bounce_type="Transient", sub_type="MailboxFull"),
                      bounce("ann@example.org", bounce_type="Undetermined"),
                      {"eventType": "Reject", "reject": {"reason": "Bad content"}, "mail": {}},
                      {"eventType": "Delivery", "delivery": {}, "mail": {}}], monkeypatch, events) == ["ignored"] * 4
    services.dispatcher.drain_outbox()
    assert len(your_turns(outbox, "ann@example.org")) == 1
    assert "email_status" not in services.players.get_preferences(ann)


def test_the_identitys_notification_format_is_read_too(world, monkeypatch):
    services, outbox, game, ann, bob, events, clock = world
    assert delivered([bounce("ann@example.org", field="notificationType")], monkeypatch, events) == ["stopped"]
    assert services.players.get_preferences(ann)["email_status"]["reason"] == "bounced"


def test_an_event_delivered_again_changes_nothing(world, monkeypatch):
    services, outbox, game, ann, bob, events, clock = world
    assert delivered([bounce("ann@example.org")] * 2, monkeypatch, events) == ["stopped", "unchanged"]
    later = complaint("ann@example.org", at="2026-11-20T11:00:00.000Z")
    assert delivered([later], monkeypatch, events) == ["unchanged"]  # the first stop is kept
    assert services.players.get_preferences(ann)["email_status"]["since"] == SENT_AT


def test_setting_the_address_again_resumes_mail(world, monkeypatch):
    services, outbox, game, ann, bob, events, clock = world
    delivered([bounce("ann@example.org")], monkeypatch, events)
    services.dispatcher.drain_outbox()
    assert your_turns(outbox, "ann@example.org") == []
    answer = services.players.set_preferences(ann, Preferences(email_address="ann@example.org"))
    assert "email_status" not in answer and "email_address" not in answer
    assert "email_status" not in services.players.get_preferences(ann)
    # the old bounce delivered again by SNS after she resumed does not stop it again
    assert delivered([bounce("ann@example.org")], monkeypatch, events) == ["unchanged"]
    services.dispatcher.dispatch(reminder(game, ann))
    assert len([m for m in outbox.sent if m["To"] == "ann@example.org"]) == 1


def test_a_new_address_moves_the_lookup_and_the_old_ones_stop_stays(world, monkeypatch):
    services, outbox, game, ann, bob, events, clock = world
    delivered([complaint("ann@example.org")], monkeypatch, events)
    services.players.set_preferences(ann, Preferences(email_address="ann@new.example"))
    store = services.store
    assert store.get_player(ann.id).email == "ann@new.example"
    assert store.players_with_email(ids.hash_email("ann@new.example")) == [ann.id]
    assert store.players_with_email(ids.hash_email("ann@example.org")) == []  # the stop item is no player
    assert store.email_stop(ids.hash_email("ann@example.org")).reason == "complained"
    assert "email_status" not in services.players.get_preferences(ann)
    services.dispatcher.dispatch(reminder(game, ann))
    assert [m["To"] for m in outbox.sent if "ann@" in m["To"]] == ["ann@new.example"]
    # a later bounce of the new address stops it (mail resumed before the bounce)
    after = iso(services.players.clock.now() + timedelta(minutes=1))
    assert delivered([bounce("ann@new.example", at=after)], monkeypatch, events) == ["stopped"]


def test_an_invitation_to_a_bounced_address_is_not_sent(store, monkeypatch):
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    ann = services.players.create_player(CreatePlayerRequest(name="Ann", email="ann@example.org"), None).body
    ann = services.players.authenticate(ann["api_key"])
    events = MailEvents(store, FakeClock(datetime(2026, 11, 21, tzinfo=timezone.utc)))
    assert delivered([bounce("cat@example.org")], monkeypatch, events) == ["stopped"]  # no player has it
    services.creation.create_game(ann, CreateGameRequest(
        game="battleline", options={"first_seat": 2},
        seats=[PlayerSeat(player_id=ann.id), EmailSeat(email="Cat@Example.org")]), None)
    services.dispatcher.drain_outbox()
    assert [m for m in outbox.sent if m["To"].lower() == "cat@example.org"] == []


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_no_stored_item_holds_the_plain_address(world, monkeypatch):
    """The stops and the address lookups hold none (nor does any key); the profile is where the
    player's address is kept."""
    services, outbox, game, ann, bob, events, clock = world
    delivered([bounce("ann@example.org"), complaint("bob@example.org")], monkeypatch, events)
    services.players.set_preferences(ann, Preferences(email_address="ann@example.org"))
    items = store_items(services)
    assert all("example.org" not in f"{i['PK']} {i['SK']}" for i in items)
    addressed = [i for i in items if i["PK"].startswith("EMAIL#")]
    assert len(addressed) == 4 and "example.org" not in repr(addressed)
    status = [i for i in items if i["SK"] == "STATUS"]
    assert {i["PK"] for i in status} == {f"EMAIL#{ids.hash_email(a)}" for a in ("ann@example.org", "bob@example.org")}


def test_the_ses_sender_names_the_configuration_set(monkeypatch):
    calls = []

    class Client:
        def send_email(self, **arguments):
            calls.append(arguments)

    message = EmailMessage()
    message["To"] = "ann@example.org"
    SesMailer(Client(), "battleline-mail").send(message)
    SesMailer(Client()).send(message)
    assert calls[0]["ConfigurationSetName"] == "battleline-mail" and "ConfigurationSetName" not in calls[1]
    monkeypatch.setenv("MAIL_TRANSPORT", "ses")
    monkeypatch.setenv("MAIL_CONFIGURATION_SET", "battleline-mail")
    from pathlib import Path

    from chalicelib.notify.mail import mailer_from_environment

    assert mailer_from_environment(Path(".")).configuration_set == "battleline-mail"


# ---------------------------------------------------------------- helpers


def store_items(services) -> list[dict]:
    from chalicelib.store.items import plain

    store = services.store
    return [plain(i) for i in store.client.scan(TableName=store.table)["Items"]]


def reminder(game, player):
    """Another your-move message for the player (seat 1, to move), as the outbox would carry it."""
    from chalicelib.store.records import Message

    return Message(f"msg_test_{player.id}", "game.your_turn", player.id, {"game_id": game["game_id"], "seat": 1},
                   "2026-11-21T09:00:00.000Z")


def test_preferences_over_http_show_the_stop_in_the_requests_language_and_resume_it(api, monkeypatch):
    """getPreferences and updatePreferences through the API (their answers are PreferencesView)."""
    created = api.post("/v1/players", {"name": "Ann", "email": "ann@example.org"}).body
    key = created["api_key"]
    delivered([complaint("ann@example.org")], monkeypatch, MailEvents(api_store(api), FakeClock(
        datetime(2026, 11, 21, tzinfo=timezone.utc))))
    shown = api.get("/v1/players/me/preferences", key=key).body["email_status"]
    assert shown["state"] == "stopped" and shown["reason"] == "complained" and shown["since"] == SENT_AT
    assert "marked as spam" in shown["detail"]
    japanese = api.get("/v1/players/me/preferences", key=key, headers={"Accept-Language": "ja"}).body
    assert "迷惑メール" in japanese["email_status"]["detail"]  # as the API speaks: Accept-Language
    assert "email_status" in api.request("PUT", "/v1/players/me/preferences", {"messages": False}, key=key).body
    answer = api.request("PUT", "/v1/players/me/preferences", {"email_address": "ann@example.org"}, key=key)
    assert answer.status == 200 and "email_status" not in answer.body and "email_address" not in answer.body
    assert "email_status" not in api.get("/v1/players/me/preferences", key=key).body
    refused = api.request("PUT", "/v1/players/me/preferences", {"email_address": "not an address"}, key=key)
    assert refused.status == 422


def api_store(api):
    return app_module.api.services().store
