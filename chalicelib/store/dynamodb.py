"""The DynamoDB adapter: one table, strongly consistent reads, one transaction per write.

Every accepted action is a single ``TransactWriteItems``: the game item updated on the
condition ``version = expected``, its new event items (each on ``attribute_not_exists``),
the seated players' membership items and, when the request carried an Idempotency-Key,
the idempotency record. Either all of it is written or none of it.

Every call to DynamoDB goes through :class:`Boundary`, so the store raises only its own
errors (``store/errors.py``): ``StoreUnavailable`` when DynamoDB cannot be reached or fails,
``Throttled`` when it refuses for capacity or cancels a racing transaction, and a
``Conflict`` (``VersionConflict``, ``IdempotencyRace``, ``DuplicateItem``) when a condition
fails.

Every key comes from ``keys.py``; every call shape is written once, under "calls" at the end
(a put on a condition, an update, a query of a partition, a prefix or the ``due`` index).
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, Iterable

import botocore.exceptions
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

from ..records import (
    Attempt,
    Delivery,
    EventRecord,
    GameRecord,
    IdempotencyRecord,
    Membership,
    Message,
    Player,
    RatingRecord,
    SeatRecord,
    TournamentRecord,
    WebhookEndpoint,
    WebhookSecret,
)
from . import keys
from .errors import (  # noqa: F401 - the store's errors are named from here too
    Conflict,
    DuplicateItem,
    IdempotencyRace,
    StoreError,
    StoreUnavailable,
    Throttled,
    VersionConflict,
)
from .schema import TTL_ATTRIBUTE

IDEMPOTENCY_TTL_SECONDS = 24 * 3600

_serializer = TypeSerializer()
_deserializer = TypeDeserializer()


# botocore's failures that mean "not now" rather than "never": after the client's own retries
# (config.py bounds them) they leave the store as StoreUnavailable or Throttled.
_UNREACHABLE = (botocore.exceptions.ConnectionError, botocore.exceptions.HTTPClientError)  # timeouts too
_UNAVAILABLE_CODES = {"InternalServerError", "ServiceUnavailable", "InternalFailure", "RequestTimeout",
                      "RequestTimeoutException"}
_THROTTLED_CODES = {"ProvisionedThroughputExceededException", "ThrottlingException", "Throttling",
                    "RequestLimitExceeded", "TransactionConflictException"}
_THROTTLED_REASONS = {"ThrottlingError", "ProvisionedThroughputExceeded", "TransactionConflict",
                      "RequestLimitExceeded"}


def store_error(error: Exception) -> StoreError | None:
    """The store's own error for a failed DynamoDB call, or None when it is the caller's to read
    (a failed condition, a cancelled transaction whose reasons name one, or a bug)."""
    if isinstance(error, _UNREACHABLE):
        return StoreUnavailable(f"DynamoDB could not be reached: {type(error).__name__}")
    if not isinstance(error, botocore.exceptions.ClientError):
        return None
    code = error.response.get("Error", {}).get("Code", "")
    if code in _THROTTLED_CODES:
        return Throttled(f"DynamoDB refused the request for now: {code}")
    if code == "TransactionCanceledException":
        reasons = {r.get("Code") for r in error.response.get("CancellationReasons", [])}
        if "ConditionalCheckFailed" not in reasons and reasons & _THROTTLED_REASONS:
            return Throttled(f"DynamoDB cancelled the transaction: {', '.join(sorted(reasons & _THROTTLED_REASONS))}")
        return None
    if code in _UNAVAILABLE_CODES or error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0) >= 500:
        return StoreUnavailable(f"DynamoDB failed: {code or 'a server error'}")
    return None


class Boundary:
    """The DynamoDB client as the store uses it: every operation goes through here, and leaves
    with the store's own error when DynamoDB is down or throttled (see :func:`store_error`).
    Anything else (``exceptions``, ``meta``) is the client's own."""

    def __init__(self, client) -> None:
        self._client = client

    @property
    def wrapped(self):
        """The DynamoDB client itself (tests put a fake outage between it and the store)."""
        return self._client

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._client, name)
        if name.startswith("_") or not callable(found):
            return found

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return found(*args, **kwargs)
            except Exception as error:
                typed = store_error(error)
                if typed is None:
                    raise
                raise typed from error

        return call


