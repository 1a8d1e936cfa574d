"""The DynamoDB storage of one area (``store.protocol.OutboxStore``); docs/storage.md."""

from __future__ import annotations

from typing import Callable

from ..records import (
    Change,
    Committed,
    Message,
)
from .. import keys
from ..items import (
    HEAD_FIELDS,
    change_of,
    head_item,
    message_from,
    memberships,
    plain,
    typed,
    typed_key,
)
from ..protocol import ChangeTail
from ..stream import StreamTail
from .table import T, Table


class DynamoOutbox(Table):
    """The outbox: the table's stream, and what the consumer makes of each record."""

    def changes(self, handle: Callable[[Change], T]) -> list[T]:
        return StreamChanges(self._tail, self.change_of).each(handle)

    def change_of(self, event_name: str, image: dict) -> Change | None:
        return change_of(event_name, image)

    def tail(self) -> ChangeTail:
        """A reader of the stream with its own place, from its oldest record."""
        return StreamChanges(StreamTail(self.client, self.table), self.change_of)

    def project(self, committed: Committed) -> None:
        """The head follows the version (unless a later one is there already), and when the game's
        status changed, so do its players' memberships."""
        game = committed.game
        head = {k: v for k, v in plain(head_item(game)).items() if k not in ("PK", "SK")}
        gone = [name for name in HEAD_FIELDS if name not in head]
        expression = "SET " + ", ".join(f"#{name} = :{name}" for name in head)
        if gone:
            expression += " REMOVE " + ", ".join(f"#{name}" for name in gone)
        try:
            response = self.client.update_item(
                TableName=self.table, Key=typed_key(keys.head(game.id)), UpdateExpression=expression,
                ConditionExpression="attribute_not_exists(#v) OR #v < :v OR (#v = :v AND #r < :r)",
                ExpressionAttributeNames={f"#{name}": name for name in [*head, *gone]},
                ExpressionAttributeValues={f":{k}": v for k, v in typed(head).items()}, ReturnValues="ALL_OLD")
        except self.client.exceptions.ConditionalCheckFailedException:
            return  # a later version (or this one) is projected already
        before = plain(response.get("Attributes", {})).get("st")
        if before != game.status:
            for m in memberships(game):
                self.client.update_item(**self._update(
                    keys.membership(m.player_id, game.id), "SET #s = :s, version = :v, updated_at = :at",
                    {":s": {"S": game.status}, ":v": {"N": str(game.version)}, ":at": {"S": game.updated_at}},
                    names={"#s": "status"}))

    @staticmethod
    def message_from(item: dict) -> Message:
        return message_from(item)


class StreamChanges:
    """The changes of the table's stream, read by a tail of its own (``OutboxStore.tail``)."""

    def __init__(self, tail: StreamTail, change_of: Callable[[str, dict], Change | None]) -> None:
        self._tail = tail
        self._change_of = change_of

    def each(self, handle: Callable[[Change], T]) -> list[T]:
        def each(record: dict) -> T | None:
            change = self._change_of(record["eventName"], record["dynamodb"].get("NewImage") or {})
            return handle(change) if change is not None else None

        return [found for found in self._tail.each(each) if found is not None]
