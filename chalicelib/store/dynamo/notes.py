"""The DynamoDB storage of one area (``store.protocol.NotesStore``); docs/storage.md."""

from __future__ import annotations

from ..records import (
    NotesRecord,
)
from .. import keys
from ..items import (
    typed,
)
from .table import Table


class DynamoNotes(Table):
    """A seat's private notes."""

    def get_notes(self, game_id: str, seat: int) -> NotesRecord | None:
        item = self._get(keys.notes(game_id, seat))
        if item is None:
            return None
        return NotesRecord(game_id, seat, item["player_id"], item["text"], item["updated_at"])

    def put_notes(self, notes: NotesRecord) -> None:
        self.client.put_item(TableName=self.table, Item=typed({
            **keys.notes(notes.game_id, notes.seat), "kind": "notes", "player_id": notes.player_id,
            "text": notes.text, "updated_at": notes.updated_at}))
