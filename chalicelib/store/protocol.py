"""What the services need from storage: the ``Store`` protocol (``DynamoStore`` implements it).

Every method may raise :class:`StoreUnavailable` (DynamoDB down, timed out or failing) or
:class:`Throttled` (refused for now): a write is one request or one transaction, applied whole
or not at all. The other errors (``store/errors.py``) are named per method below. Reads of an
item, of a partition or of the outbox are strongly consistent; reads of an index (``my_move``,
``due``, ``leaderboard``) are eventually consistent, so whoever acts on one re-reads the item.
A test (tests/store/test_store_protocol.py) keeps the members' parameters the same as DynamoStore's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Protocol

if TYPE_CHECKING:  # kept out of the import: web.py loads store.errors at a cold start
    from ..records import (
        Delivery,
        EventRecord,
        GameRecord,
        IdempotencyRecord,
        Membership,
        Message,
        Player,
        RatingRecord,
        TournamentRecord,
        WebhookEndpoint,
    )


class Store(Protocol):
    # ------------------------------------------------------------------ players

    def create_player(self, player: Player, key_hash: str, idempotency: IdempotencyRecord | None) -> None:
        """Create the player and its API key (stored as ``key_hash``) together, with the idempotency
        record if given; DuplicateItem if either exists, IdempotencyRace if the key was used first."""

    def get_player(self, player_id: str) -> Player | None:
        """The player, or None."""

    def player_for_key(self, key_hash: str) -> Player | None:
        """The player whose API key hashes to ``key_hash``, or None."""

    def set_vacation(self, player_id: str, vacation: dict) -> None:
        """Overwrite an existing player's vacation (never creates a player)."""

    def set_preferences(self, player_id: str, preferences: dict) -> None:
        """Overwrite an existing player's notification preferences (never creates a player)."""

    # ------------------------------------------------------------------ games

    def create_game(self, game: GameRecord, events: list[EventRecord],
                    idempotency: IdempotencyRecord | None, messages: list[Message] = ()) -> None:
        """Write a new game with its events, its seated players' memberships and its outbox messages,
        all or nothing; DuplicateItem if the game exists, IdempotencyRace if the key was used first."""

    def load_game(self, game_id: str) -> GameRecord | None:
        """The game, or None."""

    def save_game(self, game: GameRecord, expected_version: int, events: list[EventRecord],
                  idempotency: IdempotencyRecord | None, messages: list[Message] = (),
                  new_players: Iterable[tuple[Player, str]] = ()) -> None:
        """Write the game at ``expected_version + 1`` with its new events, memberships, messages and
        new players (player, key hash), all or nothing; VersionConflict (with the stored version) if
        the game moved on, IdempotencyRace if the key was used first."""

    def list_events(self, game_id: str, after: int = 0) -> list[EventRecord]:
        """The game's events numbered above ``after``, in order."""

    def list_memberships(self, player_id: str) -> list[Membership]:
        """Every game the player is seated in, as of each game's last write."""

    def list_my_moves(self, player_id: str) -> list[Membership]:
        """The active games where it is the player's move, soonest deadline first, games without a
        clock last (an index: eventually consistent)."""

    # ------------------------------------------------------------------ clocks

    def due_games(self, now: str, limit: int = 100) -> list[str]:
        """Ids of at most ``limit`` active games whose clock needs a look by ``now`` (an index,
        never a scan: re-read each game)."""

    def set_game_due(self, game_id: str, version: int, due_at: str | None) -> bool:
        """Move the game's next look to ``due_at`` (None: no more looks); False if the game is no
        longer at ``version``."""

    def send_reminder(self, game: GameRecord, mark: str, messages: list[Message], due_at: str | None) -> str:
        """Record the reminder ``mark`` once with its messages and move the next look: "sent";
        "already" if ``mark`` was recorded before; "moved" if the game left ``game.version``."""

    def save_clock(self, game: GameRecord) -> bool:
        """Rewrite the game (its clock) and memberships at the same version; False if it moved on."""

    # ------------------------------------------------------------------ ratings

    def get_rating(self, player_id: str, game: str) -> RatingRecord:
        """The player's rating at ``game``; a new player's default rating (version 0) if none."""

    def list_ratings(self, player_id: str) -> list[RatingRecord]:
        """Every rating the player has, one per game type."""

    def save_ratings(self, game_id: str, ratings: list[RatingRecord]) -> bool:
        """Write the ratings the finished game changed, once: False if the game was rated already;
        VersionConflict if a rating changed since it was read."""

    def leaderboard(self, game: str, limit: int) -> list[RatingRecord]:
        """The ``limit`` highest ratings at ``game`` that are no longer provisional, highest first
        (an index: eventually consistent)."""

    # ------------------------------------------------------------------ tournaments

    def put_tournament(self, tournament: TournamentRecord, expected_version: int | None,
                       messages: list[Message] = ()) -> None:
        """Create (``expected_version`` None) or update the tournament with its messages, all or
        nothing; VersionConflict if it exists already (create) or moved past ``expected_version``."""

    def load_tournament(self, tournament_id: str) -> TournamentRecord | None:
        """The tournament, or None."""

    # ------------------------------------------------------------------ idempotency

    def get_idempotency(self, scope: str, key: str) -> IdempotencyRecord | None:
        """The stored response to Idempotency-Key ``key`` in ``scope``; None if none or expired (24 h)."""

    # ------------------------------------------------------------------ webhooks & deliveries

    def put_webhook(self, endpoint: WebhookEndpoint) -> None:
        """Create or overwrite the endpoint."""

    def get_webhook(self, player_id: str, webhook_id: str) -> WebhookEndpoint | None:
        """The player's endpoint, or None (another player's endpoint is not found)."""

    def list_webhooks(self, player_id: str) -> list[WebhookEndpoint]:
        """Every endpoint of the player."""

    def delete_webhook(self, player_id: str, webhook_id: str) -> bool:
        """Delete the player's endpoint; False if there was none."""

    def create_delivery(self, delivery: Delivery) -> bool:
        """Record a new delivery; False if this message was given to this endpoint already."""

    def update_delivery(self, delivery: Delivery, expected_version: int) -> bool:
        """Overwrite the delivery; False if it changed since ``expected_version``."""

    def get_delivery(self, webhook_id: str, msg_id: str) -> Delivery | None:
        """The delivery of the message to the endpoint, or None."""

    def list_deliveries(self, webhook_id: str) -> list[Delivery]:
        """Every delivery to the endpoint."""

    def due_deliveries(self, now: str, limit: int = 100) -> list[Delivery]:
        """Pending deliveries whose next attempt is due by ``now`` (at most ``limit``, from an index,
        each re-read consistently)."""

    # ------------------------------------------------------------------ the outbox

    def list_outbox(self, limit: int = 100) -> list[tuple[str, Message]]:
        """The oldest ``limit`` messages waiting to be dispatched, each with the sort key that
        deletes it."""

    def delete_outbox(self, sort_key: str) -> None:
        """Remove a dispatched message (no error if it is gone already)."""

    @staticmethod
    def message_from(item: dict) -> Message:
        """The message of an outbox item's plain attributes (the stream consumer's new image)."""
