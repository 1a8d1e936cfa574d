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

import json
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TypeVar

import botocore.exceptions

from ..records import (
    ApiKeyRecord,
    Attempt,
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
    EmailStop,
    Membership,
    Message,
    Player,
    RatingRecord,
    RecoveryRequest,
    RungRecord,
    TournamentRecord,
    WebhookEndpoint,
    WebhookSecret,
    preferences_with_defaults,
)
from .. import ids
from . import codec, keys
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
from .items import (
    HEAD_FIELDS,
    VACATION_PREFIX,
    challenge_item,
    committed_game,
    ladder_board_from,
    ladder_from,
    ladder_item,
    member_item,
    rung_item,
    decimal,
    dumps,
    events_from,
    game_from,
    head_item,
    typed_key,
    membership_from,
    membership_item,
    memberships,
    outbox,
    plain,
    settings_item,
    tournament_summary,
    typed,
    version_item,
)
from .schema import TTL_ATTRIBUTE
from .stream import StreamTail

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
_IS_NEW = {"ConditionExpression": "attribute_not_exists(PK)"}  # the item must not exist yet
_EXISTS = {"ConditionExpression": "attribute_exists(PK)"}  # the item must exist already
_ALWAYS: dict = {}  # no condition: overwrite


def _at_version(version: int, attribute: str = "version") -> dict:
    """The item must still be at ``version``: nobody else wrote it since it was read."""
    return {"ConditionExpression": f"{attribute} = :version",
            "ExpressionAttributeValues": {":version": {"N": str(version)}}}


