"""How many requests a caller may make: a token bucket per API key (and per address for sign-up),
in this process's memory (docs/clients.md says what that means once deployed).

A bucket holds at most ``requests`` tokens and gains ``requests / seconds`` a second; a request
takes one, and one that finds none is refused with 429 ``rate_limited`` and ``Retry-After``: the
whole seconds until a token is there. Nothing is written to the store: a counter item per request
would cost a write unit on every move (docs/storage.md: a move's budget is 4), and a bucket read
back from DynamoDB on every request would cost what the move's own reads cost.
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..kernel.errors import Retryable

if TYPE_CHECKING:  # pragma: no cover
    from ..kernel.clock import Clock

MAX_SUBJECTS = 50_000  # buckets kept in memory; the least recently used go first (a full bucket)


@dataclass(frozen=True)
class Rate:
    requests: int  # the bucket's size: a burst of this many is allowed
    seconds: int  # ... and it refills completely in this many seconds

    @classmethod
    def parse(cls, text: str) -> "Rate":
        """``"600/60"``: 600 requests a minute."""
        found = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
        if not found or int(found[1]) < 1 or int(found[2]) < 1:
            raise ValueError(f"a rate is <requests>/<seconds>, e.g. 600/60, not {text!r}")
        return cls(int(found[1]), int(found[2]))

    def describe(self) -> str:
        return f"{self.requests} requests in {self.seconds} seconds"


class RateLimited(Retryable):
    """429 problem+json with ``Retry-After``."""

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__("rate_limited", detail, retry_after)


class RateLimits:
    """Token buckets by kind (``key``: per API key; ``signup``: per client address)."""

    def __init__(self, clock: "Clock", rates: dict[str, Rate]) -> None:
        self.clock = clock
        self.rates = rates
        self.buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()  # tokens, at

    def take(self, kind: str, subject: str) -> None:
        """One request of ``subject``; RateLimited when its bucket is empty."""
        rate = self.rates.get(kind)
        if rate is None:
            return
        now = self.clock.now().timestamp()
        per_second = rate.requests / rate.seconds
        tokens, at = self.buckets.pop((kind, subject), (float(rate.requests), now))
        tokens = min(float(rate.requests), tokens + max(0.0, now - at) * per_second)
        if tokens < 1:
            self.buckets[(kind, subject)] = (tokens, now)
            wait = max(1, math.ceil((1 - tokens) / per_second))
            raise RateLimited(f"at most {rate.describe()} {'per API key' if kind == 'key' else 'per address'}; "
                              f"try again in {wait} seconds", wait)
        self.buckets[(kind, subject)] = (tokens - 1, now)
        while len(self.buckets) > MAX_SUBJECTS:
            self.buckets.popitem(last=False)
