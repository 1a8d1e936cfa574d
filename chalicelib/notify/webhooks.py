"""Webhook delivery per Standard Webhooks 1.0: secrets, signatures, the retry schedule, and
one HTTP attempt (no redirects, to the address the SSRF guard checked; a first attempt waits
5 s for the answer, a retry 10 s)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from functools import cached_property
from typing import Callable
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from random import Random

import urllib3
from standardwebhooks import Webhook

from .ssrf import Target

SECRET_PREFIX = "whsec_"
TIMEOUT_SECONDS = 10.0  # a retry's (and a redelivery's) wait for the answer
# A first attempt's: the outbox consumer makes it while the change waits, so a slow receiver is
# given less; one that did not answer in time gets its message again on the retry schedule.
FIRST_TIMEOUT_SECONDS = 5.0
ROTATION_OVERLAP = timedelta(hours=24)

# After the first attempt (immediately), the waits before each next one.
RETRY_SCHEDULE = [timedelta(seconds=5), timedelta(minutes=5), timedelta(minutes=30), timedelta(hours=2),
                  timedelta(hours=5), timedelta(hours=10), timedelta(hours=14), timedelta(hours=20),
                  timedelta(hours=24)]
JITTER = 0.1  # each wait is stretched by up to 10 %, so that failed endpoints are not hit in waves


class SigningKeys:
    """Webhook signing secrets are derived, never stored: an endpoint's item keeps only a random
    salt per secret, and the secret is HMAC-SHA256(server key, endpoint id and salt), 32 bytes as
    Standard Webhooks' ``whsec_<base64>``. A copy of the table alone reveals no secret; the server
    key (``Links.key``: the link secret's version labelled ``WEBHOOKS``, which a rotation of the link
    keys never changes; docs/deploy.md) is needed too. ``server_key`` is the key or a function that gives it
    (asked for on first use, as :class:`~chalicelib.presenting.links.Links` does)."""

    def __init__(self, server_key: str | Callable[[], str]) -> None:
        self._source = server_key

    @cached_property
    def _key(self) -> bytes:
        key = self._source() if callable(self._source) else self._source
        return hmac.new(key.encode(), b"battleline-webhook-signing-secret", hashlib.sha256).digest()

    @staticmethod
    def new_salt() -> str:
        return secrets.token_urlsafe(16)

    def secret(self, webhook_id: str, salt: str) -> str:
        digest = hmac.new(self._key, f"{webhook_id}\n{salt}".encode(), hashlib.sha256).digest()
        return SECRET_PREFIX + base64.b64encode(digest).decode()


def signature_header(secrets_in_force: list[str], msg_id: str, timestamp: datetime, body: str) -> str:
    """``v1,<sig>`` for every secret in force (old and new during a rotation), space separated."""
    return " ".join(Webhook(secret).sign(msg_id, timestamp, body) for secret in secrets_in_force)


def next_wait(failed_attempts: int, rng: Random) -> timedelta | None:
    """How long to wait after the n-th failed attempt, or None when the schedule is spent."""
    if failed_attempts > len(RETRY_SCHEDULE):
        return None
    base = RETRY_SCHEDULE[failed_attempts - 1]
    return base * (1 + rng.uniform(0, JITTER))


def retry_after(value: str | None, now: datetime) -> timedelta | None:
    """A Retry-After header (seconds or an HTTP date) as a wait from now."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return timedelta(seconds=int(value))
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(when - now, timedelta(0))


@dataclass(frozen=True)
class SendResult:
    status: int | None  # None when no HTTP answer came (refused, timed out, ...)
    retry_after: str | None = None
    error: str | None = None
    timed_out: bool = False  # no answer within the timeout (the receiver may still act on it)

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def http_send(target: Target, body: bytes, headers: dict[str, str], timeout: float = TIMEOUT_SECONDS) -> SendResult:
    """POST once to the checked address, with the URL's host in Host (and TLS SNI)."""
    default_port = 443 if target.scheme == "https" else 80
    host_header = target.host if target.port == default_port else f"{target.host}:{target.port}"
    timeouts = urllib3.Timeout(total=timeout)
    if target.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(target.address, target.port, timeout=timeouts, retries=False,
                                           server_hostname=target.host, assert_hostname=target.host)
    else:
        pool = urllib3.HTTPConnectionPool(target.address, target.port, timeout=timeouts, retries=False)
    try:
        response = pool.urlopen("POST", target.path, body=body, headers={**headers, "Host": host_header},
                                redirect=False, retries=False, preload_content=True)
    except urllib3.exceptions.TimeoutError as error:
        return SendResult(None, error=type(error).__name__, timed_out=True)
    except urllib3.exceptions.HTTPError as error:
        return SendResult(None, error=type(error).__name__)
    finally:
        pool.close()
    if 300 <= response.status < 400:
        return SendResult(response.status, error="redirects are not followed")
    return SendResult(response.status, response.headers.get("Retry-After"))
