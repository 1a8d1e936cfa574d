"""The players area (``store.protocol.PlayerStore``) in memory: profiles, API keys, addresses,
recovery and settings, with DynamoDB's conditions and all-or-nothing transactions."""

from __future__ import annotations

from typing import Iterator

from ...kernel import ids
from ...kernel.text import name_key as key_of_name
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
from ..errors import DuplicateItem, IdempotencyRace
from ..items import outbox, typed
from .table import RECOVERY_TTL_SECONDS, MemoryTable, as_json, kept


class MemoryPlayers(MemoryTable):
    """Players, their API keys, addresses, recovery and settings."""

    def create_player(self, player: Player, key_hash: str, idempotency: IdempotencyRecord | None) -> None:
        self._check_new_player(player, key_hash)
        if idempotency is not None and not self._idempotency_free(idempotency):
            raise IdempotencyRace()
        self._add_player(player, key_hash)
        if idempotency is not None:
            self._put_idempotency(idempotency)

    def _check_new_player(self, player: Player, key_hash: str) -> None:
        """DuplicateItem if the profile, the key or the address lookup item is there already."""
        email = player.email and (ids.hash_email(player.email), player.id)
        if player.id in self._players or key_hash in self._api_keys or (
                email and player.id in self._emails.get(email[0], set())):
            raise DuplicateItem(player.id)

    def _add_player(self, player: Player, key_hash: str) -> None:
        """A new player as a profile holds it (what a read of the profile gives back)."""
        stored = Player(player.id, player.name, player.email, player.created_at,
                        preferences_with_defaults(as_json(player.preferences)), as_json(player.vacation) or None,
                        player.recovery_code, None, bool(player.bot), 0)
        self._players[player.id] = stored
        self._keys_of[player.id] = {key_hash}
        self._api_keys[key_hash] = {"player_id": player.id, "name": player.name, "fresh": False, "until": None}
        if player.email:
            self._emails.setdefault(ids.hash_email(player.email), set()).add(player.id)

    def get_player(self, player_id: str) -> Player | None:
        return kept(self._players.get(player_id))

    def get_players(self, player_ids: list[str]) -> dict[str, Player]:
        return {p: kept(self._players[p]) for p in dict.fromkeys(player_ids) if p in self._players}

    def set_vacation(self, player_id: str, vacation: dict) -> None:
        self._profile(player_id).vacation = as_json(vacation)

    def set_preferences(self, player_id: str, preferences: dict, digest_at: str | None = None) -> None:
        profile = self._profile(player_id)
        profile.preferences = preferences_with_defaults(as_json(preferences))
        profile.digest_at = digest_at

    def _profile(self, player_id: str) -> Player:
        """The stored profile, to update it (an update of a missing profile fails, as DynamoDB's does)."""
        found = self._players.get(player_id)
        if found is None:
            raise KeyError(f"no player {player_id}")
        return found

    def api_key(self, key_hash: str) -> ApiKeyRecord | None:
        item = self._api_keys.get(key_hash)
        if item is None:
            return None
        return ApiKeyRecord(item["player_id"], item["name"], item["fresh"], item["until"])

    def add_api_key(self, player_id: str, name: str, key_hash: str, created_at: str, current: str,
                    until: str, until_epoch: int) -> None:
        listed = set(self._keys_of.get(player_id, set())) | {current}
        profile = self._profile(player_id)
        if key_hash in self._api_keys:
            raise DuplicateItem(key_hash)
        self._api_keys[key_hash] = {"player_id": player_id, "name": name, "fresh": True, "until": None}
        self._keys_of.setdefault(player_id, set()).update({key_hash, current})
        profile.key_generation += 1
        for other in listed - {key_hash}:
            if other in self._api_keys and self._api_keys[other]["until"] is None:
                self._api_keys[other]["until"] = until

    def activate_api_key(self, player_id: str, key_hash: str) -> bool:
        others = set(self._keys_of.get(player_id, set())) - {key_hash}
        if key_hash not in self._api_keys or (others and player_id not in self._players):
            return self.api_key(key_hash) is not None
        self._api_keys[key_hash]["fresh"] = False
        if others:
            self._keys_of[player_id] -= others
            self._players[player_id].key_generation += 1
            for other in others:
                self._api_keys.pop(other, None)
        return True

    def revoke_api_keys(self, player_id: str, current: str) -> None:
        for key_hash in set(self._keys_of.get(player_id, set())) | {current}:
            self._api_keys.pop(key_hash, None)
        if player_id in self._players:
            self._keys_of.pop(player_id, None)
            self._players[player_id].key_generation += 1

    def players_with_email(self, email_hash: str) -> list[str]:
        return sorted(self._emails.get(email_hash, set()))

    def email_stop(self, email_hash: str, consistent: bool = True) -> EmailStop | None:
        item = self._email_status.get(email_hash)
        if item is None or item.get("reason") is None:
            return None
        return EmailStop(item["reason"], item["since"], item.get("stop_kind") or "")

    def stop_email(self, email_hash: str, stop: EmailStop) -> bool:
        item = self._email_status.get(email_hash, {})
        if item.get("reason") is not None or (item.get("resumed_at") is not None and not item["resumed_at"] < stop.since):
            return False
        self._email_status[email_hash] = {"reason": stop.reason, "since": stop.since, "stop_kind": stop.kind}
        return True

    def set_player_email(self, player_id: str, old: str | None, new: str, resumed_at: str) -> None:
        self._profile(player_id).email = new
        self._emails.setdefault(ids.hash_email(new), set()).add(player_id)
        self._email_status[ids.hash_email(new)] = {"resumed_at": resumed_at}
        if old and ids.hash_email(old) != ids.hash_email(new):
            self._emails.get(ids.hash_email(old), set()).discard(player_id)

    def scan_profiles_with_email(self, page_size: int = 100) -> Iterator[tuple[str, str]]:
        return iter([(p.id, p.email) for p in list(self._players.values()) if p.email])

    def has_player_email(self, player_id: str, email: str) -> bool:
        return player_id in self._emails.get(ids.hash_email(email), set())

    def add_player_email(self, player_id: str, email: str) -> bool:
        found = self._emails.setdefault(ids.hash_email(email), set())
        if player_id in found:
            return False
        found.add(player_id)
        return True

    def add_recovery(self, request: RecoveryRequest, messages: list[Message]) -> None:
        if request.id in self._recoveries:
            raise DuplicateItem(request.id)
        self._recoveries[request.id] = {"created_at": request.created_at,
                                        "marks": {p: "open" for p in request.player_ids},
                                        "expires": self._now_epoch() + RECOVERY_TTL_SECONDS}
        self._emit("INSERT", typed({**keys.recovery(request.id), "outbox": outbox(messages)}))

    def recovery(self, request_id: str) -> RecoveryRequest | None:
        item = self._recoveries.get(request_id)
        if item is None or item["expires"] < self._now_epoch():
            return None
        marks = item["marks"]
        return RecoveryRequest(request_id, tuple(sorted(marks)),
                               tuple(sorted(p for p, v in marks.items() if v == "used")), item["created_at"])

    def replace_api_keys(self, player_id: str, name: str, key_hash: str, created_at: str, *,
                         recovery_id: str | None = None, recovery_code: str | None = None,
                         new_recovery_code: str | None = None) -> bool:
        profile = self._players.get(player_id)
        request = self._recoveries.get(recovery_id) if recovery_id is not None else None
        if profile is None or (recovery_code is not None and profile.recovery_code != recovery_code) \
                or key_hash in self._api_keys \
                or (recovery_id is not None and (request is None or request["marks"].get(player_id) != "open")):
            return False
        old = set(self._keys_of.get(player_id, set())) - {key_hash}
        if recovery_code is not None:
            profile.recovery_code = new_recovery_code or None
        profile.key_generation += 1
        self._keys_of[player_id] = {key_hash}
        self._api_keys[key_hash] = {"player_id": player_id, "name": name, "fresh": False, "until": None}
        for other in old:
            self._api_keys.pop(other, None)
        if request is not None:
            request["marks"][player_id] = "used"  # its outbox goes: the links are not mailed again
        return True

    def find_players(self, name_key: str, limit: int, after: str | None) -> tuple[list[Player], str | None]:
        found = sorted((p for p in self._players.values() if key_of_name(p.name) == name_key
                        and (after is None or p.id > after)), key=lambda p: p.id)
        page = found[:limit]
        return ([Player(p.id, p.name, None, p.created_at) for p in page],
                page[-1].id if len(found) > limit and page else None)

    def make_reachable(self, player_id: str) -> None:
        for (member, game_id), m in self._memberships.items():
            if member == player_id and m.status != "finished" and game_id in self._settings:
                self._settings[game_id]["quiet"].discard(player_id)

    def set_seat_vacation(self, game_id: str, player_id: str, vacation: dict) -> bool:
        settings = self._settings.get(game_id)
        if settings is None:
            return False
        settings["vacations"][player_id] = as_json(vacation)
        return True

    def notification_targets(self, player_id: str) -> tuple[Player | None, list[WebhookEndpoint]]:
        return self.get_player(player_id), self.list_webhooks(player_id)
