"""The notifications area (``store.protocol.NotificationStore``) in memory: webhook endpoints and
their deliveries, with the same conditional writes as DynamoDB's (a delivery is created once and
updated only at the version it was read)."""

from __future__ import annotations

import copy

from ..records import Delivery, IdempotencyRecord, WebhookEndpoint
from .. import keys
from ..errors import DuplicateItem, IdempotencyRace
from .table import MemoryTable


class MemoryNotifications(MemoryTable):

    def put_webhook(self, endpoint: WebhookEndpoint) -> None:
        self._webhooks[(endpoint.player_id, endpoint.id)] = copy.deepcopy(endpoint)

    def create_webhook(self, endpoint: WebhookEndpoint, idempotency: IdempotencyRecord | None) -> None:
        if (endpoint.player_id, endpoint.id) in self._webhooks:
            raise DuplicateItem(endpoint.id)
        if idempotency is not None:
            if not self._idempotency_free(idempotency):
                raise IdempotencyRace()
            self._put_idempotency(idempotency)
        self.put_webhook(endpoint)

    def get_webhook(self, player_id: str, webhook_id: str) -> WebhookEndpoint | None:
        return copy.deepcopy(self._webhooks.get((player_id, webhook_id)))

    def list_webhooks(self, player_id: str) -> list[WebhookEndpoint]:
        """In the order of their ids, as a query of the player's partition gives them."""
        return [copy.deepcopy(e) for (owner, _), e in sorted(self._webhooks.items()) if owner == player_id]

    def delete_webhook(self, player_id: str, webhook_id: str) -> bool:
        return self._webhooks.pop((player_id, webhook_id), None) is not None

    def create_delivery(self, delivery: Delivery) -> bool:
        key = (delivery.webhook_id, delivery.msg_id)
        if key in self._deliveries:
            return False
        self._deliveries[key] = copy.deepcopy(delivery)
        return True

    def update_delivery(self, delivery: Delivery, expected_version: int) -> bool:
        key = (delivery.webhook_id, delivery.msg_id)
        stored = self._deliveries.get(key)
        if stored is None or stored.version != expected_version:
            return False
        self._deliveries[key] = copy.deepcopy(delivery)
        return True

    def get_delivery(self, webhook_id: str, msg_id: str, consistent: bool = True) -> Delivery | None:
        return copy.deepcopy(self._deliveries.get((webhook_id, msg_id)))

    def list_deliveries(self, webhook_id: str) -> list[Delivery]:
        """In the order of their message ids, as a query of the endpoint's partition gives them."""
        return [copy.deepcopy(d) for (owner, _), d in sorted(self._deliveries.items()) if owner == webhook_id]

    def due_deliveries(self, now: str, limit: int = 100) -> list[Delivery]:
        due = sorted((d for d in self._deliveries.values()
                      if d.status == "pending" and d.next_attempt_at and d.next_attempt_at <= now),
                     key=lambda d: (keys.delivery_due(d.webhook_id, d.msg_id, d.next_attempt_at)["due"],
                                    d.next_attempt_at))  # shard by shard, as the ``due`` index is read
        return [copy.deepcopy(d) for d in due[:limit]]
