"""Game records (docs/records.md): a game's whole history in the open ``game-record/1`` format, as
the caller may read it, and a player's finished games as records. Read only: a record is built from
the versions every move writes anyway (no write of its own, no item more per move)."""

from __future__ import annotations


from ..http import cursors
from ..gamerecord import format as gamerecords
from ..kernel import ids
from ..kernel.errors import ServiceError
from ..games import ENGINES, GameEngine
from ..kernel.i18n import _
from ..http.models import ListRecordsQuery
from ..store.records import Caller
from ..store.protocol import Store
from .duplicates import DuplicateBoards


class GameRecords:
    def __init__(self, store: Store, *, duplicates: DuplicateBoards,
                 engines: dict[str, GameEngine] | None = None) -> None:
        self.store = store
        self.engines = engines or ENGINES
        self.duplicates = duplicates  # is the record whole (DuplicateBoards.all_public)? may it be seen?

    def _build(self, versions: list, seat: int | None) -> dict:
        """The record as ``seat`` reads it; a finished duplicate board's whole once its round is over
        (the views' rule: one read of its tournament, for a finished duplicate board only)."""
        latest = versions[-1][0]
        return gamerecords.build(versions, self.engines[latest.game], seat, self.duplicates.all_public(latest))

    def get_record(self, player: Caller, game_id: str) -> dict:
        """The game's record as the caller may read it (a seat's or a spectator's, as its view): all
        of it once the game is over. One query of the game's versions, and its settings."""
        versions = self.store.game_history(game_id) if ids.ID.fullmatch(game_id) else []
        if not versions:
            raise ServiceError("game_not_found", _("there is no game {game_id!r}").format(game_id=game_id))
        latest = versions[-1][0]
        seat = latest.seat_of(player.id)
        self.duplicates.hide_board_in_play(latest, seat)
        return self._build(versions, seat)

    def list_records(self, player: Caller, query: ListRecordsQuery) -> dict:
        """The caller's finished games as records, the latest finished first, a page at a time: their
        memberships (one query of their own partition, no scan), then each game of the page."""
        finished = [m for m in self.store.list_memberships(player.id) if m.status == "finished"]
        key = lambda m: [m.updated_at, m.game_id]  # noqa: E731 - unique: it ends with the game's id
        finished.sort(key=key, reverse=True)
        after = cursors.decode(query.cursor, "records", "", lambda a: cursors.is_str_list(a, 2))
        page, next_cursor = cursors.page_of(finished, key, query.limit, after, "records", "", descending=True)
        records = []
        for m in page:
            versions = self.store.game_history(m.game_id)
            if versions:
                records.append(self._build(versions, m.seat))
        return {"records": records, "next_cursor": next_cursor}
