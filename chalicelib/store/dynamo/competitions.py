"""The DynamoDB storage of one area (``store.protocol.CompetitionStore``); docs/storage.md."""

from __future__ import annotations

import json

from ..records import (
    EventRecord,
    GameRecord,
    IdempotencyRecord,
    LadderBoard,
    LadderChallenge,
    LadderRecord,
    Message,
    RungRecord,
    TournamentRecord,
)
from .. import keys
from ..errors import (
    DuplicateItem,
    IdempotencyRace,
    VersionConflict,
)
from ..items import (
    challenge_item,
    dumps,
    head_item,
    ladder_board_from,
    ladder_from,
    ladder_item,
    member_item,
    membership_item,
    memberships,
    outbox,
    rung_item,
    settings_item,
    tournament_summary,
    typed,
    typed_key,
    version_item,
)
from ..schema import TTL_ATTRIBUTE
from .table import ALWAYS, IS_NEW, REMINDER_TTL_SECONDS, Table, at_version


class DynamoCompetitions(Table):
    """Tournaments and ladders."""

    def put_tournament(self, tournament: TournamentRecord, expected_version: int | None,
                       messages: list[Message] = (), idempotency: IdempotencyRecord | None = None) -> None:
        """Create (``expected_version`` None) or update a tournament, with its outbox messages on the
        item itself (one write; a creation with an Idempotency-Key: a transaction with its record);
        raise VersionConflict if it moved on."""
        data = tournament.data
        item = typed({**keys.tournament(tournament.id), "kind": "tournament", "id": tournament.id,
                      "data": dumps(data), "version": tournament.version,
                      "outbox": outbox(messages), "summary": dumps(tournament_summary(data)),
                      **keys.tournament_list(tournament.id, data["status"], data["created_at"])})
        condition = IS_NEW if expected_version is None else at_version(expected_version)
        if idempotency is not None:
            try:
                self._transact([self._put(item, condition)], idempotency)
            except DuplicateItem:
                raise VersionConflict(None) from None
            return
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

    def create_ladder(self, ladder: LadderRecord, idempotency: IdempotencyRecord | None = None) -> bool:
        """Create the ladder (with its idempotency record, in one transaction, if given); False if it
        exists (a standing ladder made by two first uses at once)."""
        if idempotency is None:
            return self._put_if(ladder_item(ladder), IS_NEW)
        try:
            self._transact([self._put(ladder_item(ladder))], idempotency)
        except DuplicateItem:
            return False
        return True

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
        items += [self._put(membership_item(m), ALWAYS) for m in memberships(game)]
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
