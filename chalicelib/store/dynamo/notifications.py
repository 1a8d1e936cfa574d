"""The DynamoDB storage of one area (``store.protocol.NotificationStore``); docs/storage.md."""

from __future__ import annotations

import json

from ..records import (
    Attempt,
    Delivery,
    IdempotencyRecord,
    WebhookEndpoint,
    WebhookSecret,
)
from .. import keys
from ..errors import DuplicateItem
from ..items import (
    dumps,
    typed,
    typed_key,
)
from ..schema import TTL_ATTRIBUTE
from .table import IS_NEW, DELIVERY_TTL_SECONDS, Table, at_version


class DynamoNotifications(Table):
    """Webhook endpoints and deliveries."""

    @staticmethod
    def _webhook_item(endpoint: WebhookEndpoint) -> dict:
        return typed({
            **keys.webhook(endpoint.player_id, endpoint.id), "kind": "webhook",
            "id": endpoint.id, "player_id": endpoint.player_id, "url": endpoint.url,
            "events": dumps(endpoint.events), "secrets": dumps([s.__dict__ for s in endpoint.secrets]),
            "disabled": endpoint.disabled, "created_at": endpoint.created_at,
        })

    def put_webhook(self, endpoint: WebhookEndpoint) -> None:
        self.client.put_item(TableName=self.table, Item=self._webhook_item(endpoint))

    def create_webhook(self, endpoint: WebhookEndpoint, idempotency: IdempotencyRecord | None) -> None:
        """The endpoint, new, with its Idempotency-Key's record (a transaction) if given."""
        if idempotency is None:
            if not self._put_if(self._webhook_item(endpoint), IS_NEW):
                raise DuplicateItem(endpoint.id)
            return
        self._transact([self._put(self._webhook_item(endpoint))], idempotency)

    @staticmethod
    def _webhook_from(item: dict) -> WebhookEndpoint:
        return WebhookEndpoint(item["id"], item["player_id"], item["url"], json.loads(item["events"]),
                               [WebhookSecret(**s) for s in json.loads(item["secrets"])], item.get("disabled"),
                               item["created_at"])

    def get_webhook(self, player_id: str, webhook_id: str) -> WebhookEndpoint | None:
        item = self._get(keys.webhook(player_id, webhook_id))
        return self._webhook_from(item) if item else None

    def list_webhooks(self, player_id: str) -> list[WebhookEndpoint]:
        items = self._query_prefix(keys.player_pk(player_id), keys.WEBHOOK_PREFIX)
        return [self._webhook_from(item) for item in items]

    def delete_webhook(self, player_id: str, webhook_id: str) -> bool:
        response = self.client.delete_item(TableName=self.table, Key=typed_key(keys.webhook(player_id, webhook_id)),
                                           ReturnValues="ALL_OLD")
        return "Attributes" in response

    def _delivery_item(self, d: Delivery) -> dict:
        values = {
            **keys.delivery(d.webhook_id, d.msg_id), "kind": "delivery",
            "webhook_id": d.webhook_id, "msg_id": d.msg_id, "player_id": d.player_id, "type": d.type,
            "body": d.body, "status": d.status, "attempts": dumps([a.__dict__ for a in d.attempts]),
            "next_attempt_at": d.next_attempt_at, "created_at": d.created_at, "version": d.version,
            TTL_ATTRIBUTE: self._now_epoch() + DELIVERY_TTL_SECONDS,
        }
        if d.status == "pending" and d.next_attempt_at:
            values.update(keys.delivery_due(d.webhook_id, d.msg_id, d.next_attempt_at))  # in the sparse "due" index
        return typed(values)

    @staticmethod
    def _delivery_from(item: dict) -> Delivery:
        return Delivery(item["webhook_id"], item["msg_id"], item["player_id"], item["type"], item["body"],
                        item["status"], [Attempt(**a) for a in json.loads(item["attempts"])],
                        item.get("next_attempt_at"), item["created_at"], item.get("version", 0))

    def create_delivery(self, delivery: Delivery) -> bool:
        """False when this message was already given to this endpoint (a dispatch re-run)."""
        return self._put_if(self._delivery_item(delivery), IS_NEW)

    def update_delivery(self, delivery: Delivery, expected_version: int) -> bool:
        """Write the delivery if nobody else changed it since ``expected_version``."""
        return self._put_if(self._delivery_item(delivery), at_version(expected_version))

    def get_delivery(self, webhook_id: str, msg_id: str, consistent: bool = True) -> Delivery | None:
        item = self._get(keys.delivery(webhook_id, msg_id), consistent)
        return self._delivery_from(item) if item else None

    def list_deliveries(self, webhook_id: str) -> list[Delivery]:
        items = self._query_prefix(keys.webhook_pk(webhook_id), keys.DELIVERY_PREFIX)
        return [self._delivery_from(item) for item in items]

    def due_deliveries(self, now: str, limit: int = 100) -> list[Delivery]:
        """Deliveries whose next attempt is due, from the ``due`` index's delivery shards (never a
        scan); each read again itself, since an index is eventually consistent."""
        entries = self._query_due(keys.DELIVERY_DUE, now, limit)
        found = [self.get_delivery(keys.webhook_id_of(e["PK"]), e["SK"].removeprefix(keys.DELIVERY_PREFIX))
                 for e in entries]
        return [d for d in found if d is not None and d.status == "pending"]
