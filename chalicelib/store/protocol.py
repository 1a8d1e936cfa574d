"""What the services need from storage: the ``Store`` protocol (``DynamoStore`` and the in-memory
``MemoryStore`` implement it).

Every method may raise :class:`StoreUnavailable` (DynamoDB down, timed out or failing) or
:class:`Throttled` (refused for now): a write is one request or one transaction, applied whole
or not at all. The other errors (``store/errors.py``) are named per method below. Reads of an
item or of a partition are strongly consistent unless said otherwise; reads of an index
(``my_move``, ``due``, ``leaderboard``) are eventually consistent, so whoever acts on one re-reads
the item. What follows a write (a game's head and index entries, its players' lists, every
notification) is done by the outbox consumer from the table's stream (:meth:`changes`,
:meth:`project`), a moment later.
A test (tests/store/test_store_protocol.py) keeps the members' parameters the same as DynamoStore's
and MemoryStore's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Protocol, TypeVar

if TYPE_CHECKING:  # kept out of the import: web.py loads store.errors at a cold start
    from .records import (
        EmailStop,
        ApiKeyRecord,
        Change,
        Committed,
        Delivery,
        EventRecord,
        GameRecord,
        IdempotencyRecord,
        InvitationCount,
        LadderBoard,
        LadderChallenge,
        LadderRecord,
        NotesRecord,
        BlockRecord,
        Membership,
        Message,
        Player,
        RatingRecord,
        RecoveryRequest,
        RungRecord,
        TournamentRecord,
        WebhookEndpoint,
    )


T = TypeVar("T")


# The storage of each area is a protocol of its own (at most 25 methods: tests/test_architecture.py);
# a service may depend on the areas it uses. ``Store``, at the end, is all of them: what a service
# that works across areas is given, and what ``DynamoStore`` and ``MemoryStore`` each implement.


class PlayerStore(Protocol):
    """Players, their API keys, addresses, recovery and settings."""

    # ------------------------------------------------------------------ players

    def create_player(self, player: Player, key_hash: str, idempotency: IdempotencyRecord | None) -> None:
        """Create the player and its API key (stored as ``key_hash``) together, with the idempotency
        record if given; DuplicateItem if either exists, IdempotencyRace if the key was used first."""

    def get_player(self, player_id: str) -> Player | None:
        """The player, or None."""

    def get_players(self, player_ids: list[str]) -> dict[str, Player]:
        """The players that exist among ``player_ids``, by id (a page's worth: findPlayers'
        bot marks, the leaderboard's names), by one batch read, eventually consistent."""

    def api_key(self, key_hash: str) -> ApiKeyRecord | None:
        """The API key hashing to ``key_hash`` (one strongly consistent read of the key's own item), or
        None."""

    def add_api_key(self, player_id: str, name: str, key_hash: str, created_at: str, current: str,
                    until: str, until_epoch: int) -> None:
        """Store a new key of the player (``fresh``: not used yet) and list it on the profile, with the
        key ``current`` the request came with; then every other key of the player stops working at
        ``until`` at the latest (an earlier end is kept; ``until_epoch`` is the same moment for the
        table's TTL). The profile's ``key_generation`` goes up by one (in the same transaction)."""

    def activate_api_key(self, player_id: str, key_hash: str) -> bool:
        """A fresh key's first use: every other key of the player is deleted and this one is fresh no
        more, all or nothing; False if this key is gone (another key of the player was used first).
        When other keys end, the profile's ``key_generation`` goes up by one in the same transaction."""

    def revoke_api_keys(self, player_id: str, current: str) -> None:
        """Delete every key of the player (``current`` too, for a profile from before keys were
        listed on it): none works from now on; then the profile's ``key_generation`` goes up by one."""

    def players_with_email(self, email_hash: str) -> list[str]:
        """The ids of the players whose address hashes to ``email_hash`` (``ids.hash_email``)."""

    # Mail that does not arrive (services/mailevents.py): a stop per address, by its hash.

    def email_stop(self, email_hash: str, consistent: bool = True) -> EmailStop | None:
        """Why no mail goes to the address hashing to ``email_hash`` any more, or None (mail goes)."""

    def stop_email(self, email_hash: str, stop: EmailStop) -> bool:
        """Stop mail to the address (one conditional write): False, changing nothing, if it is stopped
        already (the first stop is kept: an event delivered again changes nothing) or was set again
        after ``stop.since`` (an old event redelivered after the player resumed it)."""

    def set_player_email(self, player_id: str, old: str | None, new: str, resumed_at: str) -> None:
        """The player's address is ``new`` (it was ``old``): the profile, the address lookup items
        (the old one's deleted, the new one's written) and the new address's mail resumed at
        ``resumed_at`` (its stop cleared), in one transaction."""

    # Migrations (devtools/backfill_player_emails.py): an operator's one-off, never a request's path.

    def scan_profiles_with_email(self, page_size: int = 100) -> Iterator[tuple[str, str]]:
        """Every player's ``(id, address)`` that has an address, read a page at a time by a Scan of
        the whole table: for a migration only (a request never scans)."""

    def has_player_email(self, player_id: str, email: str) -> bool:
        """Whether the player's address lookup item (what ``players_with_email`` reads) is there."""

    def add_player_email(self, player_id: str, email: str) -> bool:
        """Write the player's address lookup item if missing; False when it was there (idempotent)."""

    def add_recovery(self, request: RecoveryRequest, messages: list[Message]) -> None:
        """Record a recovery request by email (one write, whether or not it names a player) with the
        emails it sends (its outbox)."""

    def recovery(self, request_id: str) -> RecoveryRequest | None:
        """The recovery request, or None (never made, or gone a day after)."""

    def replace_api_keys(self, player_id: str, name: str, key_hash: str, created_at: str, *,
                         recovery_id: str | None = None, recovery_code: str | None = None,
                         new_recovery_code: str | None = None) -> bool:
        """Account recovery, all or nothing: use the player's link of request ``recovery_id``, or
        consume their stored ``recovery_code`` hash (replaced by ``new_recovery_code`` if given);
        delete every key of the player and make ``key_hash`` their one key, the profile's
        ``key_generation`` one up. False when the link was used or the code changed first."""

    def find_players(self, name_key: str, limit: int, after: str | None) -> tuple[list[Player], str | None]:
        """At most ``limit`` players whose name matches as ``name_key`` (``text.name_key``), after the
        player id ``after`` (a page's last; None: from the first), and the last one's id when more
        follow (None: no more). Each has no email (the index carries none). An index: eventually
        consistent."""

    def make_reachable(self, player_id: str) -> None:
        """The player can now be told things (a webhook was registered): no unfinished game of theirs
        counts them quiet any more (:attr:`SeatRecord.quiet`)."""

    def set_seat_vacation(self, game_id: str, player_id: str, vacation: dict) -> bool:
        """Tell the game the player's vacations (its clock passes with them); False if there is no
        such game."""

    def notification_targets(self, player_id: str) -> tuple[Player | None, list[WebhookEndpoint]]:
        """The player and their webhook endpoints, in one eventually consistent read: what the
        dispatcher needs to tell them something."""

    def set_vacation(self, player_id: str, vacation: dict) -> None:
        """Overwrite an existing player's vacation (never creates a player)."""

    def set_preferences(self, player_id: str, preferences: dict, digest_at: str | None = None) -> None:
        """Overwrite an existing player's notification preferences (never creates a player), and in the
        same write their daily digest's next send (``digest_at``; None: the digest is off)."""


class GameStore(Protocol):
    """Games: their versions, events and the memberships of their players."""

    # ------------------------------------------------------------------ games

    def create_game(self, game: GameRecord, events: list[EventRecord],
                    idempotency: IdempotencyRecord | None, messages: list[Message] = (),
                    invitations: InvitationCount | None = None) -> None:
        """Write a new game (version 0 with its events), its seated players' memberships and the
        messages its making sends, all or nothing, with the idempotency record (and its response);
        DuplicateItem if the game exists, IdempotencyRace if the key was used first. With
        ``invitations``: the creator's count of invitations by email that day goes up with it, and
        LimitReached (nothing written) if it would go over ``invitations.most``."""

    def invitations_sent(self, player_id: str, day: str) -> int:
        """The player's count of invitations by email on ``day`` (UTC): 0 when none."""

    def load_game(self, game_id: str) -> GameRecord | None:
        """The game at its latest version, or None."""

    def load_version(self, game_id: str, version: int) -> tuple[GameRecord, list[EventRecord]] | None:
        """The game as version ``version`` left it (with the request that made it) and the events that
        version added, or None."""

    def game_history(self, game_id: str) -> list[tuple[GameRecord, list[EventRecord]]]:
        """Every version of the game, oldest first, each as it left the game with the events it added
        (one strongly consistent query of the game's versions, and its settings); [] if no such game."""

    def latest_version(self, game_id: str) -> int | None:
        """The number of the game's latest version, or None if there is no such game."""

    def save_game(self, game: GameRecord, expected_version: int, events: list[EventRecord],
                  idempotency: IdempotencyRecord | None, messages: list[Message] = (),
                  new_players: Iterable[tuple[Player, str]] = (), seats_changed: bool = False) -> None:
        """Write version ``expected_version + 1`` with its events and the messages saved with it (the
        messages a version implies are the outbox consumer's: ``messages.for_committed``), and with new
        players (player, key hash) and their memberships, and the seats when ``seats_changed`` (a seat
        accepted or joined), all or nothing; VersionConflict (with the
        latest version) if the game moved on. ``idempotency`` (a move's: no body, its game and version)
        is marked on the version and then recorded by itself: a retry finds one or the other."""

    def list_events(self, game_id: str, after: int = 0) -> list[EventRecord]:
        """The game's events numbered above ``after``, in order."""

    def list_memberships(self, player_id: str) -> list[Membership]:
        """Every game the player is seated in, each as its head (or, finished, its membership) tells it."""

    def list_my_moves(self, player_id: str) -> list[Membership]:
        """The active games where it is the player's move, soonest deadline first, games without a
        clock last (an index: eventually consistent)."""


class ChangeTail(Protocol):
    """A reader of the outbox with its own place (``OutboxStore.tail``)."""

    def each(self, handle: Callable[[Change], T]) -> list[T]:
        """Hand ``handle`` every change reported since this reader's last call (at first: since the
        oldest), in order, each acknowledged once ``handle`` returns; returns what it returned."""


class OutboxStore(Protocol):
    """The outbox: what follows a write, from the table's stream."""

    # ------------------------------------------------------------------ the outbox: the table's stream

    def changes(self, handle: Callable[[Change], T]) -> list[T]:
        """Hand ``handle`` every change the table's stream reported since the last call, in order,
        each acknowledged once ``handle`` returns (if it raises, that change comes again next time);
        returns what it returned. For local development and the tests: in AWS, Lambda reads the
        stream and the consumer asks :meth:`change_of` of each record."""

    def change_of(self, event_name: str, image: dict) -> Change | None:
        """What the outbox consumer makes of one stream record (its event name and new image, as
        DynamoDB types it), or None when it has nothing to do with it."""

    def tail(self) -> ChangeTail:
        """A reader of the changes with its own place, from the oldest: the tests' view of the outbox
        (tests/outbox.py), which leaves :meth:`changes`'s place where it was."""

    def project(self, committed: Committed) -> None:
        """Bring the game's head (and its index entries) to the committed version unless a later one
        is there, and the players' memberships when the game's status changed. Safe to repeat."""

    @staticmethod
    def message_from(item: dict) -> Message:
        """A message as an item's ``outbox`` attribute lists it."""


class ClockStore(Protocol):
    """The games' clocks (timeouts and reminders) and the players' daily digests: work due by a time."""

    # ------------------------------------------------------------------ clocks

    def due_games(self, now: str, limit: int = 100) -> list[str]:
        """Ids of at most ``limit`` active games whose clock needs a look by ``now`` (an index,
        never a scan: re-read each game)."""

    def set_game_due(self, game_id: str, version: int, due_at: str | None) -> bool:
        """Move the game's next look to ``due_at`` (None: no more looks); False if the game's head is
        no longer at ``version``."""

    def send_reminder(self, game: GameRecord, mark: str, messages: list[Message], due_at: str | None) -> str:
        """Record the reminder ``mark`` once with its messages and move the next look: "sent";
        "already" if ``mark`` was recorded before; "moved" if the game left ``game.version``."""

    def save_clock(self, game: GameRecord) -> bool:
        """Rewrite the latest version's clock (and deadline) in place; False if the game moved on."""

    # ------------------------------------------------------------------ daily digests

    def due_digests(self, now: str, limit: int = 100) -> list[str]:
        """Ids of at most ``limit`` players whose daily digest is due by ``now`` (an index, never a scan:
        re-read each player)."""

    def send_digest(self, player_id: str, local_date: str, messages: list[Message], was: str,
                    next_at: str | None) -> str:
        """Record the player's digest of ``local_date`` once with its messages (none: nothing is recorded)
        and move their next send from ``was`` to ``next_at`` (None: off), all or nothing: "sent";
        "already" if that date's digest was recorded before (the next send is moved all the same);
        "moved" if their next send is no longer ``was`` (their preferences changed meanwhile)."""


class NotesStore(Protocol):
    """A seat's private notes on a game."""

    # ------------------------------------------------------------------ notes

    def get_notes(self, game_id: str, seat: int) -> NotesRecord | None:
        """A seat's private notes on a game, or None if that seat never saved any."""

    def put_notes(self, notes: NotesRecord) -> None:
        """Save a seat's notes over any before (one item of its own: the game's versions are untouched)."""


class LobbyStore(Protocol):
    """Who may be asked to play whom: blocks, the games a player has going, games open to anyone."""

    # ------------------------------------------------------------------ blocks

    def put_block(self, blocker_id: str, block: BlockRecord) -> None:
        """Record that ``blocker_id`` blocked ``block.player_id`` (over the same block made before)."""

    def delete_block(self, blocker_id: str, blocked_id: str) -> None:
        """Forget that block (nothing if there was none)."""

    def list_blocks(self, blocker_id: str) -> list[BlockRecord]:
        """Every player ``blocker_id`` blocked (one query of the blocker's partition)."""

    def blocks_among(self, pairs: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        """Of the (blocker, blocked) pairs, those that are blocks (one BatchGet, eventually consistent)."""

    def count_unfinished_games(self, player_id: str) -> int:
        """How many games the player has a seat in that are not finished, leaving out the games they were
        asked to play and have not accepted (their memberships, counted: one query of the player's
        partition, no item returned)."""

    def open_games(self, game: str, limit: int) -> list[str]:
        """Ids of the newest ``limit`` games of type ``game`` with a seat open to anyone, newest
        first (an index: eventually consistent; the caller re-reads each game)."""


class RatingStore(Protocol):
    """Ratings and the leaderboard."""

    # ------------------------------------------------------------------ ratings

    def get_rating(self, player_id: str, game: str) -> RatingRecord:
        """The player's rating in the pool ``game``; a new player's default rating (version 0) if none."""

    def list_ratings(self, player_id: str) -> list[RatingRecord]:
        """Every rating the player has, one per pool (``RatingRecord.game``: a game type, or a Khan &
        General card set rated apart)."""

    def get_ratings(self, player_ids: list[str], game: str) -> dict[str, RatingRecord]:
        """Each player's rating at ``game`` (the default for one who has none), eventually consistent."""

    def save_ratings(self, game_id: str, ratings: list[RatingRecord]) -> bool:
        """Write the ratings the finished game changed, once: False if the game was rated already;
        VersionConflict if a rating changed since it was read."""

    def leaderboard(self, game: str, limit: int,
                    keep: Callable[[RatingRecord], bool]) -> tuple[list[RatingRecord], list[RatingRecord]]:
        """The ``limit`` highest ratings at ``game`` that were established when saved and that ``keep``
        accepts (established still), highest first, and those it refused on the way (an index:
        eventually consistent; each shard is read on past the refused until it gives ``limit``)."""

    def drop_from_leaderboard(self, rating: RatingRecord) -> bool:
        """Take the rating out of the leaderboard index (it aged into provisional) unless it changed
        since it was read; False if it had."""


class CompetitionStore(Protocol):
    """Tournaments and ladders."""

    # ------------------------------------------------------------------ tournaments

    def put_tournament(self, tournament: TournamentRecord, expected_version: int | None,
                       messages: list[Message] = (), idempotency: IdempotencyRecord | None = None) -> None:
        """Create (``expected_version`` None) or update the tournament with its messages, all or
        nothing; VersionConflict if it exists already (create) or moved past ``expected_version``.
        ``idempotency`` (a creation's): its record, written with it; IdempotencyRace if the key was
        used first."""

    def load_tournament(self, tournament_id: str) -> TournamentRecord | None:
        """The tournament, or None."""

    def list_tournaments(self, statuses: list[str], limit: int, before: str | None) -> tuple[list[dict], str | None]:
        """At most ``limit`` tournaments of the ``statuses``, newest first, each as its summary
        (``items.tournament_summary``); only those listed before the position ``before`` (a page's
        last; None: from the newest), and the last one's position when more follow (None: no more).
        An index: eventually consistent."""

    # ------------------------------------------------------------------ ladders

    def create_ladder(self, ladder: LadderRecord, idempotency: IdempotencyRecord | None = None) -> bool:
        """Create the ladder (with the idempotency record if given, all or nothing); False if it
        exists; IdempotencyRace if the key was used first."""

    def load_ladder(self, ladder_id: str) -> LadderBoard | None:
        """The ladder (settings, rungs top first with their players, open challenges) by one strongly
        consistent read of its partition, or None."""

    def list_ladders(self, limit: int, before: str | None) -> tuple[list[LadderRecord], str | None]:
        """At most ``limit`` organisers' ladders, newest first, listed before the position ``before`` (a
        page's last; None: from the newest), and the last one's position when more follow (None: no
        more). An index: eventually consistent."""

    def join_ladder(self, ladder_id: str, rung: RungRecord, idle_at: str) -> str:
        """Put the player on the ladder at ``rung.position``, leaving it idle at ``idle_at`` unless they
        play: "joined"; "already" if they are on it; "taken" if the position was taken first."""

    def open_ladder_challenge(self, game: GameRecord, events: list[EventRecord], messages: list[Message],
                              idempotency: IdempotencyRecord | None, challenge: LadderChallenge,
                              players: list[tuple[RungRecord, str]], max_open: int) -> str:
        """Create the challenge's game (``game.ladder_id``'s) with the challenge and both players' open
        challenges counted up, all or nothing: "opened"; "already_challenged" if the pair has one open;
        "changed" if a player's rung moved or their open challenges reached ``max_open`` since read;
        IdempotencyRace if the key was used first."""

    def settle_ladder_challenge(self, ladder_id: str, challenge: LadderChallenge,
                                players: list[tuple[RungRecord, str]], move: tuple[RungRecord, str] | None,
                                now: str, messages: list[Message]) -> str:
        """Close the finished challenge once, with its messages, its players' counts down, and the
        winner's rung moved to a new position if ``move`` says so: "settled"; "already" (settled
        before); "changed" (a rung moved, or the new position was taken, since read)."""

    def leave_ladder(self, ladder_id: str, rung: RungRecord) -> bool:
        """Take the player off the ladder if still as read and with no open challenge; False if not."""

    def ladder_challenge_answered(self, ladder_id: str, challenge: LadderChallenge) -> bool:
        """The challenge needs no look at its answer time any more; False if it is gone."""

    def set_ladder_idle_at(self, ladder_id: str, rung: RungRecord, idle_at: str) -> bool:
        """Look at the player again at ``idle_at``; False if they left or their rung moved."""

    def due_ladders(self, now: str, limit: int = 100) -> list[str]:
        """Ids of ladders with work due by ``now`` (an index, never a scan: re-read each ladder)."""


class IdempotencyStore(Protocol):
    """Stored responses to Idempotency-Keys (written by the other areas' writes)."""

    # ------------------------------------------------------------------ idempotency

    def get_idempotency(self, scope: str, key: str) -> IdempotencyRecord | None:
        """The stored response to Idempotency-Key ``key`` in ``scope``; None if none or expired (24 h)."""


class NotificationStore(Protocol):
    """Webhook endpoints and the deliveries to them."""

    # ------------------------------------------------------------------ webhooks & deliveries

    def put_webhook(self, endpoint: WebhookEndpoint) -> None:
        """Create or overwrite the endpoint."""

    def create_webhook(self, endpoint: WebhookEndpoint, idempotency: IdempotencyRecord | None) -> None:
        """Create the endpoint with the idempotency record if given, all or nothing; DuplicateItem if
        the endpoint exists, IdempotencyRace if the key was used first."""

    def get_webhook(self, player_id: str, webhook_id: str) -> WebhookEndpoint | None:
        """The player's endpoint, or None (another player's endpoint is not found)."""

    def list_webhooks(self, player_id: str) -> list[WebhookEndpoint]:
        """Every endpoint of the player."""

    def delete_webhook(self, player_id: str, webhook_id: str) -> bool:
        """Delete the player's endpoint; False if there was none."""

    def create_delivery(self, delivery: Delivery) -> bool:
        """Record a delivery (after its first attempt); False if it was recorded already."""

    def update_delivery(self, delivery: Delivery, expected_version: int) -> bool:
        """Overwrite the delivery; False if it changed since ``expected_version``."""

    def get_delivery(self, webhook_id: str, msg_id: str, consistent: bool = True) -> Delivery | None:
        """The delivery of the message to the endpoint, or None (``consistent=False``: a read that may
        miss a delivery recorded a moment ago, at half the price)."""

    def list_deliveries(self, webhook_id: str) -> list[Delivery]:
        """Every delivery to the endpoint."""

    def due_deliveries(self, now: str, limit: int = 100) -> list[Delivery]:
        """Pending deliveries whose next attempt is due by ``now`` (at most ``limit``, from an index,
        each re-read consistently)."""


class MailAnswerStore(Protocol):
    """Answers to inbound mail (mailplay/answering.py): counters and marks per address, by its hash
    (in the address's own partition), each with a TTL."""

    def count_mail_answer(self, email_hash: str, window: str, most: int, expires_at: int) -> int:
        """One more answer to the address in ``window`` (one conditional ADD), if the count stays at
        most ``most``: the count with it (1 for the window's first); 0, changing nothing, when it would not."""

    def count_unread_mail(self, email_hash: str, unread: bool, expires_at: int) -> int:
        """One more message in a row from the address that could not be read (``unread``), or none
        (a readable one resets the count); returns the count before this message."""

    def mail_answered(self, email_hash: str, message_hash: str) -> bool:
        """Whether the message (its Message-ID's hash) from the address was answered already."""

    def mark_mail_answered(self, email_hash: str, message_hash: str, expires_at: int) -> None:
        """Record that the message from the address was answered (a redelivery is not answered again)."""


class Store(PlayerStore, GameStore, OutboxStore, ClockStore, NotesStore, LobbyStore, RatingStore,
            CompetitionStore, IdempotencyStore, NotificationStore, MailAnswerStore, Protocol):
    """Every area's storage in one: a new method goes in its area's protocol above."""


AREAS = (PlayerStore, GameStore, OutboxStore, ClockStore, NotesStore, LobbyStore, RatingStore, CompetitionStore,
         IdempotencyStore, NotificationStore, MailAnswerStore)
