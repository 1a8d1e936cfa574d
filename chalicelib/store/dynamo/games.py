"""The DynamoDB storage of one area (``store.protocol.GameStore``); docs/storage.md."""

from __future__ import annotations

from typing import Iterable

from ..records import (
    EventRecord,
    GameRecord,
    IdempotencyRecord,
    InvitationCount,
    Membership,
    Message,
    Player,
)
from .. import keys
from ..errors import (
    DuplicateItem,
    VersionConflict,
)
from ..items import (
    dumps,
    events_from,
    game_from,
    head_item,
    membership_from,
    membership_item,
    memberships,
    settings_item,
    version_item,
)
from ..schema import TTL_ATTRIBUTE
from .table import ALWAYS, IS_NEW, Table


class DynamoGames(Table):
    """Games: a game's settings, versions and head, its events, its players' memberships."""

    def create_game(self, game: GameRecord, events: list[EventRecord],
                    idempotency: IdempotencyRecord | None, messages: list[Message] = (),
                    invitations: InvitationCount | None = None) -> None:
        """The game's settings, its first version (with the messages its making sends), head and its
        seated players' memberships, in one transaction; DuplicateItem if the game exists. With
        ``invitations``: the creator's count of the day goes up in the same transaction, on condition
        that it stays within the limit (LimitReached if not)."""
        items = [self._put(settings_item(game)), self._put(version_item(game, events, messages=messages)),
                 self._put(head_item(game))]
        items += [self._put(membership_item(m), ALWAYS) for m in memberships(game)]
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
            if not self._applied(self.client.put_item, TableName=self.table, Item=version, **IS_NEW):
                raise VersionConflict(self.latest_version(game.id))
        else:
            items = [self._put(version), {"Update": self._update(
                keys.settings(game.id), "SET seats = :seats",
                {":seats": {"S": dumps([s.stored() for s in game.seats])}})}]
            # Every seated player's membership (a player who just joined has none yet).
            items += [self._put(membership_item(m), ALWAYS) for m in memberships(game)]
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
