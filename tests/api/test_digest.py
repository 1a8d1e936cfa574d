"""The daily digest (issue 23, item 6): one email a day at the player's local time, listing the games
awaiting their move, instead of an email per move. An injected clock, no sleeping; the sweeper is
called as the one-minute schedule calls it, and the outbox drained as the stream consumer does."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
from chalice.test import Client

import app as app_module
from chalicelib.config import build_services
from chalicelib.notify.dispatcher import Outlets

from ..conftest import ApiClient
from ..fakes import FakeClock
from ..mailplay.test_hidden_information import cards_named
from ..notify.helpers import LINKS, Outbox, html_of, text_of

START = datetime(2026, 3, 27, 12, 0, tzinfo=timezone.utc)  # a Friday; Paris changes to summer time on Sunday 29
MINUTE = timedelta(minutes=1)


@pytest.fixture
def clock():
    return FakeClock(START)


@pytest.fixture
def mail():
    return Outbox()


@pytest.fixture
def api(store, clock, mail, monkeypatch):
    services = build_services(store, clock=clock, outlets=Outlets(mailer=mail, links=LINKS))
    monkeypatch.setattr(app_module.api, "services", lambda: services)
    with Client(app_module.app) as client:
        api = ApiClient(client, store)
        api.services = services
        yield api


def signup(api, name):
    reply = api.post("/v1/players", {"name": name, "email": f"{name.lower()}@example.org"})
    assert reply.status == 201, reply.body
    return reply.body


def prefer(api, player, **chosen):
    reply = api.request("PUT", "/v1/players/me/preferences", chosen, key=player["api_key"])
    assert reply.status == 200, reply.body
    return reply.body


def game_for(api, ann, bob, **options):
    """A game of Ann (seat 1, to move) and Bob, with a clock of 3 days a move."""
    return api.new_game(ann, [ann, bob], seed=7, options={"first_seat": 1, "time_control": {"per_move_days": 3},
                                                          **options})


def sweep(api):
    """The one-minute schedule's digest sweep, then the outbox consumer; the digests emailed."""
    before = len(api.mail.sent)
    done = api.services.digests.sweep()
    api.services.dispatcher.drain_outbox()
    return done, [m for m in api.mail.sent[before:] if m["X-Battleline-Message"].startswith("msg_digest_")]


def at(clock, moment):
    clock.advance(moment - clock.now())


@pytest.fixture
def players(api, mail):
    api.mail = mail
    ann, bob = signup(api, "Ann"), signup(api, "Bob")
    prefer(api, ann, time_zone="Europe/Paris", digest={"enabled": True, "time": "08:00"})
    return ann, bob


def turn(api, player, game_id):
    """The player plays their turn (a card, then the draw) and the outbox is drained."""
    view = api.view(player, game_id)
    mover = view["to_move"]
    while view["to_move"] == mover and view["status"] == "active":
        step = next(s for s in view["legal_steps"] if s["type"] != "resign")
        reply = api.act(player, game_id, view["version"], step)
        assert reply.status == 200, reply.body
        view = reply.body["view"]
    api.services.dispatcher.drain_outbox()


# ---------------------------------------------------------------- when it is sent


def test_digest_is_sent_at_the_chosen_local_time_across_a_dst_change(api, clock, players):
    ann, bob = players
    game = game_for(api, ann, bob)
    api.services.dispatcher.drain_outbox()
    at(clock, datetime(2026, 3, 28, 6, 59, tzinfo=timezone.utc))  # 07:59 in Paris (CET): not yet
    assert sweep(api)[1] == []
    clock.advance(MINUTE)  # 08:00 in Paris
    sent = sweep(api)[1]
    assert len(sent) == 1 and sent[0]["To"] == "ann@example.org"
    assert game["game_id"] in text_of(sent[0])
    at(clock, datetime(2026, 3, 29, 5, 59, tzinfo=timezone.utc))  # 07:59 in Paris, summer time (CEST) now
    assert sweep(api)[1] == []
    clock.advance(MINUTE)  # 08:00 in Paris, 06:00 UTC: an hour earlier in UTC than the day before
    assert len(sweep(api)[1]) == 1
    at(clock, datetime(2026, 3, 29, 7, 0, tzinfo=timezone.utc))  # 08:00 UTC would be 09:00 in Paris: nothing more
    assert sweep(api)[1] == []


