"""The DynamoDB storage of one area (``store.protocol.PlayerStore``); docs/storage.md."""

from __future__ import annotations

import json
from typing import Any, Iterator

from ...kernel import ids
from ..records import (
    ApiKeyRecord,
    EmailStop,
    IdempotencyRecord,
    Message,
    Player,
    RecoveryRequest,
    WebhookEndpoint,
    preferences_with_defaults,
)
from .. import keys
from ..items import (
    VACATION_PREFIX,
    dumps,
    outbox,
    plain,
    typed,
    typed_key,
)
from ..schema import TTL_ATTRIBUTE
from .table import ALWAYS, IS_NEW, RECOVERY_TTL_SECONDS, Table


class DynamoPlayers(Table):
    """Players, their API keys, addresses, recovery and settings."""

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

    def set_player_email(self, player_id: str, old: str | None, new: str, resumed_at: str) -> None:
        items = [{"Update": self._update(keys.player(player_id), "SET email = :e", {":e": {"S": new}})},
                 self._put(self._player_email_item(player_id, new), ALWAYS),
                 self._put(typed({**keys.email_status(ids.hash_email(new)), "kind": "email_status",
                                  "resumed_at": resumed_at}), ALWAYS)]
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
                             **IS_NEW)

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
