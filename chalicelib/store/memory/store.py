"""The ``Store`` in memory (``MemoryStore``): every area's storage (``memory/<area>.py``) over one set
of records, for the unit tests (docs/storage.md says which tests run where).

It keeps the documented guarantees of ``store/protocol.py`` as ``DynamoStore`` does: conditional writes
and their errors, all-or-nothing transactions (every condition checked before anything is written),
ordering and pagination, the expiry the store shows (idempotency records after 24 h, recovery requests
after a day, by the ``now_epoch`` clock it is given), the indexes, and the change feed: a ``Change``
for every write whose stream record the outbox consumer acts on, made by the same ``items.change_of``
from the same item. What follows a write (heads, their index entries, memberships' statuses) happens
only when ``project`` is called, as on DynamoDB. Records go in and come out as copies. One lock
serialises the calls (races are tested on DynamoDB Local)."""

from __future__ import annotations

import functools

from ..protocol import AREAS
from .clocks import MemoryClocks
from .competitions import MemoryCompetitions
from .games import MemoryGames
from .idempotency import MemoryIdempotency
from .lobby import MemoryLobby
from .mail import MemoryMailAnswers
from .notes import MemoryNotes
from .notifications import MemoryNotifications
from .outbox import MemoryOutbox
from .players import MemoryPlayers
from .ratings import MemoryRatings


class MemoryStore(MemoryPlayers, MemoryGames, MemoryOutbox, MemoryClocks, MemoryNotes, MemoryLobby, MemoryRatings,
                  MemoryCompetitions, MemoryIdempotency, MemoryNotifications, MemoryMailAnswers):
    """The ``Store``: every area's in-memory storage over one set of records. A new store method goes in
    its area's module (``memory/<area>.py``), as on DynamoDB."""


def _locked(method):
    @functools.wraps(method)
    def call(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)

    return call


for _area in AREAS:
    for _name, _member in vars(_area).items():
        if not _name.startswith("_") and callable(_member) and not isinstance(_member, staticmethod) \
                and _name not in ("changes",):  # the feed's reader takes the lock per change itself
            setattr(MemoryStore, _name, _locked(getattr(MemoryStore, _name)))
