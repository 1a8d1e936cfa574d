"""The outbox as a test reads it: every message the table's stream holds, without dispatching any.

The table's stream is the outbox (docs/storage.md): a game version implies its messages
(``messages.for_committed``) and other items carry theirs. Each call reads the whole stream
afresh, from its oldest record, so it lists what was written whether or not a consumer has
handled it yet.
"""

from __future__ import annotations

from chalicelib.notify.messages import for_committed
from chalicelib.records import Message
from chalicelib.store.errors import StoreError
from chalicelib.store.stream import StreamTail


def written(store) -> list[Message]:
    """Every message written so far, oldest first (the same message twice if it was written twice)."""
    found: list[Message] = []

    def each(record: dict) -> None:
        change = store.change_of(record["eventName"], record["dynamodb"].get("NewImage") or {})
        if change is not None:
            found.extend(change.messages)
            if change.committed is not None:
                found.extend(for_committed(change.committed))

    StreamTail(store.client, store.table).each(each)
    return found


class Projector:
    """What the deployed outbox consumer does within a moment of each write, done at once for the
    tests: game heads (and their index entries) and players' game lists follow each committed
    version. Its own place in the stream, so messages are still left to ``drain_outbox``."""

    def __init__(self, store) -> None:
        self.store = store
        self.tail = StreamTail(store.client, store.table)

    def __call__(self) -> None:
        def each(record: dict) -> None:
            change = self.store.change_of(record["eventName"], record["dynamodb"].get("NewImage") or {})
            if change is not None and change.committed is not None:
                self.store.project(change.committed)

        try:
            self.tail.each(each)
        except StoreError:
            pass  # DynamoDB is down (a test made it so): as the consumer would, try again next time
