"""The outbox as a test reads it: every message the table's stream holds, without dispatching any.

The table's stream is the outbox (docs/storage.md): a game version implies its messages
(``messages.for_committed``) and other items carry theirs. Each call reads the whole feed
(``OutboxStore.tail``) afresh, from its oldest record, so it lists what was written whether or not a consumer has
handled it yet.
"""

from __future__ import annotations

from chalicelib.notify.messages import for_committed
from chalicelib.store.records import Message
from chalicelib.store.errors import StoreError


def written(store) -> list[Message]:
    """Every message written so far, oldest first (the same message twice if it was written twice)."""
    found: list[Message] = []

    def each(change) -> None:
        found.extend(change.messages)
        if change.committed is not None:
            found.extend(for_committed(change.committed))

    store.tail().each(each)
    return found


class Projector:
    """What the deployed outbox consumer does within a moment of each write, done at once for the
    tests: game heads (and their index entries) and players' game lists follow each committed
    version. Its own place in the stream, so messages are still left to ``drain_outbox``."""

    def __init__(self, store) -> None:
        self.store = store
        self.tail = store.tail()

    def __call__(self) -> None:
        def each(change) -> None:
            if change.committed is not None:
                self.store.project(change.committed)

        try:
            self.tail.each(each)
        except StoreError:
            pass  # DynamoDB is down (a test made it so): as the consumer would, try again next time
