"""The DynamoDB storage of one area (``store.protocol.ClockStore``); docs/storage.md."""

from __future__ import annotations

from ..records import (
    GameRecord,
    Message,
)
from .. import codec, keys
from ..items import (
    outbox,
    typed,
    typed_key,
)
from ..schema import TTL_ATTRIBUTE
from .table import IS_NEW, DIGEST_TTL_SECONDS, REMINDER_TTL_SECONDS, Table, at_version


class DynamoClocks(Table):
    """The games' clocks and the players' daily digests (the ``due`` index)."""

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
                                {":d": {"S": due["due"]}, ":at": {"S": due_at}}, at_version(version, "v"),
                                names={"#d": "due"})
        return self._update(keys.head(game_id), "REMOVE #d, due_at", None, at_version(version, "v"),
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
                                     **IS_NEW}}]
        try:
            self.client.transact_write_items(TransactItems=items)
        except self.client.exceptions.TransactionCanceledException as error:
            if "ConditionalCheckFailed" in {r.get("Code") for r in error.response.get("CancellationReasons", [])}:
                return False
            raise
        return True

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
