"""The DynamoDB storage of one area (``store.protocol.LobbyStore``); docs/storage.md."""

from __future__ import annotations

from typing import Any, Iterable

from ..records import (
    BlockRecord,
)
from .. import keys
from ..items import (
    typed,
    typed_key,
)
from .table import Table


class DynamoLobby(Table):
    """Blocks, unfinished games counted, games open to anyone."""

    def open_games(self, game: str, limit: int) -> list[str]:
        """The newest ``limit`` of each of the game type's shards, merged newest first."""
        rows = []
        for shard in keys.shards(f"{keys.OPEN_GAME}#{game}"):
            rows += self._query("lobby = :l", {":l": {"S": shard}}, index="open_games", limit=limit, descending=True)
        rows.sort(key=lambda item: item["lobby_at"], reverse=True)
        return [keys.game_id_of(item["PK"]) for item in rows[:limit]]

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
