"""The idempotency area (``store.protocol.IdempotencyStore``) in memory: a stored response is gone
24 hours after it was written (by the clock the store is given)."""

from __future__ import annotations

from ..records import IdempotencyRecord
from .table import MemoryTable, kept


class MemoryIdempotency(MemoryTable):
    """Stored responses to Idempotency-Keys."""

    def get_idempotency(self, scope: str, key: str) -> IdempotencyRecord | None:
        found = self._idempotency.get((scope, key))
        if found is None or found[1] < self._now_epoch():
            return None
        return kept(found[0])