def _item(values: dict[str, Any]) -> dict:
    return {k: _serializer.serialize(v) for k, v in values.items() if v is not None}


def _plain(item: dict) -> dict:
    def convert(value: Any) -> Any:
        if isinstance(value, Decimal):
            return int(value) if value == value.to_integral_value() else float(value)
        return value

    return {k: convert(_deserializer.deserialize(v)) for k, v in item.items()}


def _decimal(value: float) -> Decimal:
    return Decimal(str(round(value, 6)))


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _key(key: keys.Key) -> dict:
    """A key from :mod:`keys` as DynamoDB's ``Key`` argument."""
    return _item(key)


# The conditions a write is made on (spread into a Put, an Update or their transaction items).
_IS_NEW = {"ConditionExpression": "attribute_not_exists(PK)"}  # the item must not exist yet
_EXISTS = {"ConditionExpression": "attribute_exists(PK)"}  # the item must exist already
_ALWAYS: dict = {}  # no condition: overwrite
_RETURN_OLD = {"ReturnValuesOnConditionCheckFailure": "ALL_OLD"}  # a failed condition reports the item


def _at_version(version: int) -> dict:
    """The item must still be at ``version``: nobody else wrote it since it was read."""
    return {"ConditionExpression": "version = :version",
            "ExpressionAttributeValues": {":version": {"N": str(version)}}}


