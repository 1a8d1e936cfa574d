"""The DynamoDB storage of one area (``store.protocol.IdempotencyStore``); docs/storage.md."""

from __future__ import annotations

import json

from ..records import (
    IdempotencyRecord,
)
from .. import keys
from ..schema import TTL_ATTRIBUTE
from .table import Table


class DynamoIdempotency(Table):
    """Stored responses to Idempotency-Keys."""

    def get_idempotency(self, scope: str, key: str) -> IdempotencyRecord | None:
        item = self._get(keys.idempotency(scope, key))
        if item is None or item.get(TTL_ATTRIBUTE, 0) < self._now_epoch():
            return None  # DynamoDB deletes expired items lazily; treat them as gone at once
        return IdempotencyRecord(scope, key, item["fingerprint"], json.loads(item["body"]) if "body" in item else None,
                                 item["created_at"], item.get("game_id"), item.get("game_version"))
