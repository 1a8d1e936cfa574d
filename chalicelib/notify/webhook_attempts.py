"""A webhook's attempts, for the dispatcher (notify/dispatcher.py, whose class this is a part of):
each is prepared (leased, signed) and recorded in the dispatcher's thread, and its request made by
the lanes (notify/lanes.py), side by side with the other endpoints'. A change's first attempts wait
``FIRST_TIMEOUT_SECONDS`` at most in all; what they could not make goes to the retry schedule."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from logging import getLogger
from typing import TYPE_CHECKING

from ..kernel.clock import iso
from ..store.records import Attempt, Delivery, WebhookEndpoint
from .lanes import Lanes, Post
from .webhooks import FIRST_TIMEOUT_SECONDS, TIMEOUT_SECONDS, SendResult, SigningKeys, signature_header

if TYPE_CHECKING:
    from ..store.protocol import Store

logger = getLogger("battleline.notify")


class WebhookAttempts:
    """The webhook side of :class:`~chalicelib.notify.dispatcher.Dispatcher`, which provides the
    store, the clock, the signing keys, the lanes and the recording of an attempt."""

    store: "Store"
    signing: SigningKeys
    lanes: Lanes
    first_attempts_until: float | None

    def now(self) -> datetime: ...
    def _lease(self, delivery: Delivery, now: datetime) -> Delivery | None: ...
    def _settle(self, delivery: Delivery, status: str, next_at: str | None, attempt: Attempt,
                first: bool = False) -> Delivery | None: ...
    def _after_failure(self, delivery: Delivery, now: datetime, result: SendResult,
                       first: bool = False) -> Delivery | None: ...

    def attempt(self, delivery: Delivery, endpoint: WebhookEndpoint | None, *, first: bool = False) -> Delivery | None:
        """One attempt, made now: a first one (recorded after it), a retry if this worker wins the
        delivery's lease (``TIMEOUT_SECONDS`` for the answer). Returns the delivery as left."""
        prepared = self._prepare(delivery, endpoint, first)
        if not isinstance(prepared, Post):
            return prepared
        prepared.result = self.lanes.post(prepared, FIRST_TIMEOUT_SECONDS if first else TIMEOUT_SECONDS)
        return self._conclude(prepared)

    def _prepare(self, delivery: Delivery, endpoint: WebhookEndpoint | None, first: bool) -> Post | Delivery | None:
        """An attempt to make (its headers signed now), or the delivery as settled without one (an
        endpoint deleted or disabled), or None when another worker holds the delivery."""
        now = self.now()
        if endpoint is None or endpoint.disabled:
            # Recorded, not sent: a disabled endpoint's deliveries are listed (failed) and can be
            # redelivered, which enables the endpoint again (services/webhooks.py); none is lost.
            why = "the endpoint was deleted" if endpoint is None else f"the endpoint is disabled: {endpoint.disabled}"
            return self._settle(delivery, "failed", None, Attempt(iso(now), None, why), first)
        leased = delivery if first else self._lease(delivery, now)
        if leased is None:
            return None  # another worker is on it
        headers = {
            "content-type": "application/json",
            "webhook-id": delivery.msg_id,
            "webhook-timestamp": str(int(now.timestamp())),
            "webhook-signature": signature_header(self.secrets_in_force(endpoint, iso(now)), delivery.msg_id, now,
                                                  delivery.body),
            "user-agent": "battleline-webhooks/1",
        }
        return Post(leased, endpoint, now, first, headers)

    def _conclude(self, post: Post) -> Delivery | None:
        """Record what the attempt came to (or, for one not made, the delivery pending for the schedule)."""
        leased, endpoint, now, first, result = post.delivery, post.endpoint, post.now, post.first, post.result
        if result is None:
            if endpoint.disabled:  # a 410 to an earlier message of the same change
                return self._settle(leased, "failed", None,
                                    Attempt(iso(now), None, f"the endpoint is disabled: {endpoint.disabled}"), first)
            if first:
                return self._defer(post)
            logger.info("webhook delivery %s to endpoint %s: left for the next run (%s)", leased.msg_id, endpoint.id,
                        post.why_not)
            return None  # its lease ends, and it is due again
        logger.info("webhook delivery %s to endpoint %s: %s", leased.msg_id, endpoint.id, result.status or result.error)
        if result.ok:
            return self._settle(leased, "delivered", None, Attempt(iso(now), result.status), first)
        if result.status == 410:
            endpoint.disabled = "the receiver answered 410 Gone"
            self.store.put_webhook(endpoint)
            return self._settle(leased, "failed", None, Attempt(iso(now), 410, "410 Gone: endpoint disabled"), first)
        return self._after_failure(leased, now, result, first)

    def _defer(self, post: Post) -> Delivery | None:
        """A first attempt not made inline goes to the retry schedule: the delivery is recorded
        pending, with no attempt, due at once (one write, as an attempt's record); the retries make
        it, with the same webhook-id, and its schedule starts there."""
        logger.info("webhook delivery %s to endpoint %s: on the retry schedule (%s)", post.delivery.msg_id,
                    post.endpoint.id, post.why_not)
        deferred = replace(post.delivery, status="pending", next_attempt_at=iso(post.now),
                           version=post.delivery.version + 1)
        return deferred if self.store.create_delivery(deferred) else None

    # ------------------------------------------------------------------ a change's first attempts

    def first_attempts(self, posts: list[Post]) -> list[Delivery | None]:
        """Make a change's webhook first attempts and record them, in order. One lane per endpoint
        (its messages in order), ``LANES`` lanes at once; every attempt ends within
        ``FIRST_TIMEOUT_SECONDS`` of the start (and before ``first_attempts_until``), so the change
        waits that long at most, whatever the endpoints do. An attempt with no time left, or to an
        endpoint that timed out within ``COOL_OFF`` (in this change or before), is not made: it goes
        to the retry schedule. Only the requests run in the lanes' threads; the store is written here."""
        if not posts:
            return []
        until = self.lanes.ticks() + FIRST_TIMEOUT_SECONDS
        if self.first_attempts_until is not None:
            until = min(until, self.first_attempts_until)
        self.lanes.run(posts, until, FIRST_TIMEOUT_SECONDS, cool_off=True)
        return [self._conclude(post) for post in posts]

    def secrets_in_force(self, endpoint: WebhookEndpoint, now: str) -> list[str]:
        """The endpoint's signing secrets in force (the new and the old one during a rotation)."""
        return [self.signing.secret(endpoint.id, salt) for salt in endpoint.salts_in_force(now)]

    # ------------------------------------------------------------------ redelivery

    def redeliver(self, delivery: Delivery, endpoint: WebhookEndpoint) -> Delivery | None:
        """Another attempt now, whatever the delivery's state (the same id and body)."""
        fresh = replace(delivery, status="pending", next_attempt_at=iso(self.now()), version=delivery.version + 1)
        if not self.store.update_delivery(fresh, delivery.version):
            return None
        return self.attempt(fresh, endpoint)
