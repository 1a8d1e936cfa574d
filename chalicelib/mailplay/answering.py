"""Whether play by email answers a message, and how often (issue 34: mail loops).

Every email we send says it was sent by a machine (``Auto-Submitted: auto-generated``, RFC 3834),
so a well-behaved auto-responder does not answer it. In turn we never answer a message that a
machine sent or that asks not to be answered (:func:`never_answer`): an out-of-office reply or any
``Auto-Submitted`` other than ``no``, a bounce (a null return path, MAILER-DAEMON, a
``multipart/report``), ``Precedence: bulk``/``list``/``junk``, ``X-Autoreply``/``X-Autorespond``,
or ``X-Auto-Response-Suppress`` naming ``All``, ``OOF`` or ``AutoReply``.

And answers that are not moves are capped per address (:class:`AnswerCaps`, its counters in the
address's own partition, by its hash, with a TTL: docs/storage.md): refusals and how-to-play
answers at most :data:`PER_HOUR` an hour, none to an address whose last two messages could not be
read, a how-to-play answer (to the bare ``play@`` address) once a day. A redelivered message (same
Message-ID) is answered once. Emails about a move (your move, what was played) are never capped.
"""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta
from email.message import EmailMessage

from ..kernel.clock import Clock
from ..kernel.ids import hash_email
from .mailtext import address_of, header

PER_HOUR = 5  # refusals and how-to-play answers to one address in an hour
UNREAD_IN_A_ROW = 2  # after this many unreadable messages in a row, the next are not answered
BULK = ("bulk", "list", "junk")  # Precedence values never answered
SUPPRESSED = ("all", "oof", "autoreply")  # X-Auto-Response-Suppress values that ask for no answer
ANSWERED_DAYS = 7  # how long a message's "answered" mark is kept (SES redelivers within hours)


def _present(message: EmailMessage, name: str) -> bool:
    return any(key.lower() == name.lower() for key in message.keys())


def never_answer(message: EmailMessage, envelope_from: str | None = None) -> str | None:
    """Why ``message`` must not be answered (a machine sent it, or it asks for no answer), or None.
    ``envelope_from``: the SMTP envelope's sender, when the receiver tells it ("" for a bounce)."""
    auto = header(message, "Auto-Submitted").split(";")[0].strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    return_path = header(message, "Return-Path")
    if envelope_from is not None and not envelope_from.strip("<> "):
        return "a bounce (null envelope sender)"
    if _present(message, "Return-Path") and not return_path.strip("<> "):
        return "a bounce (null return path)"
    sender = address_of(header(message, "From")).lower()
    if sender.split("@")[0] in ("mailer-daemon", "postmaster") or return_path.lower().strip("<>").startswith(
            "mailer-daemon@"):
        return "a bounce (from MAILER-DAEMON)"
    if message.get_content_type() == "multipart/report":
        return "a delivery or read report (multipart/report)"
    precedence = header(message, "Precedence").lower()
    if precedence in BULK or precedence == "auto_reply":
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond"):
        if _present(message, name):
            return f"{name} present"
    suppress = {part.strip().lower() for part in header(message, "X-Auto-Response-Suppress").split(",")}
    if suppress & set(SUPPRESSED):
        return "X-Auto-Response-Suppress: " + ", ".join(sorted(suppress & set(SUPPRESSED)))
    return None


def message_hash(message: EmailMessage, raw: bytes, to: str = "") -> str:
    """What identifies a message when it is delivered again: the address it was read at (``to``: the same
    text sent to two games' reply addresses is two replies), its Message-ID and its body (after the
    headers, which a relay may add to), hashed."""
    parts = re.split(rb"\r?\n\r?\n", raw, maxsplit=1)
    body = parts[1] if len(parts) > 1 else raw
    return hashlib.sha256(to.lower().encode("utf-8", "replace") + b"\n"
                          + header(message, "Message-ID").encode("utf-8", "replace") + b"\n" + body).hexdigest()[:40]


class AnswerCaps:
    """The caps on answers to one address, kept in the store by the address's hash (never in clear)."""

    def __init__(self, store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def _expires(self, delta: timedelta) -> int:
        return int((self.clock.now() + delta).timestamp())

    def answered(self, address: str, message: str) -> bool:
        """Whether this message (:func:`message_hash`) from the address was answered already."""
        return self.store.mail_answered(hash_email(address), message)

    def mark_answered(self, address: str, message: str) -> None:
        self.store.mark_mail_answered(hash_email(address), message, self._expires(timedelta(days=ANSWERED_DAYS)))

    def read(self, address: str, unread: bool) -> bool:
        """Count a message that could (not) be read; False when its answer must not go: the address's
        last :data:`UNREAD_IN_A_ROW` messages could not be read either."""
        before = self.store.count_unread_mail(hash_email(address), unread, self._expires(timedelta(days=1)))
        return not unread or before < UNREAD_IN_A_ROW

    def may_answer(self, address: str) -> int:
        """One more refusal or how-to-play answer to the address this hour, if within :data:`PER_HOUR`:
        which one it is (:data:`PER_HOUR` for the hour's last); 0: none may go."""
        hour = self.clock.now().strftime("%Y-%m-%dT%H")
        return self.store.count_mail_answer(hash_email(address), hour, PER_HOUR, self._expires(timedelta(hours=2)))

    def first_today(self, address: str) -> bool:
        """The address's first how-to-play answer today (UTC): False for every later one that day."""
        day = self.clock.now().strftime("%Y-%m-%d")
        return 0 < self.store.count_mail_answer(hash_email(address), f"HOWTO#{day}", 1, self._expires(timedelta(days=2)))
