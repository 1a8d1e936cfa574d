"""A write done once per Idempotency-Key: its record is written in the write's own transaction,
and a retry with the same key (and the same request) answers the recorded body."""

from __future__ import annotations

from typing import Callable

from ..calls import Idempotency, Outcome, withheld
from ..clock import Clock, iso
from ..errors import ServiceError
from ..records import IdempotencyRecord
from ..store.errors import IdempotencyRace
from ..store.protocol import Store

Recorder = Callable[[dict], IdempotencyRecord | None]  # the response body -> the record saved with the write


class Idempotent:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def replay(self, scope: str, idempotency: Idempotency | None) -> Outcome | None:
        """The recorded answer to this key, or None; the key used for another request is refused."""
        if idempotency is None:
            return None
        record = self.store.get_idempotency(scope, idempotency.key)
        if record is None:
            return None
        if record.fingerprint != idempotency.fingerprint:
            raise ServiceError("idempotency_key_reused",
                               "this Idempotency-Key was already used with another request; use a new key")
        return Outcome(record.body, replayed=True)

    def run(self, scope: str, idempotency: Idempotency | None, run: Callable[[Recorder], dict],
            *, checked: bool = False) -> Outcome:
        """Run a write once per Idempotency-Key; its record is written in the write's transaction.
        ``checked``: the caller already asked :meth:`replay` (before its own checks)."""
        if not checked:
            replay = self.replay(scope, idempotency)
            if replay is not None:
                return replay

        def record(body: dict) -> IdempotencyRecord | None:
            if idempotency is None:
                return None
            return IdempotencyRecord(scope, idempotency.key, idempotency.fingerprint, withheld(body),
                                     iso(self.clock.now()))

        try:
            return Outcome(run(record))
        except IdempotencyRace:
            replay = self.replay(scope, idempotency)
            if replay is None:  # pragma: no cover - the record that beat us cannot vanish this fast
                raise
            return replay
