"""What each area's in-memory storage (``memory/<area>.py``) shares: the records of every area, one
lock, the clock the TTLs are read on, and the change feed (the list of what the table's stream would
report). Records are stored as copies and handed out as copies: a caller never shares one with the
store."""

from __future__ import annotations

import copy
import json
import threading
from dataclasses import replace
import time
from typing import Any, Callable, TypeVar

from ..records import Change
from ..dynamo.table import (  # noqa: F401 - the same lifetimes as DynamoDB's items
    DIGEST_TTL_SECONDS,
    IDEMPOTENCY_TTL_SECONDS,
    RECOVERY_TTL_SECONDS,
    REMINDER_TTL_SECONDS,
)
from ..items import change_of

T = TypeVar("T")

def kept(value: Any) -> Any:
    """``value`` as a store keeps it: a deep copy, the caller's object never shared."""
    return copy.deepcopy(value)


def as_json(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples as lists, keys as strings): what a game's state, clock
    and events are after DynamoDB's codec stored them."""
    return None if value is None else json.loads(json.dumps(value))


class MemoryTable:
    """Every area's records, by the key each is read by."""

    def __init__(self, now_epoch: Callable[[], int] | None = None) -> None:
        self._lock = threading.RLock()
        self._now_epoch = now_epoch or (lambda: int(time.time()))
        self._changes: list[Change] = []
        # players
        self._players: dict[str, Any] = {}  # id -> Player
        self._keys_of: dict[str, set[str]] = {}  # player id -> the key hashes its profile lists
        self._api_keys: dict[str, dict] = {}  # key hash -> {player_id, name, fresh, until}
        self._emails: dict[str, set[str]] = {}  # email hash -> player ids
        self._email_status: dict[str, dict] = {}  # email hash -> {reason, since, stop_kind, resumed_at}
        self._recoveries: dict[str, dict] = {}  # request id -> {created_at, marks, expires}
        # games
        self._settings: dict[str, dict] = {}  # game id -> {game: GameRecord, quiet: set, vacations: dict}
        self._versions: dict[str, list[dict]] = {}  # game id -> [{game, events, messages, idempotency, r}]
        self._heads: dict[str, dict] = {}  # game id -> the head as items.head_item lays it out (plain)
        self._memberships: dict[tuple[str, str], Any] = {}  # (player, game) -> Membership
        self._invitations: dict[tuple[str, str], int] = {}  # (player, day) -> count
        self._marks: set[tuple[str, str]] = set()  # (partition, mark): reminders, digests, rated, ladder results
        # the rest
        self._ratings: dict[tuple[str, str], Any] = {}  # (player, game type) -> RatingRecord
        self._listed: set[tuple[str, str]] = set()  # (player, game type) of the ratings on the leaderboard
        self._blocks: dict[str, dict[str, Any]] = {}  # blocker -> blocked -> BlockRecord
        self._tournaments: dict[str, Any] = {}  # id -> TournamentRecord
        self._ladders: dict[str, dict] = {}  # id -> {ladder, members, rungs, challenges}
        self._idempotency: dict[tuple[str, str], tuple[Any, int]] = {}  # (scope, key) -> (record, expires)
        self._mail: dict[tuple[str, str], tuple[int, int]] = {}  # (email hash, what) -> (count, expires)
        self._notes: dict[tuple[str, int], Any] = {}
        self._webhooks: dict[tuple[str, str], Any] = {}
        self._deliveries: dict[tuple[str, str], Any] = {}

    def _emit(self, event_name: str, image: dict) -> None:
        """Record what the table's stream would report of a write of ``image`` (typed as DynamoDB's
        stream record carries it), if the outbox consumer makes anything of it."""
        change = change_of(event_name, image)
        if change is not None:
            self._changes.append(change)

    # Idempotency records, written by the other areas' writes.

    def _idempotency_free(self, record) -> bool:
        found = self._idempotency.get((record.scope, record.key))
        return found is None or found[1] < self._now_epoch()

    def _put_idempotency(self, record) -> None:
        stored = replace(kept(record), body=as_json(record.body))  # as JSON gives it back
        self._idempotency[(record.scope, record.key)] = (stored, self._now_epoch() + IDEMPOTENCY_TTL_SECONDS)
