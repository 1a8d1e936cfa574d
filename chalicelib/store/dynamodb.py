"""The DynamoDB adapter: one table, a move in one small conditional write, the stream as the outbox.

A game is three kinds of item in its own partition (docs/storage.md): its **settings** (type,
seats, options, seed), one **version** item per version (the state, clock and the events that
version added, compressed by ``codec.py``; written once, on the condition that it is new), and
its **head** (the latest version in brief, which carries the game's index entries). A move is
one ``PutItem`` of the next version: two writers at one version race for one key, and exactly
one wins. Everything that follows a move (the head and its index entries, the players' game
lists when the status changes, every notification) is done by the outbox consumer from the
table's stream, so the move's own write is all the request pays for.

Every call to DynamoDB goes through :class:`Boundary`, so the store raises only its own
errors (``store/errors.py``): ``StoreUnavailable`` when DynamoDB cannot be reached or fails,
``Throttled`` when it refuses for capacity or cancels a racing transaction, and a
``Conflict`` (``VersionConflict``, ``IdempotencyRace``, ``DuplicateItem``) when a condition
fails.

Every key comes from ``keys.py``; every call shape is written once, under "calls" at the end.
"""

from __future__ import annotations

from .dynamo.clocks import DynamoClocks
from .dynamo.competitions import DynamoCompetitions
from .dynamo.games import DynamoGames
from .dynamo.idempotency import DynamoIdempotency
from .dynamo.lobby import DynamoLobby
from .dynamo.mail import DynamoMailAnswers
from .dynamo.notes import DynamoNotes
from .dynamo.notifications import DynamoNotifications
from .dynamo.outbox import DynamoOutbox
from .dynamo.players import DynamoPlayers
from .dynamo.ratings import DynamoRatings
from .dynamo.table import Boundary, Table, store_error  # noqa: F401 - named from here too
from .errors import (  # noqa: F401 - the store's errors are named from here too
    Conflict,
    DuplicateItem,
    IdempotencyRace,
    LimitReached,
    StoreError,
    StoreUnavailable,
    Throttled,
    VersionConflict,
)


class DynamoStore(DynamoPlayers, DynamoGames, DynamoOutbox, DynamoClocks, DynamoNotes, DynamoLobby, DynamoRatings,
                  DynamoCompetitions, DynamoIdempotency, DynamoNotifications, DynamoMailAnswers, Table):
    """The ``Store``: every area's DynamoDB storage over one client and one table. A new store method
    goes in its area's module (``dynamo/<area>.py``) and protocol (``protocol.py``), not here."""
