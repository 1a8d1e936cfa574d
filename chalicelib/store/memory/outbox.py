"""The outbox area (``store.protocol.OutboxStore``) in memory: the change feed is the list of
changes the table's stream would have reported (``MemoryTable._emit``), in the order written."""

from __future__ import annotations

from typing import Callable

from ..records import Change, Committed, Message
from ..items import change_of, memberships, message_from
from ..protocol import ChangeTail
from .table import MemoryTable, T, kept


class MemoryChanges:
    """A reader of the change feed with its own place (``OutboxStore.tail``)."""

    def __init__(self, changes: list[Change], lock) -> None:
        self._changes = changes  # the store's own list, appended to as it is written
        self._lock = lock
        self.place = 0

    def each(self, handle: Callable[[Change], T]) -> list[T]:
        results: list[T] = []
        while True:
            with self._lock:
                if self.place >= len(self._changes):
                    return results
                change = kept(self._changes[self.place])
            results.append(handle(change))  # if it raises, this change comes again next time
            self.place += 1


class MemoryOutbox(MemoryTable):
    """The outbox: the change feed, and what the consumer does after each committed version."""

    def changes(self, handle: Callable[[Change], T]) -> list[T]:
        if not hasattr(self, "_consumer"):
            self._consumer = MemoryChanges(self._changes, self._lock)
        return self._consumer.each(handle)

    def change_of(self, event_name: str, image: dict) -> Change | None:
        return change_of(event_name, image)

    def tail(self) -> ChangeTail:
        return MemoryChanges(self._changes, self._lock)

    def project(self, committed: Committed) -> None:
        game = committed.game
        head = self._heads.get(game.id)
        if head is not None and not (head["v"] < game.version or
                                     (head["v"] == game.version and head.get("r", 0) < game.revision)):
            return  # a later version (or this one) is projected already
        self._heads[game.id] = self._head_of(game)
        if (head or {}).get("st") != game.status:
            for m in memberships(game):
                stored = self._memberships.get((m.player_id, game.id))
                if stored is None:
                    raise KeyError(f"no membership of {m.player_id} in {game.id}")  # as DynamoDB's update refuses
                stored.status, stored.version, stored.updated_at = game.status, game.version, game.updated_at

    @staticmethod
    def message_from(item: dict) -> Message:
        return message_from(item)