def test_decision_a_digest_at_a_time_the_clocks_skip_is_sent_when_they_jump(api, clock, players):
    ann, bob = players
    prefer(api, ann, digest={"time": "02:30"})  # 02:30 does not exist in Paris on 29 March 2026
    game_for(api, ann, bob)
    at(clock, datetime(2026, 3, 28, 1, 30, tzinfo=timezone.utc))  # 02:30 CET on the 28th, an ordinary day
    assert len(sweep(api)[1]) == 1
    at(clock, datetime(2026, 3, 29, 0, 59, tzinfo=timezone.utc))  # 01:59 CET on the 29th, just before the jump
    assert sweep(api)[1] == []
    clock.advance(MINUTE * 31)  # 01:30 UTC: the clocks jumped from 02:00 to 03:00; it is 03:30 CEST
    assert len(sweep(api)[1]) == 1


def test_decision_a_digest_at_a_time_the_clocks_repeat_is_sent_once(api, clock, players):
    ann, bob = players
    at(clock, datetime(2026, 10, 24, 12, 0, tzinfo=timezone.utc))
    prefer(api, ann, digest={"time": "02:30"})  # 02:30 happens twice in Paris on 25 October 2026
    game_for(api, ann, bob)
    at(clock, datetime(2026, 10, 25, 0, 30, tzinfo=timezone.utc))  # the first 02:30 (CEST)
    assert len(sweep(api)[1]) == 1
    at(clock, datetime(2026, 10, 25, 1, 30, tzinfo=timezone.utc))  # the second 02:30 (CET)
    assert sweep(api)[1] == []
    at(clock, datetime(2026, 10, 26, 1, 30, tzinfo=timezone.utc))  # 02:30 CET the next day
    assert len(sweep(api)[1]) == 1


def test_no_digest_is_sent_when_no_game_awaits_the_move(api, clock, players):
    ann, bob = players
    prefer(api, bob, digest={"enabled": True, "time": "08:00"})  # Bob in UTC; Ann is to move, not Bob
    game_for(api, ann, bob)
    at(clock, datetime(2026, 3, 28, 8, 0, tzinfo=timezone.utc))
    done, sent = sweep(api)
    assert [m["To"] for m in sent] == ["ann@example.org"]  # Ann's was due at 07:00 UTC; Bob has nothing
    assert done == {"digests": 1, "empty": 1}
    assert api.services.store.get_player(bob["id"]).digest_at == "2026-03-29T08:00:00.000Z"  # tomorrow


def test_digest_lists_every_game_awaiting_the_move_with_deadline_in_local_time_and_a_link(api, clock, players):
    ann, bob = players
    cat = signup(api, "Cat")
    first, second = game_for(api, ann, bob), game_for(api, ann, cat)
    api.new_game(bob, [bob, ann], seed=7, options={"first_seat": 1})  # Bob to move: not Ann's
    at(clock, datetime(2026, 3, 28, 7, 0, tzinfo=timezone.utc))
    [email] = sweep(api)[1]
    text = text_of(email)
    assert email["Subject"] == "Daily digest: 2 games await your move"
    assert f"Battle Line with Bob (game {first['game_id']})" in text
    assert f"Battle Line with Cat (game {second['game_id']})" in text
    # Made at 12:00 UTC on the 27th with 3 days: due 12:00 UTC on the 30th, 14:00 in Paris (summer time by then).
    assert "Your move is due by Mar 30, 2026 14:00 CEST (2 days, 5 hours left)." in text
    assert f"{LINKS.base_url}/v1/games/{first['game_id']}/board?seat=" in text
    assert "/board?seat=" in html_of(email) and "Open the board" in html_of(email)


