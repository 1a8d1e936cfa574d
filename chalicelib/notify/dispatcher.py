"""The dispatcher: the outbox consumer. The table's stream is the outbox: for each change it
reports (a game version committed, an item saved with messages) it brings the game's head up to
date and turns each message into deliveries, and it makes their attempts.

At least once, with a stable id: a message becomes one delivery per channel that wants it (each
webhook endpoint, email). A delivery's first attempt is made at once, and then recorded (one
write: delivered, or pending in the ``due`` index for a retry); a delivery already recorded is
not made again, and a change is acknowledged only once all of it was handled, so a crash
anywhere leaves the change in the stream (Lambda retries the record; the local worker reads it
again), or a pending delivery for the retries. Every attempt of a delivery carries the message's
id as ``webhook-id``, so receivers can drop the repeat a crash between sending and recording
may cause.

A slow receiver costs the others nothing: a change's first attempts are made concurrently, one
lane per endpoint (notify/lanes.py: ``LANES`` at once; an endpoint's messages stay in order in its
lane), each waiting at most ``FIRST_TIMEOUT_SECONDS`` for its answer and all of them within that
much of the change's time; an endpoint that did not answer in time gets its other first attempts
for ``COOL_OFF`` on the retry schedule, and an attempt the change has no time left for goes there
too: recorded pending, with no attempt, due at once. The stream consumer in AWS also stops making
first attempts inline when its invocation nears its timeout (``first_attempts_until``), so a batch
ends in time whatever the endpoints do.

It runs as the DynamoDB Streams consumer and a scheduled retry sweep in AWS, and as the
``make serve`` worker locally.
"""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import dataclass, replace
from email.message import EmailMessage
from email.utils import parseaddr
from datetime import datetime, timedelta, timezone
from random import Random
from typing import Callable

from ..games.base import RulesUnavailable
from ..kernel import observability
from ..kernel.ids import hash_email
from ..kernel.i18n import in_language, speaking
from ..kernel.clock import Clock, SystemClock, iso
from ..store.records import Attempt, Change, Delivery, Player
from ..store.protocol import Store
from . import confirmations, messages
from .email import compose, compose_digest, compose_tournament, compose_invitation, compose_recovery
from ..presenting.links import Links
from .mail import Mailer
from ..store.records import Message
from .lanes import Lanes, Post, Sender
from .webhook_attempts import WebhookAttempts
from .webhooks import TIMEOUT_SECONDS, SendResult, SigningKeys, http_send, next_wait, retry_after

logger = logging.getLogger("battleline.notify")

LEASE = timedelta(seconds=60)  # an attempt in progress holds its delivery this long
# How often a change of the stream is tried before it is given up, as the stream consumer in AWS does
# (infra/stack.py: maximum_retry_attempts=5, then the OutboxFailures queue): the first try and 5 retries.
CHANGE_ATTEMPTS = 1 + 5
RETRIES_SECONDS = 30.0  # a run of the retries makes its requests within this (its function stops at 50 s)

# (game_id, seat) -> that seat's view with ``recent``, what happened since its last move, or None:
# services/games.py's Games.story (wiring.notifications_area serves it).
Viewer = Callable[[str, int], dict | None]
EMAIL_CHANNEL = "email-"  # an email delivery's endpoint id is "email-<player_id>"
INVITATION_CHANNEL = "invitation-"  # an invitation by email, to an address that is no player yet: "invitation-<game_id>"
RECOVERY_CHANNEL = "recovery-"  # an account recovery link by email: "recovery-<player_id>"
RECOVERY_MINUTES = 30  # as services/recovery.py's LINK_MINUTES (the notifier does not import services)


def envelope(message: Message) -> str:
    """The body every delivery of a message sends: ``{type, timestamp, data}``."""
    return json.dumps({"type": message.type, "timestamp": message.created_at, "data": message.data},
                      separators=(",", ":"))


def what_change(change: Change) -> str:
    """A change of the stream as the log names it, the same each time it is read: its game version and
    the ids of the messages saved with it."""
    parts = []
    if change.committed is not None:
        game = change.committed.game
        parts.append(f"game {game.id} version {game.version}" + (f" revision {game.revision}" if game.revision else ""))
    if change.messages:
        parts.append("messages " + ", ".join(m.id for m in change.messages))
    return "the change of " + ("; ".join(parts) or "nothing")


