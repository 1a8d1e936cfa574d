"""The table as every area's DynamoDB storage uses it: the client behind :class:`Boundary`, the
conditions, the item helpers and every call shape (written once, under "calls")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

import botocore.exceptions

from ..records import (
    IdempotencyRecord,
)
from .. import keys
from ..errors import (
    DuplicateItem,
    IdempotencyRace,
    LimitReached,
    StoreError,
    StoreUnavailable,
    Throttled,
)
from ..items import (
    plain,
    typed,
    typed_key,
)
from ..schema import TTL_ATTRIBUTE
from ..stream import StreamTail

T = TypeVar("T")
IDEMPOTENCY_TTL_SECONDS = 24 * 3600
DELIVERY_TTL_SECONDS = 30 * 86400  # a delivery's record (listWebhookDeliveries) is kept 30 days
REMINDER_TTL_SECONDS = 400 * 86400
RECOVERY_TTL_SECONDS = 86400  # a recovery request's links last 30 minutes; its item a day (then TTL)
DIGEST_TTL_SECONDS = 7 * 86400  # a digest's mark: only a rerun of its own day needs it


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


# The conditions a write is made on (spread into a Put, an Update or their transaction items).
IS_NEW = {"ConditionExpression": "attribute_not_exists(PK)"}  # the item must not exist yet
EXISTS = {"ConditionExpression": "attribute_exists(PK)"}  # the item must exist already
ALWAYS: dict = {}  # no condition: overwrite


def at_version(version: int, attribute: str = "version") -> dict:
    """The item must still be at ``version``: nobody else wrote it since it was read."""
    return {"ConditionExpression": f"{attribute} = :version",
            "ExpressionAttributeValues": {":version": {"N": str(version)}}}


class Table:
    """What each area's storage (``dynamo/<area>.py``) shares: one client, one table, the calls."""

    def __init__(self, client, table: str, *, now_epoch=None, stream_checkpoint: Path | None = None) -> None:
        import time

        self.client = client if isinstance(client, Boundary) else Boundary(client)
        self.table = table
        self._now_epoch = now_epoch or (lambda: int(time.time()))
        self._tail = StreamTail(self.client, table, stream_checkpoint)

    def _idempotency_item(self, record: IdempotencyRecord) -> dict:
        return typed({**keys.idempotency(record.scope, record.key), "kind": "idempotency",
                      "fingerprint": record.fingerprint,
                      # Key order kept, so that a replay is byte for byte the first response.
                      "body": json.dumps(record.body, separators=(",", ":")) if record.body is not None else None,
                      "game_id": record.game_id, "game_version": record.version,
                      "created_at": record.created_at, TTL_ATTRIBUTE: self._now_epoch() + IDEMPOTENCY_TTL_SECONDS})

    def _unexpired(self) -> dict:
        """The condition that no unexpired record is there (an expired one may be overwritten)."""
        return {"ConditionExpression": "attribute_not_exists(PK) OR #ttl < :now",
                "ExpressionAttributeNames": {"#ttl": TTL_ATTRIBUTE},
                "ExpressionAttributeValues": {":now": {"N": str(self._now_epoch())}}}

    def _put(self, item: dict, condition: dict = IS_NEW) -> dict:
        """A transaction's Put of ``item`` on ``condition`` (by default: the item is new)."""
        return {"Put": {"TableName": self.table, "Item": item, **condition}}

    def _update(self, key: keys.Key, expression: str, values: dict | None = None, condition: dict = EXISTS,
                names: dict | None = None) -> dict:
        """The arguments of an update of the item at ``key`` on ``condition`` (by default: the item
        exists), as an UpdateItem call or a transaction's Update takes them."""
        update = {"TableName": self.table, "Key": typed_key(key), "UpdateExpression": expression, **condition}
        values = {**(values or {}), **condition.get("ExpressionAttributeValues", {})}
        if values:
            update["ExpressionAttributeValues"] = values
        if names:
            update["ExpressionAttributeNames"] = names
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

    def _transact(self, items: list[dict], idempotency: IdempotencyRecord | None, limit_at: int | None = None) -> None:
        """Write all items or none, with the idempotency record (and its stored response) if given;
        LimitReached when the item at ``limit_at`` (a counter) failed its condition."""
        if idempotency is not None:
            # A record left from an expired key may still be there: overwrite only if expired.
            items = items + [self._put(self._idempotency_item(idempotency), self._unexpired())]
        try:
            self.client.transact_write_items(TransactItems=items)
        except self.client.exceptions.TransactionCanceledException as error:
            reasons = [r.get("Code", "None") for r in error.response.get("CancellationReasons", [])]
            failed = [i for i, code in enumerate(reasons) if code == "ConditionalCheckFailed"]
            if idempotency is not None and len(items) - 1 in failed:
                raise IdempotencyRace() from error
            if limit_at is not None and limit_at in failed:
                raise LimitReached(str(reasons)) from error
            if failed:
                raise DuplicateItem(str(reasons)) from error
            raise

    def _transact_failed(self, items: list[dict]) -> set[int] | None:
        """Write all items or none: None when written, else the indexes of the items whose condition
        failed."""
        try:
            self.client.transact_write_items(TransactItems=items)
        except self.client.exceptions.TransactionCanceledException as error:
            reasons = [r.get("Code", "None") for r in error.response.get("CancellationReasons", [])]
            failed = {i for i, code in enumerate(reasons) if code == "ConditionalCheckFailed"}
            if not failed:
                raise
            return failed
        return None

    def _get(self, key: keys.Key, consistent: bool = True) -> dict | None:
        """The item at ``key``, read strongly consistently (unless told otherwise), or None."""
        response = self.client.get_item(TableName=self.table, Key=typed_key(key), ConsistentRead=consistent)
        return plain(response["Item"]) if "Item" in response else None

    def _batch_get(self, wanted: list[keys.Key]) -> list[dict]:
        """The items at ``wanted`` that exist (eventually consistent, 100 keys a call)."""
        found: list[dict] = []
        for start in range(0, len(wanted), 100):
            request = {self.table: {"Keys": [typed_key(k) for k in wanted[start:start + 100]]}}
            while request:
                response = self.client.batch_get_item(RequestItems=request)
                found += [plain(item) for item in response["Responses"].get(self.table, [])]
                request = response.get("UnprocessedKeys") or {}
        return found

    def _query(self, condition: str, values: dict, *, index: str | None = None, limit: int | None = None,
               descending: bool = False, consistent: bool = True, names: dict | None = None) -> list[dict]:
        """The items a key condition selects, in sort-key order (``descending``: reversed): from the
        table (read strongly consistently unless told otherwise), or from the global ``index``
        (eventually consistent). Every page, or with ``limit`` only the first page of at most
        ``limit`` items."""
        items: list[dict] = []
        start = None
        while True:
            page, start = self._query_page(condition, values, index=index, limit=limit, descending=descending,
                                           consistent=consistent, start=start, names=names)
            items += page
            if limit is not None or start is None:
                return items

    def _query_page(self, condition: str, values: dict, *, index: str | None = None, limit: int | None = None,
                    descending: bool = False, consistent: bool = True,
                    start: dict | None = None, names: dict | None = None) -> tuple[list[dict], dict | None]:
        """One page of a query, and where the next begins (None: this was the last)."""
        kwargs: dict[str, Any] = {"TableName": self.table, "KeyConditionExpression": condition,
                                  "ExpressionAttributeValues": values}
        if index is None:
            kwargs["ConsistentRead"] = consistent
        else:
            kwargs["IndexName"] = index  # global indexes are eventually consistent
        if limit is not None:
            kwargs["Limit"] = limit
        if descending:
            kwargs["ScanIndexForward"] = False
        if start is not None:
            kwargs["ExclusiveStartKey"] = start
        if names:
            kwargs["ExpressionAttributeNames"] = names
        response = self.client.query(**kwargs)
        return [plain(item) for item in response["Items"]], response.get("LastEvaluatedKey")

    def _query_prefix(self, pk: str, prefix: str) -> list[dict]:
        """Every item of the partition ``pk`` whose sort key begins with ``prefix`` (all pages)."""
        return self._query("PK = :pk AND begins_with(SK, :prefix)", {":pk": {"S": pk}, ":prefix": {"S": prefix}})

    def _query_due(self, kind: str, now: str, limit: int) -> list[dict]:
        """The first ``limit`` entries due by ``now`` of the ``due`` index's shards of ``kind``."""
        found: list[dict] = []
        for partition in keys.shards(kind):
            found += self._query("#d = :due AND due_at <= :now", {":due": {"S": partition}, ":now": {"S": now}},
                                 index="due", limit=limit - len(found), names={"#d": "due"})
            if len(found) >= limit:
                break
        return found