def test_digest_is_written_in_the_players_language(api, clock, players):
    ann, bob = players
    prefer(api, ann, language="ja", time_zone="Asia/Tokyo")
    game_for(api, ann, bob)
    at(clock, datetime(2026, 3, 27, 23, 0, tzinfo=timezone.utc))  # 08:00 in Tokyo on the 28th
    [email] = sweep(api)[1]
    assert email["Subject"] == "デイリーダイジェスト：あなたの手番の対局が1局あります"
    assert "2026年3月30日 21:00 JSTまでに指してください" in text_of(email)  # the deadline in Tokyo time


# ---------------------------------------------------------------- per-move emails


def your_turn_emails(api, to):
    return [m for m in api.mail.sent if m["To"] == to and "_your_turn_" in m["X-Battleline-Message"]]


def test_per_move_emails_are_suppressed_while_the_digest_is_on_and_sent_again_when_off(api, clock, players):
    ann, bob = players
    prefer(api, bob, digest={"enabled": True})
    game = game_for(api, ann, bob)
    api.services.dispatcher.drain_outbox()
    turn(api, ann, game["game_id"])  # Bob's move now: no email, the digest will list it
    assert your_turn_emails(api, "bob@example.org") == []
    prefer(api, bob, digest={"enabled": False})
    turn(api, bob, game["game_id"])
    turn(api, ann, game["game_id"])
    assert len(your_turn_emails(api, "bob@example.org")) == 1


def test_decision_reminders_of_a_deadline_still_come_at_once_with_the_digest_on(api, clock, players):
    ann, bob = players
    game_for(api, ann, bob)
    api.services.dispatcher.drain_outbox()
    clock.advance(timedelta(days=2, hours=1))  # less than 24 hours left
    assert api.services.clocks.sweep_clocks()["reminders"] == 1
    api.services.dispatcher.drain_outbox()
    assert any("_reminder_24h_" in m["X-Battleline-Message"] for m in api.mail.sent if m["To"] == "ann@example.org")


def test_decision_webhooks_are_unchanged_by_the_digest(api, players):
    from chalicelib.notify import messages
    from chalicelib.store.records import Message

    ann, _ = players
    player = api.services.store.get_player(ann["id"])
    turn_message = Message("m", "game.your_turn", ann["id"], {"seat": 1}, "2026-03-27T12:00:00.000Z")
    assert player.wants("webhook", "game.your_turn") and not messages.by_email(player, turn_message)
    assert not player.wants("webhook", messages.DIGEST)  # the digest is an email, never a webhook event


# ---------------------------------------------------------------- once, and rescheduled


def test_a_rerun_of_the_sweep_sends_nothing_twice(api, clock, players):
    ann, bob = players
    game_for(api, ann, bob)
    at(clock, datetime(2026, 3, 28, 7, 0, tzinfo=timezone.utc))
    store = api.services.store
    due = store.get_player(ann["id"]).digest_at
    assert len(sweep(api)[1]) == 1
    assert sweep(api)[1] == []  # the same minute again: not due any more
    # A sweeper that read the player before the first one wrote (or a crash before the next send
    # was saved): the day's mark stops it, and the next send still moves on.
    player = store.get_player(ann["id"])
    store.set_preferences(ann["id"], player.preferences, due)
    done, sent = sweep(api)
    assert sent == [] and done == {"digests": 0, "empty": 0}
    assert store.get_player(ann["id"]).digest_at == "2026-03-29T06:00:00.000Z"