@dataclass(frozen=True)
class Outlets:
    """What the dispatcher delivers through, chosen before the services are built (a test's own:
    a fake sender, a mailbox, its links); ``chalicelib.wiring``'s notifications area builds the
    dispatcher whole from them, with the server's side (a seat's view, the handlers)."""

    send: Sender = http_send
    rng: Random | None = None
    allow_private: bool | None = None
    mailer: Mailer | None = None
    links: Links | None = None
    signing: SigningKeys | None = None


class Dispatcher(WebhookAttempts):
    def __init__(self, store: Store, clock: Clock | None = None, send: Sender = http_send,
                 rng: Random | None = None, allow_private: bool | None = None,
                 mailer: Mailer | None = None, links: Links | None = None,
                 signing: SigningKeys | None = None, *, viewer: Viewer | None = None,
                 handlers: dict[str, Callable[[Message], None]] | None = None) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self.rng = rng or Random()
        self.mailer = mailer
        self.links = links
        # The key that derives webhook signing secrets: the links' webhook key (Links.key), which a
        # rotation of the link keys never changes.
        self.signing = signing or SigningKeys(links.key if links else secrets.token_urlsafe(32))
        self.viewer = viewer  # the games' view of a seat, for emails (None: no email needs one)
        # Messages for the server itself (a finished game to settle, a bot's turn, a tournament's
        # games), by type (``config.build_services``' notifications area says which). They ride the
        # outbox so that none is lost.
        self.handlers: dict[str, Callable[[Message], None]] = dict(handlers or {})
        self._failures: dict[str, int] = {}  # a change that failed (drain_outbox): how many times so far
        self.lanes = Lanes(send, allow_private)  # the webhook requests, side by side
        # The stream consumer's invocation: no first attempt is made inline after this (``lanes.ticks``);
        # notify/stream.py sets it from the time Lambda leaves it. None: no such bound.
        self.first_attempts_until: float | None = None

    @classmethod
    def through(cls, store: Store, clock: Clock | None, outlets: Outlets, *, viewer: Viewer | None = None,
                handlers: dict[str, Callable[[Message], None]] | None = None) -> "Dispatcher":
        """The dispatcher on ``outlets``, whole: its server side given at once."""
        return cls(store, clock, send=outlets.send, rng=outlets.rng, allow_private=outlets.allow_private,
                   mailer=outlets.mailer, links=outlets.links, signing=outlets.signing, viewer=viewer,
                   handlers=handlers)

    def now(self) -> datetime:
        return self.clock.now().astimezone(timezone.utc)

    # ------------------------------------------------------------------ messages

    def drain_outbox(self) -> int:
        """Handle every change the table's stream holds since the last call (the local worker's loop,
        and the tests); returns how many messages were dispatched. A change that fails is raised and
        comes again next time, as in AWS; after ``CHANGE_ATTEMPTS`` tries it is given up, logged once,
        and the changes after it go on (AWS sends it to the OutboxFailures queue), whatever the store."""
        return sum(self.store.changes(self._at_most_retried))

    def _at_most_retried(self, change: Change) -> int:
        which = what_change(change)
        try:
            sent = self.handle(change)
        except Exception:
            tried = self._failures.pop(which, 0) + 1
            if tried < CHANGE_ATTEMPTS:
                self._failures[which] = tried
                raise
            logger.exception("outbox: gave up %s after %s attempts, as the stream consumer in AWS does (there it "
                             "goes to the OutboxFailures queue); the next changes go on", which, tried)
            return 0
        self._failures.pop(which, None)
        return sent

    def handle(self, change: Change) -> int:
        """One change of the stream: the game's head follows a committed version, then every message
        the version implies or the item carries is dispatched (not to a player the version names
        quiet: they can be told nothing), each receiver looked up once. Safe to repeat."""
        sent = list(change.messages)
        if change.committed is not None:
            self.store.project(change.committed)
            quiet = {s.player_id for s in change.committed.game.seats if s.quiet}
            sent += [m for m in messages.for_committed(change.committed) if m.player_id not in quiet]
        targets: dict[str, tuple] = {}
        posts: list[Post] = []
        for message in sent:
            self.dispatch(message, targets, posts)
        self.first_attempts(posts)
        return len(sent)

    def dispatch(self, message: Message, targets: dict[str, tuple] | None = None,
                 posts: list[Post] | None = None) -> None:
        """One delivery per channel the receiver wants this event on (each webhook endpoint, and
        email), each tried at once; what a previous run of this message recorded is not tried again.
        ``targets`` keeps each receiver's lookup for the other messages of the same change; ``posts``
        gathers its webhook first attempts, made together by :meth:`first_attempts` (without it,
        this message's are made before it returns)."""
        if posts is None:
            posts = []
            self.dispatch(message, targets, posts)
            self.first_attempts(posts)
            return
        observability.tag(game_id=message.data.get("game_id"), seat=message.data.get("seat"))
        handler = self.handlers.get(message.type)
        if handler is not None:
            handler(message)
            return
        now = iso(self.now())
        if message.type == messages.RECOVERY:
            if self.mailer is not None:
                delivery = Delivery(RECOVERY_CHANNEL + message.player_id, message.id, message.player_id, message.type,
                                    envelope(message), "pending", [], now, now)
                if self._not_recorded(delivery):
                    self.attempt_recovery(delivery, first=True)
            return
        if message.data.get("invite_email") and self.mailer is not None:
            delivery = Delivery(INVITATION_CHANNEL + message.data["game_id"], message.id, "", message.type,
                                envelope(message), "pending", [], now, now)
            if self._not_recorded(delivery):
                self.attempt_invitation(delivery, first=True)
            return
        targets = {} if targets is None else targets
        if message.player_id not in targets:
            targets[message.player_id] = self.store.notification_targets(message.player_id)
        player, endpoints = targets[message.player_id]
        if player is None:
            return
        if player.wants("webhook", message.type):
            # Every endpoint subscribed, a disabled one too: its delivery is recorded as failed
            # ("the endpoint is disabled") without a request, so that it can be redelivered.
            for endpoint in endpoints:
                if endpoint.wants(message.type):
                    delivery = Delivery(endpoint.id, message.id, message.player_id, message.type, envelope(message),
                                        "pending", [], now, now)
                    if self._not_recorded(delivery):
                        prepared = self._prepare(delivery, endpoint, first=True)
                        if isinstance(prepared, Post):
                            posts.append(prepared)
        if player.email and messages.by_email(player, message) and self.mailer is not None:
            delivery = Delivery(EMAIL_CHANNEL + player.id, message.id, player.id, message.type, envelope(message),
                                "pending", [], now, now)
            if self._not_recorded(delivery):
                self.attempt_email(delivery, first=True, player=player)

    def _not_recorded(self, delivery: Delivery) -> bool:
        """Not made by an earlier run of the same change (seconds ago at least: an eventually
        consistent read is enough)."""
        return self.store.get_delivery(delivery.webhook_id, delivery.msg_id, consistent=False) is None

    # ------------------------------------------------------------------ attempts

    def run_due(self) -> int:
        """Make every attempt that is due (retries, and first attempts deferred or a crash
        interrupted). The webhooks' go out as a change's first attempts do, one lane per endpoint,
        ``LANES`` at once, each waiting ``TIMEOUT_SECONDS`` at most, all within ``RETRIES_SECONDS``
        (the schedule's function stops at 50 s): one that did not fit, or whose endpoint just timed
        out, is made by a later run, when its lease is over."""
        count = 0
        posts: list[Post] = []
        for delivery in self.store.due_deliveries(iso(self.now())):
            if delivery.webhook_id.startswith(RECOVERY_CHANNEL):
                self.attempt_recovery(delivery)
            elif confirmations.is_confirmation(delivery.webhook_id):
                self.attempt_confirmation(delivery)
            elif delivery.webhook_id.startswith(INVITATION_CHANNEL):
                self.attempt_invitation(delivery)
            elif delivery.webhook_id.startswith(EMAIL_CHANNEL):
                self.attempt_email(delivery)
            else:
                prepared = self._prepare(delivery, self.store.get_webhook(delivery.player_id, delivery.webhook_id),
                                         first=False)
                if isinstance(prepared, Post):
                    posts.append(prepared)
            count += 1
        if posts:
            self.lanes.run(posts, self.lanes.ticks() + RETRIES_SECONDS, TIMEOUT_SECONDS, cool_off=False)
            for post in posts:
                self._conclude(post)
        return count

    def attempt_email(self, delivery: Delivery, *, first: bool = False, player: Player | None = None) -> Delivery | None:
        """Render the email from the receiver's view now, and send it (a retry once it wins the lease).
        ``player``: the receiver as the dispatch just read them (else they are read now)."""
        leased, now = self._lease_to_mail(delivery, first, needs_viewer=True)
        if leased is None:
            return None
        body = json.loads(delivery.body)
        message = Message(delivery.msg_id, body["type"], delivery.player_id, body["data"], body["timestamp"])
        player = player or self.store.get_player(delivery.player_id)
        if message.type == messages.DIGEST:  # no one game: its games' links and deadlines
            if player is None or not player.email:
                return self._settle(leased, "failed", None, Attempt(iso(now), None, "no player or email"), first)
            return self._mail(leased, now, lambda: in_language(player.language, lambda: compose_digest(
                message, player, self.links)), first)
        if message.type in messages.TOURNAMENT_NEWS:  # no one game: a tournament's round or end
            if player is None or not player.email:
                return self._settle(leased, "failed", None, Attempt(iso(now), None, "no player or email"), first)
            try:
                with speaking(player.language):
                    views = [self.viewer(g["game_id"], g["seat"]) for g in message.data.get("games", [])]
            except RulesUnavailable as error:
                return self._unviewable(leased, now, error, first)
            return self._mail(leased, now, lambda: in_language(player.language, lambda: compose_tournament(
                message, player, [v for v in views if v is not None], self.links)), first)
        try:
            with speaking(player.language if player else None):  # the view's sentences too (its recap)
                view = self.viewer(message.data["game_id"], message.data["seat"])
        except RulesUnavailable as error:
            return self._unviewable(leased, now, error, first)
        if player is None or not player.email or view is None:
            return self._settle(leased, "failed", None, Attempt(iso(now), None, "no player, email or game"), first)
        if message.type in ("game.your_turn", "game.reminder") and view["to_move"] != message.data["seat"]:
            return self._settle(leased, "delivered", None, Attempt(iso(now), None, "skipped: no longer your move"),
                                first)
        # A reply's confirmation still held for this seat goes first in this email (and not alone).
        held = confirmations.held(self.store, player.id, message.data["game_id"], message.data["seat"])
        said = confirmations.headline(held) if held is not None else None
        settled = self._mail(leased, now, lambda: in_language(player.language, lambda: compose(
            message, player, view, self.links, confirmed=said)), first)
        if held is not None and settled is not None and settled.status == "delivered":
            self.store.update_delivery(replace(held, status="delivered", next_attempt_at=None,
                                               attempts=[Attempt(iso(now), 250, f"in {message.id}")],
                                               version=held.version + 1), held.version)
        return settled

    def attempt_confirmation(self, delivery: Delivery) -> Delivery | None:
        """A reply's confirmation that no email of its game followed within its window: sent alone
        (notify/confirmations.py), with the game as the seat sees it now."""
        leased, now = self._lease_to_mail(delivery, False, needs_viewer=True)
        if leased is None:
            return None
        data = json.loads(delivery.body)
        player = self.store.get_player(delivery.player_id)
        try:
            with speaking(player.language if player else None):
                view = self.viewer(data["game_id"], data["seat"])
        except RulesUnavailable as error:
            return self._unviewable(leased, now, error)
        if player is None or not player.email or view is None:
            return self._settle(leased, "failed", None, Attempt(iso(now), None, "no player, email or game"))
        message = Message(f"msg_{data['game_id']}_{data['version']}_confirmed_{data['seat']}", confirmations.CONFIRMED,
                          player.id, {"game_id": data["game_id"], "seat": data["seat"]}, delivery.created_at)
        return self._mail(leased, now, lambda: in_language(player.language, lambda: compose(
            message, player, view, self.links, confirmed=data["headline"])))

    def _lease_to_mail(self, delivery: Delivery, first: bool, *,
                       needs_viewer: bool = False) -> tuple[Delivery | None, datetime]:
        """The delivery this process may mail now (a first attempt is its own; a retry must win
        the lease), and now; None when this process sends no email (the worker does) or another
        attempt holds the lease."""
        now = self.now()
        if self.mailer is None or self.links is None or (needs_viewer and self.viewer is None):
            return None, now
        return (delivery if first else self._lease(delivery, now)), now

    def attempt_invitation(self, delivery: Delivery, *, first: bool = False) -> Delivery | None:
        leased, now = self._lease_to_mail(delivery, first)
        if leased is None:
            return None
        data = json.loads(delivery.body)["data"]
        inviter = self.store.get_player(data["created_by"])
        # The address has no language of its own yet: it is written in the inviter's (who knows whom
        # they invite); the page its link opens speaks the browser's.
        spoken = inviter.language if inviter else None
        try:
            with speaking(spoken):
                view = self.viewer(data["game_id"], data["seat"]) if self.viewer else None  # for the players' names
        except RulesUnavailable as error:
            return self._unviewable(leased, now, error, first)
        return self._mail(leased, now, lambda: in_language(spoken, lambda: compose_invitation(
            data, inviter.name if inviter else "A player", self.links, view)), first)

    def attempt_recovery(self, delivery: Delivery, *, first: bool = False) -> Delivery | None:
        """An account recovery email, in the player's language; its link is signed now (the delivery
        stores only the request's id: nothing that works as a link)."""
        leased, now = self._lease_to_mail(delivery, first)
        if leased is None:
            return None
        player = self.store.get_player(delivery.player_id)
        if player is None or not player.email:
            return self._settle(leased, "failed", None, Attempt(iso(now), None, "no player or email"), first)
        url = self.links.recovery_url(json.loads(delivery.body)["data"]["request_id"], player.id)
        return self._mail(leased, now, lambda: in_language(player.language, lambda: compose_recovery(
            player, url, RECOVERY_MINUTES, self.links.mail_domain)), first)

    def _unviewable(self, leased: Delivery, now: datetime, error: RulesUnavailable,
                    first: bool = False) -> Delivery | None:
        """An email of a game whose rules this server lost (a card set's file gone or changed): it cannot
        be written now, and raising would hold up the outbox. It waits on the retry schedule, so it goes
        if the operator restores the rules in time, and fails when the schedule is spent."""
        logger.error("email %s waits: its game's rules are not on this server: %s", leased.msg_id, error)
        return self._after_failure(leased, now, SendResult(None, error="the game's rules are not on this server "
                                                                       f"({type(error).__name__})"), first)

    def _lease(self, delivery: Delivery, now: datetime) -> Delivery | None:
        """Hold the delivery for this attempt; None when another worker holds it already."""
        leased = replace(delivery, next_attempt_at=iso(now + LEASE), version=delivery.version + 1)
        return leased if self.store.update_delivery(leased, delivery.version) else None

    def _mail(self, leased: Delivery, now: datetime, build: Callable[[], EmailMessage],
              first: bool = False) -> Delivery | None:
        """Send one email; a failure (a mail server down) is retried on the schedule. Every email
        passes here: one to an address whose mail a bounce or a complaint stopped is not sent (one
        read of the address's status, only now that an email is about to go; services/mailevents.py)."""
        try:
            email = build()
            stop = self.store.email_stop(hash_email(parseaddr(email["To"] or "")[1]), consistent=False)
            if stop is None:
                self.mailer.send(email)
        except Exception as error:
            logger.warning("email %s failed: %s", leased.msg_id, type(error).__name__)
            return self._after_failure(leased, now, SendResult(None, error=f"mail: {type(error).__name__}"), first)
        if stop is not None:
            logger.info("email %s not sent: mail to its address is stopped (%s)", leased.msg_id, stop.reason)
            return self._settle(leased, "failed", None, Attempt(iso(now), None, f"not sent: the address {stop.reason}"),
                                first)
        return self._settle(leased, "delivered", None, Attempt(iso(now), 250), first)

    def _after_failure(self, delivery: Delivery, now: datetime, result: SendResult,
                       first: bool = False) -> Delivery | None:
        attempt = Attempt(iso(now), result.status, result.error or f"HTTP {result.status}")
        wait = next_wait(len(delivery.attempts) + 1, self.rng)
        if wait is None:
            return self._settle(delivery, "failed", None, attempt, first)
        asked = retry_after(result.retry_after, now)
        if asked is not None:
            wait = max(wait, asked)
        return self._settle(delivery, "pending", iso(now + wait), attempt, first)

    def _settle(self, delivery: Delivery, status: str, next_at: str | None, attempt: Attempt,
                first: bool = False) -> Delivery | None:
        """Record the attempt: a first attempt creates the delivery's record (one write), a retry
        updates it on the version it leased."""
        observability.count("deliveries" if status == "delivered" else "delivery_failures")
        settled = replace(delivery, status=status, next_attempt_at=next_at, attempts=[*delivery.attempts, attempt],
                          version=delivery.version + 1)
        if first:
            return settled if self.store.create_delivery(settled) else None
        return settled if self.store.update_delivery(settled, delivery.version) else None
