"""Webhook requests made side by side, so that a slow or dead receiver costs the others nothing.

A run's attempts (a change's first attempts, or a run of the retries) are grouped by endpoint into
lanes: an endpoint's attempts one after another, in order; ``LANES`` lanes at once. Every request
ends by the run's deadline (its timeout is cut to what is left); an attempt with less than
``LEAST_WAIT`` left is not made, nor one after an endpoint's timeout, slow answer (``SLOW_ANSWER``) or
410, nor (first attempts) one to an endpoint that timed out or answered slowly within ``COOL_OFF``. Only the requests run in the
lanes' threads: the dispatcher prepares each attempt and records what it came to, in its own
thread (notify/dispatcher.py)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable, Protocol

from ..store.records import Delivery, WebhookEndpoint
from .ssrf import Target, UnsafeUrl, check_url
from .webhooks import SendResult, http_send

LANES = 8  # endpoints sent to at once
COOL_OFF = 300.0  # seconds: an endpoint that did not answer in time gets its first attempts on the retry schedule
LEAST_WAIT = 1.0  # seconds: an attempt with less time left in its run is not made (it goes to the schedule)
# seconds: an endpoint that takes longer than this to answer (200 or not) is slow: its lane's next attempts in
# the run, and its first attempts during COOL_OFF, go to the schedule, as after a timeout. Without it, one that
# always answered in 4.9 s held every change for 4.9 s.
SLOW_ANSWER = 2.0


class Sender(Protocol):
    """One POST (http_send, or a test's fake): what the receiver answered within ``timeout`` seconds."""

    def __call__(self, target: Target, body: bytes, headers: dict[str, str], timeout: float = ...) -> SendResult: ...


@dataclass
class Post:
    """One webhook attempt, prepared (its delivery, as leased for a retry; its headers, signed at
    ``now``), then made (``result``; None when it was not, and ``why_not``)."""

    delivery: Delivery
    endpoint: WebhookEndpoint
    now: datetime
    first: bool
    headers: dict[str, str] = field(default_factory=dict)
    result: SendResult | None = None
    why_not: str = ""
    slow: bool = False  # made, and answered late (after SLOW_ANSWER) or not in time


class Lanes:
    def __init__(self, send: Sender = http_send, allow_private: bool | None = None) -> None:
        self.send = send
        self.allow_private = allow_private
        self.ticks: Callable[[], float] = time.monotonic  # seconds, for the deadlines (a test's fake)
        # The endpoints whose last attempt got no answer in time: when (``ticks``). Kept by this
        # process only (a warm Lambda, the local worker): a cold one tries each endpoint once more.
        self.timed_out: dict[str, float] = {}

    def post(self, post: Post, timeout: float) -> SendResult:
        """The request itself, to the address checked now."""
        try:
            target = check_url(post.endpoint.url, allow_private=self.allow_private)
        except UnsafeUrl as refused:
            return SendResult(None, error=f"refused: {refused}")
        began = self.ticks()
        result = self.send(target, post.delivery.body.encode(), post.headers, timeout=timeout)
        post.slow = result.timed_out or self.ticks() - began > SLOW_ANSWER
        if post.slow:
            self.timed_out[post.endpoint.id] = self.ticks()
        elif result.status is not None:
            self.timed_out.pop(post.endpoint.id, None)  # it answers again, and quickly
        return result

    def run(self, posts: list[Post], until: float, timeout: float, *, cool_off: bool) -> None:
        """Make ``posts``' requests by ``until`` (``ticks``), each waiting ``timeout`` at most: one
        lane per endpoint, ``LANES`` at once (a lone lane in this thread)."""
        now = self.ticks()
        for stale in [endpoint for endpoint, since in self.timed_out.items() if now - since >= COOL_OFF]:
            self.timed_out.pop(stale, None)
        lanes: dict[str, list[Post]] = {}
        for post in posts:
            lanes.setdefault(post.endpoint.id, []).append(post)
        if len(lanes) == 1:
            self._lane(next(iter(lanes.values())), until, timeout, cool_off)
            return
        with ThreadPoolExecutor(max_workers=min(LANES, len(lanes)), thread_name_prefix="webhook-lane") as pool:
            for done in [pool.submit(self._lane, lane, until, timeout, cool_off) for lane in lanes.values()]:
                done.result()

    def _lane(self, posts: list[Post], until: float, timeout: float, cool_off: bool) -> None:
        """One endpoint's attempts, one after another."""
        for post in posts:
            made = [earlier.result for earlier in posts if earlier.result is not None]
            if any(result.status == 410 for result in made):
                break  # the endpoint is gone: the rest are recorded as to a disabled endpoint
            left = until - self.ticks()
            since = self.timed_out.get(post.endpoint.id)
            if any(earlier.slow for earlier in posts if earlier.result is not None):
                post.why_not = "the endpoint did not answer in time, or answered slowly, just now"
            elif cool_off and since is not None and self.ticks() - since < COOL_OFF:
                post.why_not = "the endpoint did not answer in time, or answered slowly, lately"
            elif left < LEAST_WAIT:
                post.why_not = "no time left for it in this run"
                self.timed_out[post.endpoint.id] = self.ticks()  # its lane took the run's time: slow
            else:
                post.result = self.post(post, min(timeout, left))
