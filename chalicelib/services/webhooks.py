"""A player's webhook endpoints: register (the signing secret shown once), list, delete, rotate
the secret, and their deliveries (listed, redelivered). Deliveries are made by
:mod:`chalicelib.notify.dispatcher`."""

from __future__ import annotations

from dataclasses import replace

from ..http import cursors
from ..kernel import ids
from ..kernel.calls import Idempotency, Outcome
from ..kernel.clock import Clock, iso
from ..kernel.errors import ServiceError
from ..http.models import PageQuery
from ..notify.dispatcher import Dispatcher
from ..notify.ssrf import UnsafeUrl, check_url
from ..notify.webhooks import ROTATION_OVERLAP, SigningKeys
from ..store.records import Player, WebhookEndpoint, WebhookSecret
from ..store.protocol import Store
from ..kernel.i18n import _
from .idempotency import Idempotent, Recorder


class Webhooks:
    def __init__(self, store: Store, clock: Clock, *, dispatcher: Dispatcher, idempotent: Idempotent) -> None:
        self.store = store
        self.clock = clock
        self.idempotent = idempotent  # createWebhook's Idempotency-Key
        self.dispatcher = dispatcher  # its signing keys; a delivery made again
        self.signing: SigningKeys = dispatcher.signing

    def create_webhook(self, player: Player, request) -> dict:
        """Register the endpoint: its view, with the signing secret (shown once)."""
        return self.register(player, request, None).body

    def register(self, player: Player, request, idempotency: Idempotency | None) -> Outcome:
        """createWebhook. With an Idempotency-Key, a retry is answered the first answer again, secret
        included: the secret was never stored (neither in the endpoint's item nor in the key's record,
        which keeps the answer with ``secret`` null); it is derived again from the endpoint's first salt
        and the server key, as every delivery derives it (notify/webhooks.SigningKeys). The first secret
        stays in force for 24 hours after any rotation, so within the key's 24 hours it can always be
        derived; an endpoint deleted since is answered 404 ``webhook_not_found``."""

        def create(record: Recorder) -> dict:
            try:
                check_url(request.url)
            except UnsafeUrl as refused:
                raise ServiceError("unsafe_webhook_url", str(refused)) from None
            now = iso(self.clock.now())
            endpoint = WebhookEndpoint(ids.new_id("wh"), player.id, request.url, request.events,
                                       [WebhookSecret(self.signing.new_salt(), now)], None, now)
            answer = {**endpoint.as_json(), "secret": self.signing.secret(endpoint.id, endpoint.secrets[0].salt)}
            self.store.create_webhook(endpoint, record(answer))  # the record keeps the answer, its secret null
            self.store.make_reachable(player.id)  # their games no longer skip telling them
            return answer

        made = self.idempotent.run(player.id, idempotency, create)
        return Outcome(self._with_first_secret(player, made.body), replayed=True) if made.replayed else made

    def _with_first_secret(self, player: Player, answer: dict) -> dict:
        """A replayed creation's answer (its secret withheld) with the endpoint's first secret derived again."""
        endpoint = self.store.get_webhook(player.id, answer["id"])
        first = next((s for s in endpoint.secrets if s.created_at == endpoint.created_at), None) if endpoint else None
        if first is None:
            raise ServiceError("webhook_not_found", _("the webhook this request made was deleted since; register "
                                                      "it again with a new Idempotency-Key"))
        return {**answer, "secret": self.signing.secret(endpoint.id, first.salt)}

    def list_webhooks(self, player: Player) -> dict:
        return {"webhooks": [e.as_json() for e in self.store.list_webhooks(player.id)]}

    def _webhook(self, player: Player, webhook_id: str) -> WebhookEndpoint:
        endpoint = self.store.get_webhook(player.id, webhook_id) if ids.ID.fullmatch(webhook_id) else None
        if endpoint is None:
            raise ServiceError("webhook_not_found", _("you have no webhook {webhook_id!r}").format(
                                                      webhook_id=webhook_id))
        return endpoint

    def delete_webhook(self, player: Player, webhook_id: str) -> None:
        self._webhook(player, webhook_id)
        self.store.delete_webhook(player.id, webhook_id)

    def rotate_webhook_secret(self, player: Player, webhook_id: str) -> dict:
        endpoint = self._webhook(player, webhook_id)
        now = self.clock.now()
        overlap_ends = iso(now + ROTATION_OVERLAP)
        kept = [replace(s, expires_at=min(s.expires_at or overlap_ends, overlap_ends))
                for s in endpoint.secrets if s.expires_at is None or s.expires_at > iso(now)]
        fresh = WebhookSecret(self.signing.new_salt(), iso(now))
        endpoint.secrets = [fresh, *kept]
        self.store.put_webhook(endpoint)
        return {"id": endpoint.id, "secret": self.signing.secret(endpoint.id, fresh.salt),
                "previous_secret_expires_at": overlap_ends}

    def list_webhook_deliveries(self, player: Player, webhook_id: str, query: PageQuery | None = None) -> dict:
        """The endpoint's deliveries, newest first (by time, then id), a page at a time."""
        self._webhook(player, webhook_id)
        query = query or PageQuery()
        key = lambda d: [d.created_at, d.msg_id]  # noqa: E731
        after = cursors.decode(query.cursor, "deliveries", webhook_id, lambda a: cursors.is_str_list(a, 2))
        deliveries = sorted(self.store.list_deliveries(webhook_id), key=key, reverse=True)
        page, next_cursor = cursors.page_of(deliveries, key, query.limit, after, "deliveries", webhook_id,
                                            descending=True)
        return {"deliveries": [d.as_json() for d in page], "next_cursor": next_cursor}

    def redeliver_webhook(self, player: Player, webhook_id: str, delivery_id: str) -> dict:
        endpoint = self._webhook(player, webhook_id)
        delivery = self.store.get_delivery(webhook_id, delivery_id) if len(delivery_id) <= 200 else None
        if delivery is None:
            raise ServiceError("delivery_not_found", _("webhook {webhook_id} has no delivery {delivery_id!r}").format(
                                                       webhook_id=webhook_id, delivery_id=delivery_id))
        endpoint.disabled = None  # asking for a redelivery re-enables an endpoint disabled by a 410
        self.store.put_webhook(endpoint)
        done = self.dispatcher.redeliver(delivery, endpoint)
        return (done or self.store.get_delivery(webhook_id, delivery_id) or delivery).as_json()