class DynamoStore:
    def __init__(self, client, table: str, *, now_epoch=None, stream_checkpoint: Path | None = None) -> None:
        import time

        self.client = client if isinstance(client, Boundary) else Boundary(client)
        self.table = table
        self._now_epoch = now_epoch or (lambda: int(time.time()))
        self._tail = StreamTail(self.client, table, stream_checkpoint)

    # ------------------------------------------------------------------ players

    def create_player(self, player: Player, key_hash: str, idempotency: IdempotencyRecord | None) -> None:
        """Create the player and its API key in one transaction; DuplicateItem if either exists,
        IdempotencyRace if another request with the same Idempotency-Key came first."""
        self._transact(self._player_items(player, key_hash), idempotency)

    def _player_items(self, player: Player, key_hash: str) -> list[dict]:
        """A new player: its profile and its API key (hashed), both on ``attribute_not_exists``. The
        key's item names the player, so that authenticating reads it alone."""
        return [
            self._put(typed({**keys.player(player.id), "kind": "player",
                             "id": player.id, "name": player.name, "email": player.email,
                             "created_at": player.created_at, "preferences": dumps(player.preferences),
                             "vacation": dumps(player.vacation) if player.vacation else None,
                             "keys": {key_hash}, **keys.player_name(player.name),
                             "recovery_code": player.recovery_code,
                             "bot": True if player.bot else None})),
            self._put(typed({**keys.api_key(key_hash), "kind": "api_key", "player_id": player.id,
                             "name": player.name})),
        ] + ([self._put(self._player_email_item(player.id, player.email))] if player.email else [])

    @staticmethod
    def _player_email_item(player_id: str, email: str) -> dict:
        """The address lookup item of a player with this address (``keys.player_email``)."""
        return typed({**keys.player_email(ids.hash_email(email), player_id), "kind": "player_email",
                      "player_id": player_id})

    def get_player(self, player_id: str) -> Player | None:
        item = self._get(keys.player(player_id))
        return self._player_from(item) if item else None

    def get_players(self, player_ids: list[str]) -> dict[str, Player]:
        """The players that exist among ``player_ids``, by id: one BatchGetItem of their profiles
        (eventually consistent, 100 keys a call)."""
        found = self._batch_get([keys.player(p) for p in dict.fromkeys(player_ids)])
        return {item["id"]: self._player_from(item) for item in found}

    @staticmethod
    def _player_from(item: dict) -> Player:
        player = Player(item["id"], item["name"], item.get("email"), item["created_at"])
        if "preferences" in item:
            player.preferences = preferences_with_defaults(json.loads(item["preferences"]))
        if "vacation" in item:
            player.vacation = json.loads(item["vacation"])
        player.recovery_code = item.get("recovery_code")
        if str(item.get("due", "")).startswith(keys.DIGEST_DUE + "#"):
            player.digest_at = item.get("due_at")
        player.bot = bool(item.get("bot"))
        player.key_generation = int(item.get("key_generation", 0))
        return player

    def set_vacation(self, player_id: str, vacation: dict) -> None:
        self._set_on_profile(player_id, "vacation", vacation)

    def set_preferences(self, player_id: str, preferences: dict, digest_at: str | None = None) -> None:
        """The preferences and the digest's entry in the ``due`` index, in one write."""
        if digest_at is None:
            expression, values = "SET preferences = :value REMOVE #d, due_at", {}
        else:
            due = keys.digest_due(player_id, digest_at)
            expression, values = "SET preferences = :value, #d = :d, due_at = :at", {
                ":d": {"S": due["due"]}, ":at": {"S": digest_at}}
        self.client.update_item(**self._update(keys.player(player_id), expression,
                                               {":value": {"S": dumps(preferences)}, **values}, names={"#d": "due"}))

    def _set_on_profile(self, player_id: str, attribute: str, value: Any) -> None:
        """Overwrite one JSON attribute of an existing player's profile (never creates a profile)."""
        self.client.update_item(**self._update(keys.player(player_id), f"SET {attribute} = :value",
                                               {":value": {"S": dumps(value)}}))

    def api_key(self, key_hash: str) -> ApiKeyRecord | None:
        item = self._get(keys.api_key(key_hash))
        if not item or "player_id" not in item:
            return None
        return ApiKeyRecord(item["player_id"], item.get("name", ""), bool(item.get("fresh")), item.get("until"))

    def add_api_key(self, player_id: str, name: str, key_hash: str, created_at: str, current: str,
                    until: str, until_epoch: int) -> None:
        """The new key and the profile's list of keys in one transaction; then the other keys' end,
        each by itself (a key already gone is left gone)."""
        listed = set(self._profile_keys(player_id)) | {current}
        self.client.transact_write_items(TransactItems=[
            self._put(typed({**keys.api_key(key_hash), "kind": "api_key", "player_id": player_id, "name": name,
                             "fresh": True, "created_at": created_at})),
            {"Update": self._update(keys.player(player_id), "ADD #k :k, #g :one",
                                    {":k": {"SS": [key_hash, current]}, ":one": {"N": "1"}},
                                    names={"#k": "keys", "#g": "key_generation"})},
        ])
        for other in listed - {key_hash}:
            self._applied(self.client.update_item, **self._update(
                keys.api_key(other), "SET #u = if_not_exists(#u, :u), #t = if_not_exists(#t, :t)",
                {":u": {"S": until}, ":t": {"N": str(until_epoch)}}, names={"#u": "until", "#t": TTL_ATTRIBUTE}))

    def activate_api_key(self, player_id: str, key_hash: str) -> bool:
        others = set(self._profile_keys(player_id)) - {key_hash}
        items = [{"Update": self._update(keys.api_key(key_hash), "REMOVE fresh")}]
        if others:
            items.append({"Update": self._update(keys.player(player_id), "DELETE #k :k ADD #g :one",
                                                 {":k": {"SS": sorted(others)}, ":one": {"N": "1"}},
                                                 names={"#k": "keys", "#g": "key_generation"})})
            items += [{"Delete": {"TableName": self.table, "Key": typed_key(keys.api_key(h))}} for h in sorted(others)]
        try:
            self.client.transact_write_items(TransactItems=items)
        except self.client.exceptions.TransactionCanceledException:
            # Another request came first: with this key (it is active now) or another one (it is gone).
            return self.api_key(key_hash) is not None
        return True

    def revoke_api_keys(self, player_id: str, current: str) -> None:
        for key_hash in sorted(set(self._profile_keys(player_id)) | {current}):
            self.client.delete_item(TableName=self.table, Key=typed_key(keys.api_key(key_hash)))
        self._applied(self.client.update_item, **self._update(keys.player(player_id), "REMOVE #k ADD #g :one",
                                                              {":one": {"N": "1"}},
                                                              names={"#k": "keys", "#g": "key_generation"}))

    # ------------------------------------------------------------------ account recovery

    def players_with_email(self, email_hash: str) -> list[str]:
        """The ids of the players with this address (its own partition, strongly consistent)."""
        found = keys.player_email(email_hash, "")  # the players' items only: the partition holds its status too
        return [i["player_id"] for i in self._query_prefix(found["PK"], found["SK"])]

    def email_stop(self, email_hash: str, consistent: bool = True) -> EmailStop | None:
        item = self._get(keys.email_status(email_hash), consistent=consistent)
        if item is None or "reason" not in item:  # none, or resumed
            return None
        return EmailStop(item["reason"], item["since"], item.get("stop_kind", ""))

    def stop_email(self, email_hash: str, stop: EmailStop) -> bool:
        return self._applied(self.client.put_item, TableName=self.table, Item=typed({
            **keys.email_status(email_hash), "kind": "email_status", "reason": stop.reason, "since": stop.since,
            "stop_kind": stop.kind}),
            ConditionExpression="attribute_not_exists(reason) AND (attribute_not_exists(resumed_at) OR "
                                "resumed_at < :since)", ExpressionAttributeValues={":since": {"S": stop.since}})

    def count_mail_answer(self, email_hash: str, window: str, most: int, expires_at: int) -> bool:
        return self._applied(self.client.update_item, **self._update(
            keys.mail_answers(email_hash, window), "ADD #n :one SET #t = if_not_exists(#t, :t)",
            {":one": {"N": "1"}, ":t": {"N": str(expires_at)}},
            condition={"ConditionExpression": "attribute_not_exists(#n) OR #n < :most",
                       "ExpressionAttributeValues": {":most": {"N": str(most)}}},
            names={"#n": "n", "#t": TTL_ATTRIBUTE}))

    def count_unread_mail(self, email_hash: str, unread: bool, expires_at: int) -> int:
        key = typed_key(keys.mail_unread(email_hash))
        if not unread:
            before = self.client.delete_item(TableName=self.table, Key=key, ReturnValues="ALL_OLD")
        else:
            before = self.client.update_item(
                TableName=self.table, Key=key, UpdateExpression="ADD #n :one SET #t = :t",
                ExpressionAttributeNames={"#n": "n", "#t": TTL_ATTRIBUTE},
                ExpressionAttributeValues={":one": {"N": "1"}, ":t": {"N": str(expires_at)}}, ReturnValues="UPDATED_OLD")
        return int(before.get("Attributes", {}).get("n", {}).get("N", "0"))

    def mail_answered(self, email_hash: str, message_hash: str) -> bool:
        return self._get(keys.mail_answered(email_hash, message_hash)) is not None

    def mark_mail_answered(self, email_hash: str, message_hash: str, expires_at: int) -> None:
        self.client.put_item(TableName=self.table, Item=typed({
            **keys.mail_answered(email_hash, message_hash), "kind": "mail_answered", TTL_ATTRIBUTE: expires_at}))

    def set_player_email(self, player_id: str, old: str | None, new: str, resumed_at: str) -> None:
        items = [{"Update": self._update(keys.player(player_id), "SET email = :e", {":e": {"S": new}})},
                 self._put(self._player_email_item(player_id, new), _ALWAYS),
                 self._put(typed({**keys.email_status(ids.hash_email(new)), "kind": "email_status",
                                  "resumed_at": resumed_at}), _ALWAYS)]
        if old and ids.hash_email(old) != ids.hash_email(new):
            items.append({"Delete": {"TableName": self.table,
                                     "Key": typed_key(keys.player_email(ids.hash_email(old), player_id))}})
        self.client.transact_write_items(TransactItems=items)

    # Migrations (devtools/backfill_player_emails.py): an operator's one-off, never a request's path.

    def scan_profiles_with_email(self, page_size: int = 100) -> Iterator[tuple[str, str]]:
        """Every player's ``(id, address)`` that has an address: a paginated Scan of the whole
        table (profiles only, their id and address read). For a migration, never a request."""
        arguments = {"TableName": self.table, "FilterExpression": "SK = :sk AND attribute_exists(#e)",
                     "ProjectionExpression": "#i, #e", "ExpressionAttributeNames": {"#i": "id", "#e": "email"},
                     "ExpressionAttributeValues": {":sk": {"S": keys.PROFILE_SK}}, "Limit": page_size}
        while True:
            page = self.client.scan(**arguments)
            for item in page.get("Items", []):
                found = plain(item)
                yield found["id"], found["email"]
            if "LastEvaluatedKey" not in page:
                return
            arguments["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def has_player_email(self, player_id: str, email: str) -> bool:
        """Whether the player's address lookup item is there."""
        return self._get(keys.player_email(ids.hash_email(email), player_id)) is not None

    def add_player_email(self, player_id: str, email: str) -> bool:
        """Write the player's address lookup item if it is missing (sign-up writes it for new
        players); False when it was there already, so running again changes nothing."""
        return self._applied(self.client.put_item, TableName=self.table, Item=self._player_email_item(player_id, email),
                             **_IS_NEW)

    def add_recovery(self, request: RecoveryRequest, messages: list[Message]) -> None:
        """The request's item (one write, whether or not it names a player), with the emails it
        sends in its outbox; each player's link is ``open`` until used."""
        self.client.put_item(TableName=self.table, Item=typed({
            **keys.recovery(request.id), "kind": "recovery", "created_at": request.created_at,
            **{f"for_{p}": "open" for p in request.player_ids}, "outbox": outbox(messages),
            TTL_ATTRIBUTE: self._now_epoch() + RECOVERY_TTL_SECONDS}), ConditionExpression="attribute_not_exists(PK)")

    def recovery(self, request_id: str) -> RecoveryRequest | None:
        item = self._get(keys.recovery(request_id))
        if item is None:
            return None
        marks = {k[4:]: v for k, v in item.items() if k.startswith("for_")}
        return RecoveryRequest(request_id, tuple(sorted(marks)), tuple(sorted(p for p, v in marks.items() if v == "used")),
                               item["created_at"])

    def replace_api_keys(self, player_id: str, name: str, key_hash: str, created_at: str, *,
                         recovery_id: str | None = None, recovery_code: str | None = None,
                         new_recovery_code: str | None = None) -> bool:
        """Account recovery, all or nothing: the player's link of request ``recovery_id`` is used
        (it was open), or their stored ``recovery_code`` hash is consumed (it is still that one;
        ``new_recovery_code``: the hash that replaces it); every key of the player is deleted and
        ``key_hash`` is their one key. False when the link was used or the code changed first."""
        old = set(self._profile_keys(player_id)) - {key_hash}
        profile = "SET #k = :k"
        values: dict = {":k": {"SS": [key_hash]}, ":one": {"N": "1"}}
        names = {"#k": "keys", "#g": "key_generation"}
        condition = "attribute_exists(PK)"
        if recovery_code is not None:
            condition += " AND #c = :c"
            values[":c"] = {"S": recovery_code}
            names["#c"] = "recovery_code"
            if new_recovery_code:
                profile += ", #c = :n"
                values[":n"] = {"S": new_recovery_code}
            else:
                profile += " REMOVE #c"
        profile += " ADD #g :one"  # the board links got with the old keys end (Player.key_generation)
        items = [{"Update": {"TableName": self.table, "Key": typed_key(keys.player(player_id)),
                             "UpdateExpression": profile, "ConditionExpression": condition,
                             "ExpressionAttributeValues": values, "ExpressionAttributeNames": names}},
                 self._put(typed({**keys.api_key(key_hash), "kind": "api_key", "player_id": player_id, "name": name,
                                  "created_at": created_at}))]
        if recovery_id is not None:
            # The outbox goes: the stream's MODIFY record of this write must not mail the links again.
            items.append({"Update": self._update(keys.recovery(recovery_id), "SET #p = :used REMOVE outbox",
                                                 {":used": {"S": "used"}, ":open": {"S": "open"}},
                                                 condition={"ConditionExpression": "#p = :open"},
                                                 names={"#p": f"for_{player_id}"})})
        items += [{"Delete": {"TableName": self.table, "Key": typed_key(keys.api_key(h))}} for h in sorted(old)]
        return self._transact_failed(items) is None

    def _profile_keys(self, player_id: str) -> list[str]:
        """The hashes of the player's keys, as their profile lists them."""
        item = self.client.get_item(TableName=self.table, Key=typed_key(keys.player(player_id)), ConsistentRead=True,
                                    ProjectionExpression="#k", ExpressionAttributeNames={"#k": "keys"}).get("Item")
        return sorted(plain(item).get("keys", set())) if item else []

    def find_players(self, name_key: str, limit: int, after: str | None) -> tuple[list[Player], str | None]:
        """The ``player_name`` index's partition of the name (its own partition), ``limit`` at a time
        from the player ``after`` (the last page's last)."""
        values = {":n": {"S": name_key}}
        start = None
        if after is not None:
            start = typed({**keys.player(after), "pname": name_key})
        items, _ = self._query_page("pname = :n", values, index="player_name", limit=limit + 1, start=start)
        more = len(items) > limit
        items = items[:limit]
        return ([Player(i["id"], i["name"], None, i["created_at"]) for i in items],
                items[-1]["id"] if more and items else None)

    def make_reachable(self, player_id: str) -> None:
        for m in self._query_prefix(keys.player_pk(player_id), keys.MEMBERSHIP_PREFIX):
            if m["status"] != "finished":
                self._applied(self.client.update_item, **self._update(
                    keys.settings(m["game_id"]), "DELETE quiet :p", {":p": {"SS": [player_id]}}))

    def set_seat_vacation(self, game_id: str, player_id: str, vacation: dict) -> bool:
        return self._applied(self.client.update_item, **self._update(
            keys.settings(game_id), "SET #p = :v", {":v": {"S": dumps(vacation)}}, names={"#p": VACATION_PREFIX + player_id}))

    def notification_targets(self, player_id: str) -> tuple[Player | None, list[WebhookEndpoint]]:
        found = self._query("PK = :pk AND SK BETWEEN :first AND :last",
                            {":pk": {"S": keys.player_pk(player_id)}, ":first": {"S": keys.PROFILE_SK},
                             ":last": {"S": keys.WEBHOOK_PREFIX + "~"}}, consistent=False)
        profile = next((self._player_from(i) for i in found if i["SK"] == keys.PROFILE_SK), None)
        return profile, [self._webhook_from(i) for i in found if i["SK"].startswith(keys.WEBHOOK_PREFIX)]

    # ------------------------------------------------------------------ games

    def create_game(self, game: GameRecord, events: list[EventRecord],
                    idempotency: IdempotencyRecord | None, messages: list[Message] = (),
                    invitations: InvitationCount | None = None) -> None:
        """The game's settings, its first version (with the messages its making sends), head and its
        seated players' memberships, in one transaction; DuplicateItem if the game exists. With
        ``invitations``: the creator's count of the day goes up in the same transaction, on condition
        that it stays within the limit (LimitReached if not)."""
        items = [self._put(settings_item(game)), self._put(version_item(game, events, messages=messages)),
                 self._put(head_item(game))]
        items += [self._put(membership_item(m), _ALWAYS) for m in memberships(game)]
        if invitations is None:
            self._transact(items, idempotency)
            return
        items.append({"Update": self._count_invitations(invitations)})
        self._transact(items, idempotency, limit_at=len(items) - 1)

    def _count_invitations(self, count: InvitationCount) -> dict:
        """The day's counter goes up by ``count.count``, if it stays at most ``count.most`` (a new
        counter starts at 0); its TTL is set when it is made."""
        return self._update(keys.invitations(count.player_id, count.day), "ADD #n :n SET #t = if_not_exists(#t, :t)",
                            {":n": {"N": str(count.count)}, ":t": {"N": str(count.expires_at)}},
                            condition={"ConditionExpression": "attribute_not_exists(#n) OR #n <= :room",
                                       "ExpressionAttributeValues": {":room": {"N": str(count.most - count.count)}}},
                            names={"#n": "n", "#t": TTL_ATTRIBUTE})

    def invitations_sent(self, player_id: str, day: str) -> int:
        """The player's count of invitations by email on ``day`` (UTC)."""
        item = self._get(keys.invitations(player_id, day))
        return int(item["n"]) if item else 0

    def load_game(self, game_id: str) -> GameRecord | None:
        """The settings and the latest version, by one strongly consistent query of two items."""
        items = self._query("PK = :pk AND begins_with(SK, :prefix)",
                            {":pk": {"S": keys.game_pk(game_id)}, ":prefix": {"S": keys.GAME_PREFIX}},
                            limit=2, descending=True)
        if len(items) < 2 or items[0]["SK"] != keys.SETTINGS_SK:
            return None
        return game_from(items[0], items[1])

    def load_version(self, game_id: str, version: int) -> tuple[GameRecord, list[EventRecord]] | None:
        found = self._get(keys.version(game_id, version))
        settings = self._get(keys.settings(game_id)) if found else None
        return (game_from(settings, found), events_from(found)) if settings else None

    def game_history(self, game_id: str) -> list[tuple[GameRecord, list[EventRecord]]]:
        """Every version of the game, oldest first: the items ``list_events`` reads for a whole
        history, and the settings (a game record, docs/records.md)."""
        settings = self._get(keys.settings(game_id))
        if settings is None:
            return []
        versions = {":pk": {"S": keys.game_pk(game_id)}, ":first": {"S": keys.FIRST_VERSION_SK},
                    ":last": {"S": keys.LAST_VERSION_SK}}
        return [(game_from(settings, item), events_from(item))
                for item in self._query("PK = :pk AND SK BETWEEN :first AND :last", versions)]

    def save_game(self, game: GameRecord, expected_version: int, events: list[EventRecord],
                  idempotency: IdempotencyRecord | None, messages: list[Message] = (),
                  new_players: Iterable[tuple[Player, str]] = (), seats_changed: bool = False) -> None:
        """Write version ``expected_version + 1``: one conditional put of a new item (a transaction
        with the settings, the new players and their memberships when a seat was taken). The
        Idempotency-Key, if any, is marked on the version, and its record written after it."""
        if game.version != expected_version + 1:
            raise ValueError("a saved game is one version past the expected one")
        version = version_item(game, events, idempotency, messages)
        new_players = list(new_players)
        if not new_players and not seats_changed:
            if not self._applied(self.client.put_item, TableName=self.table, Item=version, **_IS_NEW):
                raise VersionConflict(self.latest_version(game.id))
        else:
            items = [self._put(version), {"Update": self._update(
                keys.settings(game.id), "SET seats = :seats",
                {":seats": {"S": dumps([s.stored() for s in game.seats])}})}]
            # Every seated player's membership (a player who just joined has none yet).
            items += [self._put(membership_item(m), _ALWAYS) for m in memberships(game)]
            items += [put for player, key_hash in new_players for put in self._player_items(player, key_hash)]
            try:
                self._transact(items, None)
            except DuplicateItem as error:
                raise VersionConflict(self.latest_version(game.id)) from error
        if idempotency is not None:
            self._put_if(self._idempotency_item(idempotency), self._unexpired())

    def latest_version(self, game_id: str) -> int | None:
        """The game's latest version number (after a lost race, for the refusal's ``current_version``)."""
        items = self._query("PK = :pk AND SK BETWEEN :first AND :last",
                            {":pk": {"S": keys.game_pk(game_id)}, ":first": {"S": keys.FIRST_VERSION_SK},
                             ":last": {"S": keys.LAST_VERSION_SK}}, limit=1, descending=True)
        return items[0]["v"] if items else None

    def list_events(self, game_id: str, after: int = 0) -> list[EventRecord]:
        """The events numbered above ``after``: read from the latest version back, a few versions at a
        time, until the version holding event ``after + 1`` (so a poll for new events reads one or two
        items, not the whole game)."""
        versions = {":pk": {"S": keys.game_pk(game_id)}, ":first": {"S": keys.FIRST_VERSION_SK},
                    ":last": {"S": keys.LAST_VERSION_SK}}
        if after <= 0:  # the whole history: every version, oldest first
            return [e for item in self._query("PK = :pk AND SK BETWEEN :first AND :last", versions)
                    for e in events_from(item)]
        found: list[EventRecord] = []
        start: dict | None = None
        limit = 4
        while True:
            items, start = self._query_page("PK = :pk AND SK BETWEEN :first AND :last", versions, limit=limit,
                                            descending=True, start=start)
            for item in items:
                events = events_from(item)
                found[:0] = [e for e in events if e.seq > after]
                if not events or events[0].seq <= after + 1:
                    return found
            if start is None:
                return found
            limit = min(limit * 4, 256)

    def list_memberships(self, player_id: str) -> list[Membership]:
        """The player's seats, each with its game's latest version in brief: finished games as their
        membership recorded them, the others from their heads (read together)."""
        found = [membership_from(i) for i in self._query_prefix(keys.player_pk(player_id),
                                                                      keys.MEMBERSHIP_PREFIX)]
        live = [m for m in found if m.status != "finished"]
        heads = {keys.game_id_of(h["PK"]): h for h in self._batch_get([keys.head(m.game_id) for m in live])}
        for m in live:
            head = heads.get(m.game_id)
            if head is not None:
                m.status, m.to_move, m.version, m.updated_at = head["st"], head.get("tm"), head["v"], head["at"]
                m.deadline = head.get("dl")
        return found

    def list_my_moves(self, player_id: str) -> list[Membership]:
        """The games where it is the player's move, soonest deadline first (the ``my_move`` index)."""
        items = self._query("mover = :p", {":p": {"S": player_id}}, index="my_move")
        return [Membership(player_id, keys.game_id_of(i["PK"]), i["game"], i["tm"], "active", i["tm"], i["v"],
                           i["at"], None if i["move_due"] == keys.NO_DEADLINE else i["move_due"]) for i in items]

    # ------------------------------------------------------------------ the outbox (the table's stream)

    def changes(self, handle: Callable[[Change], T]) -> list[T]:
        def each(record: dict) -> T | None:
            change = self.change_of(record["eventName"], record["dynamodb"].get("NewImage") or {})
            return handle(change) if change is not None else None

        return [found for found in self._tail.each(each) if found is not None]

    def change_of(self, event_name: str, image: dict) -> Change | None:
        if event_name not in ("INSERT", "MODIFY") or "SK" not in image:
            return None
        item = plain(image)
        change = Change(messages=[self.message_from(m) for m in codec.unpack(item["outbox"])] if "outbox" in item else [])
        if keys.version_of(item["SK"]) is not None:
            game = committed_game(item)
            change.committed = Committed(game, events_from(item), item.get("pm"), new=event_name == "INSERT")
        return change if change.committed or change.messages else None

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
        return Message(item["msg_id"], item["type"], item["player_id"], item["data"], item["created_at"])

    # ------------------------------------------------------------------ clocks

    def due_games(self, now: str, limit: int = 100) -> list[str]:
        """Ids of games whose clock needs the sweeper by ``now`` (the ``due`` index's clock shards)."""
        return [keys.game_id_of(item["PK"]) for item in self._query_due(keys.CLOCK_DUE, now, limit)]

    def set_game_due(self, game_id: str, version: int, due_at: str | None) -> bool:
        """Move the game's next sweep, if its head is still at ``version``."""
        return self._applied(self.client.update_item, **self._move_sweep(game_id, version, due_at))

    def send_reminder(self, game: GameRecord, mark: str, messages: list[Message], due_at: str | None) -> str:
        """Record the reminder ``mark`` once, with its messages, and move the game's next sweep.
        Returns "sent", "already" (it was sent before) or "moved" (the game changed meanwhile)."""
        items = [
            self._put(typed({**keys.reminder(game.id, mark), "kind": "reminder", "outbox": outbox(messages),
                             TTL_ATTRIBUTE: self._now_epoch() + REMINDER_TTL_SECONDS})),
            {"Update": self._move_sweep(game.id, game.version, due_at)},
        ]
        try:
            self.client.transact_write_items(TransactItems=items)
        except self.client.exceptions.TransactionCanceledException as error:
            reasons = [r.get("Code", "None") for r in error.response.get("CancellationReasons", [])]
            if reasons and reasons[0] == "ConditionalCheckFailed":
                return "already"
            if len(reasons) > 1 and reasons[1] == "ConditionalCheckFailed":
                return "moved"
            raise
        return "sent"

    def _move_sweep(self, game_id: str, version: int, due_at: str | None) -> dict:
        """The update that moves the game's next sweep to ``due_at`` (or, without one, takes the game
        out of the ``due`` index), if its head is still at ``version``."""
        if due_at:
            due = keys.clock_due(game_id, due_at)
            return self._update(keys.head(game_id), "SET #d = :d, due_at = :at",
                                {":d": {"S": due["due"]}, ":at": {"S": due_at}}, _at_version(version, "v"),
                                names={"#d": "due"})
        return self._update(keys.head(game_id), "REMOVE #d, due_at", None, _at_version(version, "v"),
                            names={"#d": "due"})

    def save_clock(self, game: GameRecord) -> bool:
        """Rewrite the latest version's clock (a vacation moved it) at the same version; False if the
        game moved on. The stream tells the outbox consumer, which moves the head's deadline."""
        clock = {":c": {"B": codec.pack(game.clock)}}
        set_deadline = []
        for name, value in (("dl", game.deadline), ("da", game.due_at)):
            if value:
                clock[f":{name}"] = {"S": value}
                set_deadline.append(f"{name} = :{name}")
        removed = [name for name, value in (("dl", game.deadline), ("da", game.due_at)) if not value]
        expression = "SET " + ", ".join(["c = :c", "r = if_not_exists(r, :zero) + :one", *set_deadline])
        if removed:
            expression += " REMOVE " + ", ".join(removed)
        update = self._update(keys.version(game.id, game.version), expression,
                              {**clock, ":zero": {"N": "0"}, ":one": {"N": "1"}})
        items = [{"Update": update},
                 {"ConditionCheck": {"TableName": self.table, "Key": typed_key(keys.version(game.id, game.version + 1)),
                                     **_IS_NEW}}]
        try:
            self.client.transact_write_items(TransactItems=items)
        except self.client.exceptions.TransactionCanceledException as error:
            if "ConditionalCheckFailed" in {r.get("Code") for r in error.response.get("CancellationReasons", [])}:
                return False
            raise
        return True

    # ------------------------------------------------------------------ ratings

    def get_rating(self, player_id: str, game: str) -> RatingRecord:
        item = self._get(keys.rating(player_id, game))
        return RatingRecord(player_id, game) if item is None else self._rating_from(item)

    def list_ratings(self, player_id: str) -> list[RatingRecord]:
        items = self._query_prefix(keys.player_pk(player_id), keys.RATING_PREFIX)
        return [self._rating_from(item) for item in items]

    def save_ratings(self, game_id: str, ratings: list[RatingRecord]) -> bool:
        """Write the ratings a finished game changed, once: False if this game was rated already
        (a re-run). Each rating is guarded by its version; a race raises VersionConflict."""
        items = [self._put(typed({**keys.rated(game_id), "kind": "rated"}))]
        for r in ratings:
            values = {**keys.rating(r.player_id, r.game), "kind": "rating",
                      **{k: getattr(r, k) for k in RatingRecord.__dataclass_fields__}}
            values["version"] = r.version + 1
            if not r.provisional:
                values.update(keys.leaderboard(r.game, r.player_id, decimal(r.rating)))
            for name in ("rating", "rd", "volatility"):
                values[name] = decimal(values[name])
            items.append(self._put(typed(values), _IS_NEW if r.version == 0 else _at_version(r.version)))
        try:
            self.client.transact_write_items(TransactItems=items)
        except self.client.exceptions.TransactionCanceledException as error:
            reasons = [r.get("Code", "None") for r in error.response.get("CancellationReasons", [])]
            if reasons and reasons[0] == "ConditionalCheckFailed":
                return False
            raise VersionConflict(None) from error
        return True

    def open_games(self, game: str, limit: int) -> list[str]:
        """The newest ``limit`` of each of the game type's shards, merged newest first."""
        rows = []
        for shard in keys.shards(f"{keys.OPEN_GAME}#{game}"):
            rows += self._query("lobby = :l", {":l": {"S": shard}}, index="open_games", limit=limit, descending=True)
        rows.sort(key=lambda item: item["lobby_at"], reverse=True)
        return [keys.game_id_of(item["PK"]) for item in rows[:limit]]

    def leaderboard(self, game: str, limit: int,
                    keep: Callable[[RatingRecord], bool]) -> tuple[list[RatingRecord], list[RatingRecord]]:
        """The highest ``limit`` that ``keep`` accepts of each of the game type's 16 shards, merged;
        a shard is read a page of ``limit`` at a time, on past the refused, until it gave ``limit``."""
        kept: list[RatingRecord] = []
        refused: list[RatingRecord] = []
        for shard in keys.shards(game):
            found, start = 0, None
            while True:
                page, start = self._query_page("lb = :g", {":g": {"S": shard}}, index="leaderboard", limit=limit,
                                               descending=True, start=start)
                for item in page:
                    record = self._rating_from(item)
                    if found < limit and keep(record):
                        kept.append(record)
                        found += 1
                    elif found < limit:
                        refused.append(record)
                if found >= limit or start is None:
                    break
        kept.sort(key=lambda r: (-r.rating, r.player_id))
        return kept[:limit], refused

    def drop_from_leaderboard(self, rating: RatingRecord) -> bool:
        """Remove the rating's index keys, on its version (a rating saved since keeps its place)."""
        return self._applied(self.client.update_item, **self._update(
            keys.rating(rating.player_id, rating.game), "REMOVE lb, lb_rating", condition=_at_version(rating.version)))

    @staticmethod
    def _rating_from(item: dict) -> RatingRecord:
        return RatingRecord(**{k: item[k] for k in RatingRecord.__dataclass_fields__ if k in item})

    # ------------------------------------------------------------------ notes

    def get_notes(self, game_id: str, seat: int) -> NotesRecord | None:
        item = self._get(keys.notes(game_id, seat))
        if item is None:
            return None
        return NotesRecord(game_id, seat, item["player_id"], item["text"], item["updated_at"])

    def put_notes(self, notes: NotesRecord) -> None:
        self.client.put_item(TableName=self.table, Item=typed({
            **keys.notes(notes.game_id, notes.seat), "kind": "notes", "player_id": notes.player_id,
            "text": notes.text, "updated_at": notes.updated_at}))

    # ------------------------------------------------------------------ blocks

    def put_block(self, blocker_id: str, block: BlockRecord) -> None:
        self.client.put_item(TableName=self.table, Item=typed({
            **keys.block(blocker_id, block.player_id), "kind": "block", "player_id": block.player_id,
            "name": block.name, "blocked_at": block.blocked_at}))

    def delete_block(self, blocker_id: str, blocked_id: str) -> None:
        self.client.delete_item(TableName=self.table, Key=typed_key(keys.block(blocker_id, blocked_id)))

    def list_blocks(self, blocker_id: str) -> list[BlockRecord]:
        return [BlockRecord(i["player_id"], i["name"], i["blocked_at"])
                for i in self._query_prefix(keys.player_pk(blocker_id), keys.BLOCK_PREFIX)]

    def blocks_among(self, pairs: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        """Of the (blocker, blocked) ``pairs``, those that are blocks: one BatchGet of their keys."""
        wanted = list(dict.fromkeys(pairs))
        if not wanted:
            return set()
        return {(keys.player_id_of(i["PK"]), i["player_id"])
                for i in self._batch_get([keys.block(a, b) for a, b in wanted])}

    def count_unfinished_games(self, player_id: str) -> int:
        """How many of the player's memberships are not finished nor only asked of them: one query of
        the player's memberships, counted by DynamoDB (``Select=COUNT``: no item comes back)."""
        count, start = 0, None
        while True:
            kwargs: dict[str, Any] = {
                "TableName": self.table, "Select": "COUNT", "ConsistentRead": True,
                "KeyConditionExpression": "PK = :pk AND begins_with(SK, :prefix)",
                "FilterExpression": "#s <> :finished AND attribute_not_exists(asked)", "ExpressionAttributeNames": {"#s": "status"},
                "ExpressionAttributeValues": {":pk": {"S": keys.player_pk(player_id)},
                                              ":prefix": {"S": keys.MEMBERSHIP_PREFIX}, ":finished": {"S": "finished"}}}
            if start is not None:
                kwargs["ExclusiveStartKey"] = start
            response = self.client.query(**kwargs)
            count += response["Count"]
            start = response.get("LastEvaluatedKey")
            if start is None:
                return count

    # ------------------------------------------------------------------ tournaments

    def put_tournament(self, tournament: TournamentRecord, expected_version: int | None,
                       messages: list[Message] = ()) -> None:
        """Create (``expected_version`` None) or update a tournament, with its outbox messages on the
        item itself (one write); raise VersionConflict if it moved on."""
        data = tournament.data
        item = typed({**keys.tournament(tournament.id), "kind": "tournament", "id": tournament.id,
                      "data": dumps(data), "version": tournament.version,
                      "outbox": outbox(messages), "summary": dumps(tournament_summary(data)),
                      **keys.tournament_list(tournament.id, data["status"], data["created_at"])})
        condition = _IS_NEW if expected_version is None else _at_version(expected_version)
        if not self._put_if(item, condition):
            raise VersionConflict(None)

    def load_tournament(self, tournament_id: str) -> TournamentRecord | None:
        item = self._get(keys.tournament(tournament_id))
        return TournamentRecord(item["id"], json.loads(item["data"]), item["version"]) if item else None

    def list_tournaments(self, statuses: list[str], limit: int, before: str | None) -> tuple[list[dict], str | None]:
        """Each status's 16 partitions of the ``tournaments`` index, newest first below ``before``,
        merged: a partition gives at most ``limit + 1``, so the merged first ``limit`` are the list's."""
        partitions = [partition for status in statuses for partition in keys.shards(status)]
        rows, last = self._listed_newest_first(partitions, limit, before)
        return [json.loads(item["summary"]) for item in rows], last

    def _listed_newest_first(self, partitions: list[str], limit: int, before: str | None) -> tuple[list[dict], str | None]:
        """The ``tournaments`` index's entries in these partitions, newest first below ``before``, merged
        (each partition gives at most ``limit + 1``, so the merged first ``limit`` are the list's), and the
        last one's position when more follow."""
        rows: list[dict] = []
        for partition in partitions:
            condition, values = "tl = :p", {":p": {"S": partition}}
            if before is not None:
                condition, values = condition + " AND tl_at < :b", {**values, ":b": {"S": before}}
            rows += self._query(condition, values, index="tournaments", limit=limit + 1, descending=True)
        rows.sort(key=lambda item: item["tl_at"], reverse=True)
        more = len(rows) > limit
        rows = rows[:limit]
        return rows, rows[-1]["tl_at"] if more and rows else None

    # ------------------------------------------------------------------ ladders

    def create_ladder(self, ladder: LadderRecord) -> bool:
        """Create the ladder; False if it exists (a standing ladder made by two first uses at once)."""
        return self._put_if(ladder_item(ladder), _IS_NEW)

    def load_ladder(self, ladder_id: str) -> LadderBoard | None:
        """Every item of the ladder's partition, by one strongly consistent query (all pages)."""
        return ladder_board_from(self._query("PK = :pk", {":pk": {"S": keys.ladder_pk(ladder_id)}}))

    def list_ladders(self, limit: int, before: str | None) -> tuple[list[LadderRecord], str | None]:
        """The organisers' ladders in the 16 ``ladder#nn`` partitions of the ``tournaments`` index, newest
        first below ``before``, merged (each partition gives at most ``limit + 1``), and the last one's
        position when more follow."""
        rows, last = self._listed_newest_first(list(keys.shards(keys.LADDER_LIST)), limit, before)
        return [ladder_from(item["summary"]) for item in rows], last

    def join_ladder(self, ladder_id: str, rung: RungRecord, idle_at: str) -> str:
        """The player's record and their rung, together: "joined"; "already" if the player is on the
        ladder; "taken" if another player took that position first."""
        failed = self._transact_failed([self._put(member_item(ladder_id, rung, idle_at)),
                                        self._put(rung_item(ladder_id, rung))])
        return "joined" if failed is None else "already" if 0 in failed else "taken"

    def open_ladder_challenge(self, game: GameRecord, events: list[EventRecord], messages: list[Message],
                              idempotency: IdempotencyRecord | None, challenge: LadderChallenge,
                              players: list[tuple[RungRecord, str]], max_open: int) -> str:
        """The challenge's game (as :meth:`create_game` writes it), the challenge and both players' open
        challenges counted up (each ``(rung as read, when they would now leave idle)``), all or nothing:
        "opened"; "already_challenged" if the pair has an open challenge; "changed" if a player's rung
        moved or their open challenges reached ``max_open`` since they were read."""
        items = [self._put(settings_item(game)), self._put(version_item(game, events, messages=messages)),
                 self._put(head_item(game))]
        items += [self._put(membership_item(m), _ALWAYS) for m in memberships(game)]
        first = len(items)
        items.append(self._put(challenge_item(game.ladder_id, challenge)))
        for rung, idle_at in players:
            due = keys.ladder_due(game.ladder_id, rung.player_id, idle_at)
            items.append({"Update": self._update(
                keys.ladder_member(game.ladder_id, rung.player_id),
                "SET #open = #open + :one, active_at = :now, due_at = :due",
                {":one": {"N": "1"}, ":now": {"S": challenge.created_at}, ":due": {"S": due["due_at"]}},
                {"ConditionExpression": "pos = :pos AND #open < :max",
                 "ExpressionAttributeValues": {":pos": {"S": rung.position}, ":max": {"N": str(max_open)}}},
                names={"#open": "open"})})
        if idempotency is not None:
            items.append(self._put(self._idempotency_item(idempotency), self._unexpired()))
        failed = self._transact_failed(items)
        if failed is None:
            return "opened"
        if idempotency is not None and len(items) - 1 in failed:
            raise IdempotencyRace()
        if first in failed:
            return "already_challenged"
        if any(index < first for index in failed):
            raise DuplicateItem(str(failed))
        return "changed"

    def settle_ladder_challenge(self, ladder_id: str, challenge: LadderChallenge,
                                players: list[tuple[RungRecord, str]], move: tuple[RungRecord, str] | None,
                                now: str, messages: list[Message]) -> str:
        """A finished challenge's consequences, once (the game's ``LADDER_RESULT`` mark, with the
        messages): the challenge goes, both players' open challenges count down and they were active
        ``now`` (each ``(rung as read, when they would now leave idle)``), and with ``move`` =
        (the winner's rung as read, its new position) the winner's rung moves there (a delete and a put:
        no other rung is written). "settled"; "already" if the game settled its challenge before;
        "changed" if a rung moved or the new position was taken since they were read."""
        items = [self._put(typed({**keys.ladder_result(challenge.game_id), "kind": "ladder_result",
                                  "ladder_id": ladder_id, "outbox": outbox(messages),
                                  TTL_ATTRIBUTE: self._now_epoch() + REMINDER_TTL_SECONDS}))]
        items.append({"Delete": {"TableName": self.table, "Key": typed_key(keys.ladder_challenge(
            ladder_id, challenge.challenger, challenge.challenged)), "ConditionExpression": "game_id = :g",
            "ExpressionAttributeValues": {":g": {"S": challenge.game_id}}}})
        moving = move[0].player_id if move else None
        for rung, idle_at in players:
            expression = "SET #open = #open - :one, active_at = :now, due_at = :due"
            values = {":one": {"N": "1"}, ":now": {"S": now}, ":due": {"S": idle_at}}
            if rung.player_id == moving:
                expression += ", pos = :new"
                values[":new"] = {"S": move[1]}
            items.append({"Update": self._update(
                keys.ladder_member(ladder_id, rung.player_id), expression, values,
                {"ConditionExpression": "pos = :pos", "ExpressionAttributeValues": {":pos": {"S": rung.position}}},
                names={"#open": "open"})})
        if move is not None:
            rung, position = move
            items.append({"Delete": {"TableName": self.table, "Key": typed_key(keys.rung(ladder_id, rung.position)),
                                     "ConditionExpression": "player_id = :p",
                                     "ExpressionAttributeValues": {":p": {"S": rung.player_id}}}})
            items.append(self._put(typed({**keys.rung(ladder_id, position), "kind": "rung",
                                          "player_id": rung.player_id})))
        failed = self._transact_failed(items)
        return "settled" if failed is None else "already" if 0 in failed else "changed"

    def leave_ladder(self, ladder_id: str, rung: RungRecord) -> bool:
        """The player leaves the ladder (their record and rung go), if they are still as read and have
        no open challenge; False otherwise."""
        return self._transact_failed([
            {"Delete": {"TableName": self.table, "Key": typed_key(keys.ladder_member(ladder_id, rung.player_id)),
                        "ConditionExpression": "pos = :pos AND #open = :zero AND active_at = :at",
                        "ExpressionAttributeNames": {"#open": "open"},
                        "ExpressionAttributeValues": {":pos": {"S": rung.position}, ":zero": {"N": "0"},
                                                      ":at": {"S": rung.active_at}}}},
            {"Delete": {"TableName": self.table, "Key": typed_key(keys.rung(ladder_id, rung.position)),
                        "ConditionExpression": "player_id = :p",
                        "ExpressionAttributeValues": {":p": {"S": rung.player_id}}}},
        ]) is None

    def ladder_challenge_answered(self, ladder_id: str, challenge: LadderChallenge) -> bool:
        """The challenge leaves the ``due`` index (its game was answered); False if it is gone."""
        return self._applied(self.client.update_item, **self._update(
            keys.ladder_challenge(ladder_id, challenge.challenger, challenge.challenged), "REMOVE #d, due_at",
            {":g": {"S": challenge.game_id}}, {"ConditionExpression": "game_id = :g"}, names={"#d": "due"}))

    def set_ladder_idle_at(self, ladder_id: str, rung: RungRecord, idle_at: str) -> bool:
        """Move the player's next idle look to ``idle_at``; False if they left or their rung moved."""
        due = keys.ladder_due(ladder_id, rung.player_id, idle_at)
        return self._applied(self.client.update_item, **self._update(
            keys.ladder_member(ladder_id, rung.player_id), "SET #d = :d, due_at = :at",
            {":d": {"S": due["due"]}, ":at": {"S": idle_at}},
            {"ConditionExpression": "pos = :pos", "ExpressionAttributeValues": {":pos": {"S": rung.position}}},
            names={"#d": "due"}))

    def due_ladders(self, now: str, limit: int = 100) -> list[str]:
        """Ids of ladders with an answer or an idle player due by ``now`` (the ``due`` index's ladder
        shards; each ladder once)."""
        found = self._query_due(keys.LADDER_DUE, now, limit)
        return list(dict.fromkeys(keys.ladder_id_of(item["PK"]) for item in found))

    def get_ratings(self, player_ids: list[str], game: str) -> dict[str, RatingRecord]:
        """The players' ratings at ``game`` by BatchGetItem (eventually consistent; a player without
        one has the default)."""
        found = {item["player_id"]: self._rating_from(item)
                 for item in self._batch_get([keys.rating(p, game) for p in dict.fromkeys(player_ids)])}
        return {p: found.get(p) or RatingRecord(p, game) for p in player_ids}

    # ------------------------------------------------------------------ daily digests

    def due_digests(self, now: str, limit: int = 100) -> list[str]:
        """Ids of players whose digest is due by ``now`` (the ``due`` index's digest shards)."""
        return [keys.player_id_of(item["PK"]) for item in self._query_due(keys.DIGEST_DUE, now, limit)]

    def send_digest(self, player_id: str, local_date: str, messages: list[Message], was: str,
                    next_at: str | None) -> str:
        """The day's mark (on ``attribute_not_exists``, carrying the messages for the outbox) and the
        profile's next send (on its ``due_at`` still being ``was``), in one transaction."""
        if next_at is None:
            move = "REMOVE #d, due_at"
            values: dict = {}
        else:
            move = "SET #d = :d, due_at = :next"
            values = {":d": {"S": keys.digest_due(player_id, next_at)["due"]}, ":next": {"S": next_at}}
        schedule = self._update(keys.player(player_id), move, values,
                                {"ConditionExpression": "due_at = :was",
                                 "ExpressionAttributeValues": {":was": {"S": was}}}, names={"#d": "due"})
        if not messages:
            return "sent" if self._applied(self.client.update_item, **schedule) else "moved"
        mark = self._put(typed({**keys.digest_sent(player_id, local_date), "kind": "digest",
                                "outbox": outbox(messages), TTL_ATTRIBUTE: self._now_epoch() + DIGEST_TTL_SECONDS}))
        failed = self._transact_failed([mark, {"Update": schedule}])
        if failed is None:
            return "sent"
        if 1 in failed:
            return "moved"
        return "already" if self._applied(self.client.update_item, **schedule) else "moved"

    # ------------------------------------------------------------------ idempotency

    def get_idempotency(self, scope: str, key: str) -> IdempotencyRecord | None:
        item = self._get(keys.idempotency(scope, key))
        if item is None or item.get(TTL_ATTRIBUTE, 0) < self._now_epoch():
            return None  # DynamoDB deletes expired items lazily; treat them as gone at once
        return IdempotencyRecord(scope, key, item["fingerprint"], json.loads(item["body"]) if "body" in item else None,
                                 item["created_at"], item.get("game_id"), item.get("game_version"))

    # ------------------------------------------------------------------ webhooks

    def put_webhook(self, endpoint: WebhookEndpoint) -> None:
        self.client.put_item(TableName=self.table, Item=typed({
            **keys.webhook(endpoint.player_id, endpoint.id), "kind": "webhook",
            "id": endpoint.id, "player_id": endpoint.player_id, "url": endpoint.url,
            "events": dumps(endpoint.events), "secrets": dumps([s.__dict__ for s in endpoint.secrets]),
            "disabled": endpoint.disabled, "created_at": endpoint.created_at,
        }))

    @staticmethod
    def _webhook_from(item: dict) -> WebhookEndpoint:
        return WebhookEndpoint(item["id"], item["player_id"], item["url"], json.loads(item["events"]),
                               [WebhookSecret(**s) for s in json.loads(item["secrets"])], item.get("disabled"),
                               item["created_at"])

    def get_webhook(self, player_id: str, webhook_id: str) -> WebhookEndpoint | None:
        item = self._get(keys.webhook(player_id, webhook_id))
        return self._webhook_from(item) if item else None

    def list_webhooks(self, player_id: str) -> list[WebhookEndpoint]:
        items = self._query_prefix(keys.player_pk(player_id), keys.WEBHOOK_PREFIX)
        return [self._webhook_from(item) for item in items]

    def delete_webhook(self, player_id: str, webhook_id: str) -> bool:
        response = self.client.delete_item(TableName=self.table, Key=typed_key(keys.webhook(player_id, webhook_id)),
                                           ReturnValues="ALL_OLD")
        return "Attributes" in response

    # ------------------------------------------------------------------ deliveries

    def _delivery_item(self, d: Delivery) -> dict:
        values = {
            **keys.delivery(d.webhook_id, d.msg_id), "kind": "delivery",
            "webhook_id": d.webhook_id, "msg_id": d.msg_id, "player_id": d.player_id, "type": d.type,
            "body": d.body, "status": d.status, "attempts": dumps([a.__dict__ for a in d.attempts]),
            "next_attempt_at": d.next_attempt_at, "created_at": d.created_at, "version": d.version,
            TTL_ATTRIBUTE: self._now_epoch() + DELIVERY_TTL_SECONDS,
        }
        if d.status == "pending" and d.next_attempt_at:
            values.update(keys.delivery_due(d.webhook_id, d.msg_id, d.next_attempt_at))  # in the sparse "due" index
        return typed(values)

    @staticmethod
    def _delivery_from(item: dict) -> Delivery:
        return Delivery(item["webhook_id"], item["msg_id"], item["player_id"], item["type"], item["body"],
                        item["status"], [Attempt(**a) for a in json.loads(item["attempts"])],
                        item.get("next_attempt_at"), item["created_at"], item.get("version", 0))

    def create_delivery(self, delivery: Delivery) -> bool:
        """False when this message was already given to this endpoint (a dispatch re-run)."""
        return self._put_if(self._delivery_item(delivery), _IS_NEW)

    def update_delivery(self, delivery: Delivery, expected_version: int) -> bool:
        """Write the delivery if nobody else changed it since ``expected_version``."""
        return self._put_if(self._delivery_item(delivery), _at_version(expected_version))

    def get_delivery(self, webhook_id: str, msg_id: str, consistent: bool = True) -> Delivery | None:
        item = self._get(keys.delivery(webhook_id, msg_id), consistent)
        return self._delivery_from(item) if item else None

    def list_deliveries(self, webhook_id: str) -> list[Delivery]:
        items = self._query_prefix(keys.webhook_pk(webhook_id), keys.DELIVERY_PREFIX)
        return [self._delivery_from(item) for item in items]

    def due_deliveries(self, now: str, limit: int = 100) -> list[Delivery]:
        """Deliveries whose next attempt is due, from the ``due`` index's delivery shards (never a
        scan); each read again itself, since an index is eventually consistent."""
        entries = self._query_due(keys.DELIVERY_DUE, now, limit)
        found = [self.get_delivery(keys.webhook_id_of(e["PK"]), e["SK"].removeprefix(keys.DELIVERY_PREFIX))
                 for e in entries]
        return [d for d in found if d is not None and d.status == "pending"]

    # ------------------------------------------------------------------ items

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

    # ------------------------------------------------------------------ calls

    def _put(self, item: dict, condition: dict = _IS_NEW) -> dict:
        """A transaction's Put of ``item`` on ``condition`` (by default: the item is new)."""
        return {"Put": {"TableName": self.table, "Item": item, **condition}}

    def _update(self, key: keys.Key, expression: str, values: dict | None = None, condition: dict = _EXISTS,
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
