"""Anyone may send anything to the reply addresses: a header that cannot be parsed (a broken address, an
encoded word that is none, a Message-ID of "<@>") is read as its raw text, and the reader answers or
ignores the message; it never raises (in AWS a raising message fails its Lambda, is retried and ends in
the failure queue)."""

from __future__ import annotations

import random

import pytest

from tests.notify.helpers import LINKS, game_by_mail

BROKEN = [
    "<a@[1.2.3",
    "=?utf-8?B?!!!?= <<x@evil.example",
    "=?x-unknown?Q?=ZZ?= <ann@example.org>",
    "\"unterminated <ann@example.org>",
    "ann@example.org (comment",
    "<>",
    "<@>",
    "@",
    ",,,",
    "a@b@c",
    "=?utf-8?q?=00?=",
    "\udcff",
]


def raw(headers: dict[str, str], body: str = "play 5R 3") -> bytes:
    lines = [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n" + body + "\r\n").encode("utf-8", "surrogateescape")


@pytest.fixture
def mail(store):
    services, inbound, outbox, view, ann, bob = game_by_mail(store, "battleline")
    return inbound, LINKS.reply_address(view["game_id"], 1, 0)


@pytest.mark.parametrize("broken", BROKEN)
@pytest.mark.parametrize("where", ["From", "To", "Cc", "Message-ID", "Return-Path", "Auto-Submitted", "Precedence",
                                   "Content-Type"])
def test_a_header_that_cannot_be_parsed_is_ignored_or_answered_never_raised(mail, broken, where):
    inbound, address = mail
    for to in (address, "play@mail.example", "someone@else.example"):
        headers = {"From": "Ann <ann@example.org>", "To": to, "Subject": "Re", "Message-ID": "<m1@example.org>"}
        headers[where] = broken
        result = inbound.handle(raw(headers))
        assert result.outcome in ("applied", "refused", "ignored")


def test_the_seats_player_is_answered_though_its_message_id_is_malformed(mail):
    inbound, address = mail
    result = inbound.handle(raw({"From": "ann@example.org", "To": address, "Message-ID": "<@>"}, "paly 5R 3"))
    assert result.outcome == "refused" and result.reply is not None
    assert "<@>" not in str(result.reply["References"]) + str(result.reply["In-Reply-To"])  # not repeated


def test_random_header_bytes_never_raise(mail):
    inbound, address = mail
    rng = random.Random(7)
    alphabet = "<>@\"()[],;:=?\\ \t.abcAB-_=?utf-8?B?Q?" + "é我\udcff"
    for _ in range(300):
        headers = {"From": "ann@example.org", "To": address, "Message-ID": "<m@x>"}
        name = rng.choice(["From", "To", "Cc", "Message-ID", "Reply-To", "Return-Path", "Content-Type", "Subject"])
        headers[name] = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert inbound.handle(raw(headers)).outcome in ("applied", "refused", "ignored")


@pytest.mark.parametrize("head, body", [
    (b"Content-Type: text/plain; charset=idna\r\nContent-Transfer-Encoding: 8bit\r\n", b">yl\xe1\x9f\xd5play 10r 1"),
    (b"Content-Type: text/plain; charset=undefined\r\nContent-Transfer-Encoding: 8bit\r\n", b"\xff\xfeplay 10r 1"),
    (b"Message-ID: <@>\xe6\r\n", b"play 10r 1"),
])
def test_codecs_without_replace_and_8bit_headers_never_raise(mail, head, body):
    """Some codecs take no errors="replace" (idna, undefined), and an 8-bit byte in a header reads as a lone
    surrogate: the reader answers such a reply."""
    inbound, address = mail
    raw = b"From: ann@example.org\r\nTo: " + address.encode() + b"\r\nSubject: Re\r\n" + head + b"\r\n" + body
    assert inbound.handle(raw).outcome in ("applied", "refused", "ignored")


@pytest.mark.parametrize("sender", [b"<a@[\xff1.2.3", b"zz\x1dq@example.com", b"zz\x1cq@example.com"])
def test_a_bare_address_mail_from_an_address_that_cannot_be_written_back_is_ignored(mail, sender):
    inbound, _address = mail
    raw = b"From: " + sender + b"\r\nTo: play@mail.example\r\nSubject: hi\r\n\r\nhello\r\n"
    assert inbound.handle(raw).outcome in ("refused", "ignored")


def test_a_reply_address_that_does_not_read_beside_one_that_does_is_passed_over(mail):
    """A To header with a forged or stale play+ address before the real one: the real one is read."""
    inbound, address = mail
    forged = address.replace(".1.0.", ".2.0.")
    raw = (f"From: ann@example.org\r\nTo: {forged}, {address}\r\nSubject: Re\r\nMessage-ID: <two@x.org>\r\n\r\n"
           "paly 5R 3\r\n").encode()
    assert inbound.handle(raw).outcome == "refused"  # read (and refused for its typo), not ignored
