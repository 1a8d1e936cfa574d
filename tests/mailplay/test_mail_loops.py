"""Mail loops and the headers of every email (issue 34, items 7, 11 and 12): every email we send
says ``Auto-Submitted: auto-generated``; a machine's message (an out-of-office reply, a bounce,
bulk mail) is never answered; refusals and how-to-play answers are capped per address; the
invitation to an address with no player has the headers of every email; a reply to the bare
``play@`` address is answered with how to play, once a day. Raw messages as bytes."""

from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from urllib.parse import unquote, urlsplit

import pytest

from chalicelib.config import build_services
from chalicelib.kernel.ids import hash_email
from chalicelib.mailplay import pages
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, EmailSeat, PlayerSeat
from chalicelib.notify.dispatcher import Outlets
from chalicelib.notify.email import compose_digest, compose_invitation, compose_recovery
from chalicelib.notify.mail import FileMailbox
from chalicelib.store.records import Message, Player

from tests.fakes import FakeClock, start_game
from tests.notify.helpers import LINKS, Outbox, text_of


@pytest.fixture
def game_by_mail(store):
    """As tests.notify.helpers.game_by_mail, on a clock the test moves (the caps count by the hour and day)."""
    clock = FakeClock(datetime(2026, 11, 28, 3, 0, tzinfo=timezone.utc))
    outbox = Outbox()
    services = build_services(store, clock=clock, outlets=Outlets(mailer=outbox, links=LINKS))
    ann, bob = (services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org"), None).body["api_key"]) for name in ("Ann", "Bob"))
    view = start_game(services, ann, CreateGameRequest(game="battleline", options={"first_seat": 1}, seed=5,
                                                       seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]),
                      [ann, bob])
    return services, services.inbound, outbox, view, ann, bob


def raw(sender: str, to: str, text: str, message_id: str, *headers: str) -> bytes:
    """A reply as a mail client sends it: headers, a blank line, a plain-text body (CRLF)."""
    lines = [f"From: {sender}", f"To: {to}", "Subject: Re: Battle Line", f"Message-ID: {message_id}",
             "Date: Sat, 28 Nov 2026 03:00:00 +0000", "MIME-Version: 1.0",
             "Content-Type: text/plain; charset=utf-8", *headers, "", text, ""]
    return "\r\n".join(lines).encode()


def address(game) -> str:
    return LINKS.reply_address(game["game_id"], 1, 0)


def version(services, game) -> int:
    return services.games.view_for_seat(game["game_id"], 1)["version"]


# ---------------------------------------------------------------- item 7: every email says it is a machine's