class DynamoStore:
    def __init__(self, client, table: str, *, now_epoch=None) -> None:
        import time

        self.client = client if isinstance(client, Boundary) else Boundary(client)
        self.table = table
        self._now_epoch = now_epoch or (lambda: int(time.time()))

    # ------------------------------------------------------------------ players

    def create_player(self, player: Player, key_hash: str, idempotency: IdempotencyRecord | None) -> None:
        """Create the player and its API key in one transaction; DuplicateItem if either exists,
        IdempotencyRace if another request with the same Idempotency-Key came first."""
        self._transact(self._player_items(player, key_hash), idempotency)

    def _player_items(self, player: Player, key_hash: str) -> list[dict]:
        """A new player: its profile and its API key (hashed), both on ``attribute_not_exists``."""
        return [
            self._put(_item({**keys.player(player.id), "kind": "player",
                             "id": player.id, "name": player.name, "email": player.email,
                             "created_at": player.created_at, "preferences": _dumps(player.preferences),
                             "vacation": _dumps(player.vacation) if player.vacation else None})),
            self._put(_item({**keys.api_key(key_hash), "kind": "api_key", "player_id": player.id})),
        ]

    def get_player(self, player_id: str) -> Player | None:
        item = self._get(keys.player(player_id))
        if item is None:
            return None
        player = Player(item["id"], item["name"], item.get("email"), item["created_at"])
        if "preferences" in item:
            player.preferences = json.loads(item["preferences"])
        if "vacation" in item:
            player.vacation = json.loads(item["vacation"])
        return player

    def set_vacation(self, player_id: str, vacation: dict) -> None:
        self._set_on_profile(player_id, "vacation", vacation)

    def set_preferences(self, player_id: str, preferences: dict) -> None:
        self._set_on_profile(player_id, "preferences", preferences)

    def _set_on_profile(self, player_id: str, attribute: str, value: Any) -> None:
        """Overwrite one JSON attribute of an existing player's profile (never creates a profile)."""
        self.client.update_item(**self._update(keys.player(player_id), f"SET {attribute} = :value",
                                               {":value": {"S": _dumps(value)}}))

    def player_for_key(self, key_hash: str) -> Player | None:
        item = self._get(keys.api_key(key_hash))
        return self.get_player(item["player_id"]) if item else None

    # ------------------------------------------------------------------ games

    def create_game(self, game: GameRecord, events: list[EventRecord],
                    idempotency: IdempotencyRecord | None, messages: list[Message] = ()) -> None:
        items = [self._put(game_item(game))]
        items += [self._put(self._event_item(e)) for e in events]
        items += [self._put(self._outbox_item(m)) for m in messages]
        items += [self._put(self._membership_item(m)) for m in memberships(game)]
        self._transact(items, idempotency)

    def load_game(self, game_id: str) -> GameRecord | None:
        item = self._get(keys.game(game_id))
        if item is None:
            return None
        return GameRecord(
            id=item["id"], game=item["game"], version=item["version"], status=item["status"],
            seats=[SeatRecord(s["seat"], s["player_id"], s["name"], s.get("email"), s.get("bot"))
                   for s in json.loads(item["seats"])],
            options=json.loads(item["options"]), state=json.loads(item["state"]),
            seed=int(item["seed"]), seed_public=item["seed_public"], created_by=item["created_by"],
            created_at=item["created_at"], updated_at=item["updated_at"],
            event_count=item.get("event_count", 0), to_move=item.get("to_move"),
            clock=json.loads(item["clock"]) if "clock" in item else None, deadline=item.get("deadline"),
            due_at=item.get("due_at"), rated=item.get("rated", False), tournament_id=item.get("tournament_id"),
            seed_withheld=item.get("seed_withheld", False), public=item.get("public", False),
        )

    def save_game(self, game: GameRecord, expected_version: int, events: list[EventRecord],
                  idempotency: IdempotencyRecord | None, messages: list[Message] = (),
                  new_players: Iterable[tuple[Player, str]] = ()) -> None:
        """Write the game at ``expected_version + 1`` with its events, or raise VersionConflict.
        ``new_players`` (player, API key hash) are created in the same transaction: a seat taken
        by a new player is never half-written."""
        if game.version != expected_version + 1:
            raise ValueError("a saved game is one version past the expected one")
        items = [self._put(game_item(game), _at_version(expected_version) | _RETURN_OLD)]
        items += [self._put(self._event_item(e)) for e in events]
        items += [self._put(self._membership_item(m), _ALWAYS) for m in memberships(game)]
        items += [self._put(self._outbox_item(m)) for m in messages]
        items += [put for player, key_hash in new_players for put in self._player_items(player, key_hash)]
        self._transact(items, idempotency, versioned=True)

    def list_events(self, game_id: str, after: int = 0) -> list[EventRecord]:
        items = self._query("PK = :pk AND SK > :after", {":pk": {"S": keys.game_pk(game_id)},
                                                         ":after": {"S": keys.event(game_id, after)["SK"]}})
        return [self._event_from(item) for item in items if item["SK"].startswith(keys.EVENT_PREFIX)]

    def list_memberships(self, player_id: str) -> list[Membership]:
        items = self._query_prefix(keys.player_pk(player_id), keys.MEMBERSHIP_PREFIX)
        return [self._membership_from(item) for item in items]

    def list_my_moves(self, player_id: str) -> list[Membership]:
        """The games where it is the player's move, soonest deadline first (the ``my_move`` index)."""
        items = self._query("mover = :p", {":p": {"S": player_id}}, index="my_move")
        return [self._membership_from(item) for item in items]

    @staticmethod
    def _membership_from(item: dict) -> Membership:
        return Membership(**{k: item.get(k) for k in Membership.__dataclass_fields__})

    # ------------------------------------------------------------------ clocks

    def due_games(self, now: str, limit: int = 100) -> list[str]:
        """Ids of games whose clock needs the sweeper by ``now`` (the sparse ``due`` index, never a scan)."""
        return [item["id"] for item in self._query_due(keys.CLOCK_DUE, now, limit)]

    def set_game_due(self, game_id: str, version: int, due_at: str | None) -> bool:
        """Move the game's next sweep, if it is still at ``version``."""
        return self._applied(self.client.update_item, **self._move_sweep(game_id, version, due_at))

    def send_reminder(self, game: GameRecord, mark: str, messages: list[Message], due_at: str | None) -> str:
        """Record the reminder ``mark`` once, with its messages, and move the game's next sweep.
        Returns "sent", "already" (it was sent before) or "moved" (the game changed meanwhile)."""
        items = [
            self._put(_item({**keys.reminder(game.id, mark), "kind": "reminder",
                             TTL_ATTRIBUTE: self._now_epoch() + 400 * 86400})),
            {"Update": self._move_sweep(game.id, game.version, due_at)},
            *[self._put(self._outbox_item(m)) for m in messages],
        ]
        try:
            self.client.transact_write_items(TransactItems=items)
        except self.client.exceptions.TransactionCanceledException as error:
            reasons = [r.get("Code", "None") for r in error.response.get("CancellationReasons", [])]
            if reasons and reasons[0] == "ConditionalCheckFailed":
                return "already"
            if len(reasons) > 1 and reasons[1] == "ConditionalCheckFailed":
                return "moved"
            raise
        return "sent"

    def _move_sweep(self, game_id: str, version: int, due_at: str | None) -> dict:
        """The update that moves the game's next sweep to ``due_at`` (or, without one, takes the game
        out of the ``due`` index), if the game is still at ``version``."""
        if due_at:
            return self._update(keys.game(game_id), "SET due_at = :d", {":d": {"S": due_at}}, _at_version(version))
        return self._update(keys.game(game_id), "REMOVE due, due_at", None, _at_version(version))

    def save_clock(self, game: GameRecord) -> bool:
        """Rewrite the game's clock (a vacation moved it) at the same version; False if it moved on."""
        items = [self._put(game_item(game), _at_version(game.version))]
        items += [self._put(self._membership_item(m), _ALWAYS) for m in memberships(game)]
        try:
            self.client.transact_write_items(TransactItems=items)
        except self.client.exceptions.TransactionCanceledException:
            return False
        return True

    # ------------------------------------------------------------------ ratings

    def get_rating(self, player_id: str, game: str) -> RatingRecord:
        item = self._get(keys.rating(player_id, game))
        return RatingRecord(player_id, game) if item is None else self._rating_from(item)

    def list_ratings(self, player_id: str) -> list[RatingRecord]:
        items = self._query_prefix(keys.player_pk(player_id), keys.RATING_PREFIX)
        return [self._rating_from(item) for item in items]

    def save_ratings(self, game_id: str, ratings: list[RatingRecord]) -> bool:
        """Write the ratings a finished game changed, once: False if this game was rated already
        (a re-run). Each rating is guarded by its version; a race raises VersionConflict."""
        items = [self._put(_item({**keys.rated(game_id), "kind": "rated"}))]
        for r in ratings:
            values = {**keys.rating(r.player_id, r.game), "kind": "rating",
                      **{k: getattr(r, k) for k in RatingRecord.__dataclass_fields__}}
            values["version"] = r.version + 1
            if not r.provisional:
                values.update(keys.leaderboard(r.game, _decimal(r.rating)))
            for name in ("rating", "rd", "volatility"):
                values[name] = _decimal(values[name])
            items.append(self._put(_item(values), _IS_NEW if r.version == 0 else _at_version(r.version)))
        try:
            self.client.transact_write_items(TransactItems=items)
        except self.client.exceptions.TransactionCanceledException as error:
            reasons = [r.get("Code", "None") for r in error.response.get("CancellationReasons", [])]
            if reasons and reasons[0] == "ConditionalCheckFailed":
                return False
            raise VersionConflict(None) from error
        return True

    def leaderboard(self, game: str, limit: int) -> list[RatingRecord]:
        items = self._query("lb = :g", {":g": {"S": game}}, index="leaderboard", limit=limit, descending=True)
        return [self._rating_from(item) for item in items]

    @staticmethod
    def _rating_from(item: dict) -> RatingRecord:
        return RatingRecord(**{k: item[k] for k in RatingRecord.__dataclass_fields__ if k in item})

    # ------------------------------------------------------------------ tournaments

    def put_tournament(self, tournament: TournamentRecord, expected_version: int | None,
                       messages: list[Message] = ()) -> None:
        """Create (``expected_version`` None) or update a tournament, with its outbox messages in the
        same transaction; raise VersionConflict if it moved on."""
        item = _item({**keys.tournament(tournament.id), "kind": "tournament", "id": tournament.id,
                      "data": _dumps(tournament.data), "version": tournament.version})
        condition = _IS_NEW if expected_version is None else _at_version(expected_version)
        try:
            self._transact([self._put(item, condition), *[self._put(self._outbox_item(m)) for m in messages]], None,
                           versioned=True)
        except VersionConflict:
            raise VersionConflict(None) from None

    def load_tournament(self, tournament_id: str) -> TournamentRecord | None:
        item = self._get(keys.tournament(tournament_id))
        return TournamentRecord(item["id"], json.loads(item["data"]), item["version"]) if item else None

    # ------------------------------------------------------------------ idempotency

    def get_idempotency(self, scope: str, key: str) -> IdempotencyRecord | None:
        item = self._get(keys.idempotency(scope, key))
        if item is None or item.get(TTL_ATTRIBUTE, 0) < self._now_epoch():
            return None  # DynamoDB deletes expired items lazily; treat them as gone at once
        return IdempotencyRecord(scope, key, item["fingerprint"], json.loads(item["body"]), item["created_at"])

    # ------------------------------------------------------------------ webhooks

    def put_webhook(self, endpoint: WebhookEndpoint) -> None:
        self.client.put_item(TableName=self.table, Item=_item({
            **keys.webhook(endpoint.player_id, endpoint.id), "kind": "webhook",
            "id": endpoint.id, "player_id": endpoint.player_id, "url": endpoint.url,
            "events": _dumps(endpoint.events), "secrets": _dumps([s.__dict__ for s in endpoint.secrets]),
            "disabled": endpoint.disabled, "created_at": endpoint.created_at,
        }))

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
        response = self.client.delete_item(TableName=self.table, Key=_key(keys.webhook(player_id, webhook_id)),
                                           ReturnValues="ALL_OLD")
        return "Attributes" in response

    # ------------------------------------------------------------------ the outbox

    def _outbox_item(self, message: Message) -> dict:
        return _item({**keys.outbox(message.created_at, message.id), "kind": "outbox",
                      "msg_id": message.id, "type": message.type, "player_id": message.player_id,
                      "data": _dumps(message.data), "created_at": message.created_at})

    @staticmethod
    def message_from(item: dict) -> Message:
        return Message(item["msg_id"], item["type"], item["player_id"], json.loads(item["data"]), item["created_at"])

    def list_outbox(self, limit: int = 100) -> list[tuple[str, Message]]:
        items = self._query("PK = :pk", {":pk": {"S": keys.OUTBOX_PK}}, limit=limit)
        return [(item["SK"], self.message_from(item)) for item in items]

    def delete_outbox(self, sort_key: str) -> None:
        self.client.delete_item(TableName=self.table, Key=_key(keys.outbox_at(sort_key)))

    # ------------------------------------------------------------------ deliveries

    def _delivery_item(self, d: Delivery) -> dict:
        values = {
            **keys.delivery(d.webhook_id, d.msg_id), "kind": "delivery",
            "webhook_id": d.webhook_id, "msg_id": d.msg_id, "player_id": d.player_id, "type": d.type,
            "body": d.body, "status": d.status, "attempts": _dumps([a.__dict__ for a in d.attempts]),
            "next_attempt_at": d.next_attempt_at, "created_at": d.created_at, "version": d.version,
        }
        if d.status == "pending" and d.next_attempt_at:
            values.update(keys.delivery_due(d.next_attempt_at))  # in the sparse "due" index
        return _item(values)

    @staticmethod
    def _delivery_from(item: dict) -> Delivery:
        return Delivery(item["webhook_id"], item["msg_id"], item["player_id"], item["type"], item["body"],
                        item["status"], [Attempt(**a) for a in json.loads(item["attempts"])],
                        item.get("next_attempt_at"), item["created_at"], item.get("version", 0))

    def create_delivery(self, delivery: Delivery) -> bool:
        """False when this message was already given to this endpoint (a dispatch re-run)."""
        return self._put_if(self._delivery_item(delivery), _IS_NEW)

    def update_delivery(self, delivery: Delivery, expected_version: int) -> bool:
        """Write the delivery if nobody else changed it since ``expected_version``."""
        return self._put_if(self._delivery_item(delivery), _at_version(expected_version))

    def get_delivery(self, webhook_id: str, msg_id: str) -> Delivery | None:
        item = self._get(keys.delivery(webhook_id, msg_id))
        return self._delivery_from(item) if item else None

    def list_deliveries(self, webhook_id: str) -> list[Delivery]:
        items = self._query_prefix(keys.webhook_pk(webhook_id), keys.DELIVERY_PREFIX)
        return [self._delivery_from(item) for item in items]

    def due_deliveries(self, now: str, limit: int = 100) -> list[Delivery]:
        """Deliveries whose next attempt is due, from the sparse index (never a scan)."""
        entries = self._query_due(keys.DELIVERY_DUE, now, limit)
        # The index is eventually consistent: read each item itself before acting on it.
        found = [self.get_delivery(entry["webhook_id"], entry["msg_id"]) for entry in entries]
        return [d for d in found if d is not None and d.status == "pending"]

    # ------------------------------------------------------------------ items

    def _event_item(self, event: EventRecord) -> dict:
        return _item({
            **keys.event(event.game_id, event.seq), "kind": "event",
            "seq": event.seq, "version": event.version, "type": event.type, "seat": event.seat,
            "data": _dumps(event.data), "private": _dumps(event.private), "at": event.at,
        })

    @staticmethod
    def _event_from(item: dict) -> EventRecord:
        return EventRecord(
            game_id=keys.game_id_of(item["PK"]), seq=item["seq"], version=item["version"],
            type=item["type"], seat=item.get("seat"), data=json.loads(item["data"]),
            at=item["at"], private=json.loads(item.get("private", "{}")),
        )

    def _membership_item(self, m: Membership) -> dict:
        values = {
            **keys.membership(m.player_id, m.game_id), "kind": "membership",
            "player_id": m.player_id, "game_id": m.game_id, "game": m.game, "seat": m.seat,
            "status": m.status, "to_move": m.to_move, "version": m.version, "updated_at": m.updated_at,
            "deadline": m.deadline,
        }
        if m.status == "active" and m.to_move == m.seat:  # in the sparse "my_move" index
            values.update(keys.my_move(m.player_id, m.deadline))
        return _item(values)

    def _idempotency_item(self, record: IdempotencyRecord) -> dict:
        return _item({**keys.idempotency(record.scope, record.key), "kind": "idempotency",
                      "fingerprint": record.fingerprint,
                      # Key order kept, so that a replay is byte for byte the first response.
                      "body": json.dumps(record.body, separators=(",", ":")), "created_at": record.created_at,
                      TTL_ATTRIBUTE: self._now_epoch() + IDEMPOTENCY_TTL_SECONDS})

    # ------------------------------------------------------------------ calls

    def _put(self, item: dict, condition: dict = _IS_NEW) -> dict:
        """A transaction's Put of ``item`` on ``condition`` (by default: the item is new)."""
        return {"Put": {"TableName": self.table, "Item": item, **condition}}

    def _update(self, key: keys.Key, expression: str, values: dict | None = None, condition: dict = _EXISTS) -> dict:
        """The arguments of an update of the item at ``key`` on ``condition`` (by default: the item
        exists), as an UpdateItem call or a transaction's Update takes them."""
        update = {"TableName": self.table, "Key": _key(key), "UpdateExpression": expression, **condition}
        values = {**(values or {}), **condition.get("ExpressionAttributeValues", {})}
        if values:
            update["ExpressionAttributeValues"] = values
        return update

    def _put_if(self, item: dict, condition: dict) -> bool:
        """Put one item on ``condition``; False when the condition failed (another write came first)."""
        return self._applied(self.client.put_item, TableName=self.table, Item=item, **condition)

    def _applied(self, write, **arguments: Any) -> bool:
        """Make one conditional single-item write; False when its condition failed."""
        try:
            write(**arguments)
        except self.client.exceptions.ConditionalCheckFailedException:
            return False
        return True

    def _transact(self, items: list[dict], idempotency: IdempotencyRecord | None,
                  *, versioned: bool = False) -> None:
        """Write all items or none. ``versioned``: the first item is the version-guarded game."""
        if idempotency is not None:
            # A record left from an expired key may still be there: overwrite only if expired.
            items = items + [self._put(self._idempotency_item(idempotency), {
                "ConditionExpression": "attribute_not_exists(PK) OR #ttl < :now",
                "ExpressionAttributeNames": {"#ttl": TTL_ATTRIBUTE},
                "ExpressionAttributeValues": {":now": {"N": str(self._now_epoch())}},
            })]
        try:
            self.client.transact_write_items(TransactItems=items)
        except self.client.exceptions.TransactionCanceledException as error:
            reasons = [r.get("Code", "None") for r in error.response.get("CancellationReasons", [])]
            failed = [i for i, code in enumerate(reasons) if code == "ConditionalCheckFailed"]
            if idempotency is not None and len(items) - 1 in failed:
                raise IdempotencyRace() from error
            if versioned and 0 in failed:
                old = error.response["CancellationReasons"][0].get("Item")
                current = int(old["version"]["N"]) if old and "version" in old else None
                raise VersionConflict(current) from error
            if failed:
                raise DuplicateItem(str(reasons)) from error
            raise

    def _get(self, key: keys.Key) -> dict | None:
        """The item at ``key``, read strongly consistently, or None."""
        response = self.client.get_item(TableName=self.table, Key=_key(key), ConsistentRead=True)
        return _plain(response["Item"]) if "Item" in response else None

    def _query(self, condition: str, values: dict, *, index: str | None = None, limit: int | None = None,
               descending: bool = False) -> list[dict]:
        """The items a key condition selects, in sort-key order (``descending``: reversed): from the
        table read strongly consistently, or from the global ``index`` (eventually consistent).
        Every page, or with ``limit`` only the first page of at most ``limit`` items."""
        items: list[dict] = []
        kwargs: dict[str, Any] = {"TableName": self.table, "KeyConditionExpression": condition,
                                  "ExpressionAttributeValues": values}
        if index is None:
            kwargs["ConsistentRead"] = True
        else:
            kwargs["IndexName"] = index  # global indexes are eventually consistent
        if limit is not None:
            kwargs["Limit"] = limit
        if descending:
            kwargs["ScanIndexForward"] = False
        while True:
            response = self.client.query(**kwargs)
            items += [_plain(item) for item in response["Items"]]
            if limit is not None or "LastEvaluatedKey" not in response:
                return items
            kwargs["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def _query_prefix(self, pk: str, prefix: str) -> list[dict]:
        """Every item of the partition ``pk`` whose sort key begins with ``prefix`` (all pages)."""
        return self._query("PK = :pk AND begins_with(SK, :prefix)", {":pk": {"S": pk}, ":prefix": {"S": prefix}})

    def _query_due(self, partition: str, now: str, limit: int) -> list[dict]:
        """The first ``limit`` entries of the ``due`` index's ``partition`` that are due by ``now``."""
        return self._query("due = :due AND due_at <= :now", {":due": {"S": partition}, ":now": {"S": now}},
                           index="due", limit=limit)


def game_item(game: GameRecord) -> dict:
    """A game as its stored item (``benchmarks/item_size.py`` measures it)."""
    return _item({
        **keys.game(game.id), "kind": "game",
        "id": game.id, "game": game.game, "version": game.version, "status": game.status,
        "seats": _dumps([s.stored() for s in game.seats]), "options": _dumps(game.options),
        "state": _dumps(game.state), "seed": game.seed, "seed_public": game.seed_public,
        "created_by": game.created_by, "created_at": game.created_at,
        "updated_at": game.updated_at, "event_count": game.event_count,
        "to_move": game.to_move, "clock": _dumps(game.clock) if game.clock else None,
        "deadline": game.deadline, "rated": game.rated, "tournament_id": game.tournament_id,
        "seed_withheld": game.seed_withheld or None, "public": game.public or None,
        # In the sparse "due" index while its clock runs: the sweeper's next look.
        **(keys.clock_due(game.due_at) if game.due_at and game.status == "active" else {}),
    })


def memberships(game: GameRecord) -> Iterable[Membership]:
    for seat in game.seats:
        if seat.player_id is None:
            continue
        yield Membership(seat.player_id, game.id, game.game, seat.seat, game.status, game.to_move,
                         game.version, game.updated_at, game.deadline)
