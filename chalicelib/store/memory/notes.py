"""The notes area (``store.protocol.NotesStore``) in memory."""

from __future__ import annotations

from dataclasses import replace

from ..records import NotesRecord
from .table import MemoryTable


class MemoryNotes(MemoryTable):
    """A seat's private notes, a dict by (game, seat); each read hands out a copy, as a store does."""

    def get_notes(self, game_id: str, seat: int) -> NotesRecord | None:
        found = self._notes.get((game_id, seat))
        return replace(found) if found is not None else None

    def put_notes(self, notes: NotesRecord) -> None:
        self._notes[(notes.game_id, notes.seat)] = replace(notes)
