"""A write done once per Idempotency-Key. Most writes keep their response in a record written in
their own transaction; a move keeps less (docs/storage.md): its version is marked with the key,
and a small record names the version, from which the answer is built again. A retry with the same
key (and the same request) gets the first answer; the key used for another request is refused."""

from __future__ import annotations

from typing import Callable

from ..kernel.calls import Idempotency, Outcome, withheld
from ..kernel.clock import Clock, iso
from ..kernel.errors import ServiceError
from ..store.records import IdempotencyRecord
from ..store.errors import IdempotencyRace
from ..store.protocol import Store
from ..kernel.i18n import _

Recorder = Callable[[dict], IdempotencyRecord | None]  # the response body -> the record saved with the write
Rebuild = Callable[[str, int], dict]  # (game id, version) -> the answer of the move that made that version


def reused() -> ServiceError:
    return ServiceError("idempotency_key_reused",
                        _("this Idempotency-Key was already used with another request; use a new key"))


class Idempotent:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def replay(self, scope: str, idempotency: Idempotency | None, rebuild: Rebuild | None = None) -> Outcome | None:
        """The recorded answer to this key, or None; the key used for another request is refused. A
        move's answer is built again by ``rebuild`` from the version the record names."""
        if idempotency is None:
            return None
        record = self.store.get_idempotency(scope, idempotency.key)
        if record is None:
            return None
        if record.fingerprint != idempotency.fingerprint:
            raise reused()
        if record.body is None and rebuild is not None and record.game_id and record.version is not None:
            return Outcome(rebuild(record.game_id, record.version), replayed=True)
        return Outcome(record.body, replayed=True) if record.body is not None else None

    def move_record(self, scope: str, idempotency: Idempotency | None, game_id: str,
                    version: int) -> IdempotencyRecord | None:
        """What a move saves of its Idempotency-Key: the version it makes, not its answer."""
        if idempotency is None:
            return None
        return IdempotencyRecord(scope, idempotency.key, idempotency.fingerprint, None, iso(self.clock.now()),
                                 game_id, version)

    def run(self, scope: str, idempotency: Idempotency | None, run: Callable[[Recorder], dict]) -> Outcome:
        """Run a write once per Idempotency-Key; its record (with its answer) is written in the
        write's transaction."""
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