def test_enabling_disabling_and_changing_the_time_reschedule_the_digest(api, clock, players):
    ann, _ = players
    store = api.services.store
    assert store.get_player(ann["id"]).digest_at == "2026-03-28T07:00:00.000Z"  # 08:00 in Paris tomorrow
    prefer(api, ann, digest={"time": "18:30"})
    assert store.get_player(ann["id"]).digest_at == "2026-03-27T17:30:00.000Z"  # 18:30 in Paris today
    prefer(api, ann, language="vi")  # nothing about the digest: the planned send stays
    assert store.get_player(ann["id"]).digest_at == "2026-03-27T17:30:00.000Z"
    prefer(api, ann, time_zone="America/New_York")
    assert store.get_player(ann["id"]).digest_at == "2026-03-27T22:30:00.000Z"  # 18:30 in New York (EDT)
    assert store.due_digests("2026-12-31T00:00:00.000Z") == [ann["id"]]
    body = prefer(api, ann, digest={"enabled": False})
    assert body["digest"] == {"enabled": False, "time": "18:30"}
    assert store.get_player(ann["id"]).digest_at is None
    assert store.due_digests("2026-12-31T00:00:00.000Z") == []  # out of the sweeper's index
    prefer(api, ann, digest={"enabled": True})
    assert store.get_player(ann["id"]).digest_at == "2026-03-27T22:30:00.000Z"


def test_preferences_show_the_digest_with_its_default(api):
    bob = signup(api, "Bob")
    reply = api.get("/v1/players/me/preferences", key=bob["api_key"])
    assert reply.body["digest"] == {"enabled": False, "time": "08:00"}


@pytest.mark.parametrize("time", ["08:10", "24:00", "8:00", "08:00:00", "", 800])
def test_a_digest_time_off_the_quarter_hour_is_refused_with_422(api, players, time):
    ann, _ = players
    reply = api.request("PUT", "/v1/players/me/preferences", {"digest": {"enabled": True, "time": time}},
                        key=ann["api_key"])
    assert reply.status == 422 and reply.body["code"] == "invalid_request"
    assert "digest" in reply.body["detail"] and "time" in reply.body["detail"]
    assert api.get("/v1/players/me/preferences", key=ann["api_key"]).body["digest"]["time"] == "08:00"


def test_unsubscribing_turns_the_digest_off(api, clock, players):
    ann, bob = players
    game_for(api, ann, bob)
    api.services.mailplay.unsubscribe(LINKS.unsubscribe_url(ann["id"]).rsplit("/", 1)[1])
    at(clock, datetime(2026, 3, 28, 7, 0, tzinfo=timezone.utc))
    assert sweep(api)[1] == []
    assert api.services.store.get_player(ann["id"]).digest_at is None


# ---------------------------------------------------------------- hidden information


def test_the_digest_never_shows_the_other_seats_hand(api, clock, players):
    ann, bob = players
    game = game_for(api, ann, bob)
    at(clock, datetime(2026, 3, 28, 7, 0, tzinfo=timezone.utc))
    [email] = sweep(api)[1]
    hidden = api.view(bob, game["game_id"])["state"]["hand"]  # Bob's hand: never in Ann's digest
    assert len(hidden) == 7
    known = cards_named("battleline")
    for content in (text_of(email), html_of(email)):
        words = re.sub(r"https?://\S+|href=\"[^\"]*\"", " ", content)
        for card in hidden:
            assert not any(p.search(words) for p in known[card]), card
    mine = set(api.view(ann, game["game_id"])["state"]["hand"])
    assert mine and not any(p.search(re.sub(r"https?://\S+", " ", text_of(email))) for c in mine for p in known[c])


def test_the_one_minute_schedule_sends_the_digests(api, clock, players, monkeypatch):
    from chalicelib import config

    ann, bob = players
    game_for(api, ann, bob)
    monkeypatch.setattr(config, "services", lambda: api.services)
    at(clock, datetime(2026, 3, 28, 7, 0, tzinfo=timezone.utc))
    app_module.clock_sweeper({"version": "0", "account": "1", "region": "us-east-1", "detail": {}, "source": "aws.events",
                              "detail-type": "Scheduled Event", "time": "2026-03-28T07:00:00Z", "id": "e",
                              "resources": []}, None)
    api.services.dispatcher.drain_outbox()
    assert [m["To"] for m in api.mail.sent if "msg_digest_" in m["X-Battleline-Message"]] == ["ann@example.org"]