def test_issue34_item7_every_email_we_send_says_auto_submitted(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    services.dispatcher.drain_outbox()  # the game's start: its invitation and your-move emails
    assert outbox.sent and all(m["Auto-Submitted"] == "auto-generated" for m in outbox.sent)
    # An answer to a reply (a refusal here) and the how-to-play answer.
    answer = inbound.handle(raw("ann@example.org", address(game), "hello", "<a1@example.org>")).reply
    how_to = inbound.handle(raw("ann@example.org", "play@mail.example", "hello", "<a2@example.org>")).reply
    player = Player("p_1", "Ann", "ann@example.org", "2026-11-28T00:00:00.000Z")
    invitation = compose_invitation({"game_id": "g_1", "game": "battleline", "seat": 2,
                                     "invite_email": "cat@example.org"}, "Ann", LINKS)
    recovery = compose_recovery(player, "http://play.example/v1/recover/x", 30, "mail.example")
    digest = compose_digest(Message("m_1", "digest", player.id, {"games": []}, "2026-11-28T00:00:00.000Z"),
                            player, LINKS)
    for email in (answer, how_to, invitation, recovery, digest):
        assert email["Auto-Submitted"] == "auto-generated"


def test_issue34_item7_a_transport_marks_an_email_no_composer_marked(tmp_path):
    from email.message import EmailMessage
    email = EmailMessage()
    email["From"], email["To"], email["Subject"] = "play@mail.example", "ann@example.org", "Hi"
    email.set_content("hi")
    FileMailbox(tmp_path).send(email)
    [written] = tmp_path.glob("*.eml")
    assert message_from_bytes(written.read_bytes(), policy=policy.default)["Auto-Submitted"] == "auto-generated"


# ---------------------------------------------------------------- item 7: never answered


NEVER_ANSWERED = {
    "out_of_office": ("ann@example.org", ["Auto-Submitted: auto-replied"]),
    "auto_generated": ("ann@example.org", ["Auto-Submitted: auto-generated"]),
    "auto_notified": ("ann@example.org", ["Auto-Submitted: auto-notified; owner-email=ann@example.org"]),
    "null_return_path": ("ann@example.org", ["Return-Path: <>"]),
    "mailer_daemon": ("MAILER-DAEMON@mx.example.org", []),
    "precedence_bulk": ("ann@example.org", ["Precedence: bulk"]),
    "precedence_list": ("ann@example.org", ["Precedence: list"]),
    "precedence_junk": ("ann@example.org", ["Precedence: junk"]),
    "x_autoreply": ("ann@example.org", ["X-Autoreply: yes"]),
    "x_autorespond": ("ann@example.org", ["X-Autorespond: Out of office"]),
    "outlook_suppress_all": ("ann@example.org", ["X-Auto-Response-Suppress: All"]),
    "outlook_suppress_oof": ("ann@example.org", ["X-Auto-Response-Suppress: DR, OOF, AutoReply"]),
}


@pytest.mark.parametrize("case", sorted(NEVER_ANSWERED))
def test_issue34_item7_a_machines_message_is_never_answered(game_by_mail, case):
    services, inbound, outbox, game, ann, bob = game_by_mail
    sender, headers = NEVER_ANSWERED[case]
    sent = len(outbox.sent)
    text = "I am out of the office until Monday.\r\n\r\n> Your move"
    for to in (address(game), "play@mail.example"):  # a game's reply address, or the bare one
        result = inbound.handle(raw(sender, to, text, f"<{case}-{to}@example.org>", *headers))
        assert result.outcome == "ignored" and result.reply is None and "never answered" in result.reason
    assert len(outbox.sent) == sent and version(services, game) == 0


def test_issue34_item7_a_delivery_status_report_is_never_answered(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    bounce = (b"From: Mail Delivery System <mailer@mx.example.org>\r\nTo: " + address(game).encode() + b"\r\n"
              b"Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <dsn1@mx.example.org>\r\n"
              b"MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n"
              b"\r\n--b\r\nContent-Type: text/plain\r\n\r\nI'm sorry to have to inform you that your message could "
              b"not be delivered.\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; "
              b"mx.example.org\r\n\r\nFinal-Recipient: rfc822; ann@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\n"
              b"--b--\r\n")
    result = inbound.handle(bounce)
    assert result.outcome == "ignored" and result.reply is None and "multipart/report" in result.reason
    # A null envelope sender (SES tells it) is a bounce whatever the headers say.
    plain = raw("ann@example.org", address(game), "hello", "<n1@example.org>")
    assert inbound.handle(plain, envelope_from="").outcome == "ignored"


def test_issue34_item7_auto_submitted_no_is_a_person_and_is_answered(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    card = game["state"]["hand"][0]
    result = inbound.handle(raw("ann@example.org", address(game), f"play {card} 3", "<p1@example.org>",
                                "Auto-Submitted: no"))
    assert result.outcome == "applied" and result.reply is not None and version(services, game) == 1


# ---------------------------------------------------------------- item 7: the caps on answers


def test_issue34_item7_refusals_are_answered_at_most_five_an_hour_an_address(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    card = next(f"{n}{c}" for c in "RGBYOP" for n in range(1, 11) if f"{n}{c}" not in game["state"]["hand"])
    wrong = f"play {card} 3"  # read, but refused by the rules (not in Ann's hand)
    results = [inbound.handle(raw("ann@example.org", address(game), wrong, f"<w{i}@example.org>"))
               for i in range(7)]
    assert [r.reply is not None for r in results] == [True] * 5 + [False] * 2
    assert all("refusals to this address this hour" in r.reason for r in results[5:])
    # The fifth answer says it is the hour's last (the sixth reply's silence is no surprise); the others do not.
    last = "That is the last reply this hour that gets an answer when it cannot be played (at most 5 an hour"
    assert [last in text_of(r.reply) for r in results[:5]] == [False] * 4 + [True]
    # The next hour, one more is answered; a move played is always answered (never capped).
    services.games.moves.clock.advance(timedelta(hours=1))
    assert inbound.handle(raw("ann@example.org", address(game), wrong, "<w8@example.org>")).reply is not None
    played = inbound.handle(raw("ann@example.org", address(game), f"play {game['state']['hand'][0]} 3",
                                "<ok@example.org>"))
    assert played.outcome == "applied" and played.reply is not None


def test_issue34_item7_no_answer_after_two_unreadable_messages_in_a_row(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    results = [inbound.handle(raw("ann@example.org", address(game), f"blah blah {i}", f"<u{i}@example.org>"))
               for i in range(4)]
    assert [r.reply is not None for r in results] == [True, True, False, False]
    assert "could not be read either" in results[2].reason
    # A message that can be read ends the run: it is answered, and so is the next unreadable one.
    card = game["state"]["hand"][0]
    assert inbound.handle(raw("ann@example.org", address(game), f"play {card} 3", "<r1@example.org>")).reply
    services.games.moves.clock.advance(timedelta(hours=1))  # (out of the hour's refusals)
    assert inbound.handle(raw("ann@example.org", address(game), "blah", "<u9@example.org>")).reply is not None


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_issue34_item7_the_caps_keep_no_address_in_clear(game_by_mail, store):
    services, inbound, outbox, game, ann, bob = game_by_mail
    for i in range(3):
        inbound.handle(raw("ann@example.org", address(game), "blah", f"<c{i}@example.org>"))
    inbound.handle(raw("ann@example.org", "play@mail.example", "hello", "<c9@example.org>"))
    items = store.client.scan(TableName=store.table)["Items"]
    ours = [i for i in items if i["PK"]["S"] == f"EMAIL#{hash_email('ann@example.org')}"
            and not i["SK"]["S"].startswith(("PLAYER#", "STATUS"))]
    assert {i["SK"]["S"].split("#")[0] for i in ours} >= {"ANSWERS", "UNREAD", "ANSWERED"}
    assert all("expires_at" in i for i in ours)  # a TTL on each
    assert "ann@example.org" not in str(ours)


# ---------------------------------------------------------------- item 11: a redelivery


def test_issue34_item11_a_refused_reply_delivered_again_is_answered_once(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    message = raw("ann@example.org", address(game), "blah", "<again@example.org>")
    assert inbound.handle(message).reply is not None
    again = inbound.handle(b"Received: from mx2.example.org\r\n" + message)
    assert again.outcome == "ignored" and again.reply is None and "delivered again" in again.reason


# ---------------------------------------------------------------- item 12: invitations and the bare address


def test_issue34_item12_an_invitation_to_an_address_has_the_headers_of_every_email(game_by_mail, store):
    services, inbound, outbox, game, ann, bob = game_by_mail
    services.creation.create_game(ann, CreateGameRequest(game="battleline", seats=[
        PlayerSeat(player_id=ann.id), EmailSeat(email="cat@example.org")]), None)
    services.dispatcher.drain_outbox()
    [invitation] = [m for m in outbox.sent if m["To"] == "cat@example.org"]
    assert invitation["Reply-To"] == "play@mail.example"
    assert invitation["Auto-Submitted"] == "auto-generated"
    assert invitation["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = invitation["List-Unsubscribe"].strip("<>")
    assert url.startswith("http://play.example/v1/unsubscribe/") and "cat" not in unquote(url)
    # One click stops all mail to the address (as a bounce does, by its hash): the next invitation is not sent.
    token = unquote(urlsplit(url).path.rsplit("/", 1)[1])
    assert pages.unsubscribe(services.mailplay, token).status == 200
    assert store.email_stop(hash_email("cat@example.org")).reason == "unsubscribed"
    sent = len(outbox.sent)
    services.creation.create_game(ann, CreateGameRequest(game="battleline", seats=[
        PlayerSeat(player_id=ann.id), EmailSeat(email="cat@example.org")]), None)
    services.dispatcher.drain_outbox()
    assert [m for m in outbox.sent[sent:] if m["To"] == "cat@example.org"] == []


def test_issue34_item12_a_reply_to_the_bare_address_is_answered_once_a_day_with_how_to_play(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    to_invitation = raw("Cat <cat@example.org>", "play@mail.example", "Sure, count me in!", "<i1@example.org>",
                        "In-Reply-To: <inv@mail.example>")
    result = inbound.handle(to_invitation)
    answer = result.reply
    assert result.outcome == "refused" and answer["To"] == "cat@example.org"
    assert "reply to the latest email of your game" in text_of(answer) and "invitation" in text_of(answer)
    assert answer["In-Reply-To"] == "<i1@example.org>" and answer["Auto-Submitted"] == "auto-generated"
    later = inbound.handle(raw("cat@example.org", "play@mail.example", "hello?", "<i2@example.org>"))
    assert later.outcome == "ignored" and later.reply is None
    services.games.moves.clock.advance(timedelta(days=1))
    assert inbound.handle(raw("cat@example.org", "play@mail.example", "hi", "<i3@example.org>")).reply is not None
    # A player's address: in their language, with their List-Unsubscribe.
    mine = inbound.handle(raw("ann@example.org", "play@mail.example", "hi", "<i4@example.org>")).reply
    assert mine["List-Unsubscribe"] == f"<{LINKS.unsubscribe_url(ann.id)}>"


def test_issue34_item12_answers_to_replies_carry_list_unsubscribe_and_auto_submitted(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    card = game["state"]["hand"][0]
    for text, message_id in ((f"play {card} 3", "<h1@example.org>"), ("blah", "<h2@example.org>")):
        answer = inbound.handle(raw("ann@example.org", address(game), text, message_id)).reply
        assert answer["List-Unsubscribe"] == f"<{LINKS.unsubscribe_url(ann.id)}>"
        assert answer["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert answer["Auto-Submitted"] == "auto-generated"
