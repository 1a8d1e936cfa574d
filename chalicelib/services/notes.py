"""Private notes: each seat of a game keeps its own text on it, which no one else reads (not the
other seats, not a spectator), and which outlasts the game. Saving notes is not a move: the
game's version, clock and events do not change."""

from __future__ import annotations


from ..kernel.clock import Clock, iso
from ..kernel.errors import ServiceError
from ..kernel.i18n import _
from ..store.records import Caller, NotesRecord
from ..kernel.talk import NOTES_MAX_LENGTH
from ..store.protocol import Store
from .life import GameLife

MAX_LENGTH = NOTES_MAX_LENGTH  # characters (code points) a seat's notes on a game may hold


class Notes:
    def __init__(self, store: Store, clock: Clock, *, life: GameLife) -> None:
        self.store = store
        self.clock = clock
        self.life = life  # a game by id (load: game_not_found if there is none)

    def get_notes(self, player: Caller, game_id: str) -> dict:
        """The caller's notes on the game (empty text, and no time, if they never saved any)."""
        seat = self._seat(player, game_id)
        notes = self.store.get_notes(game_id, seat)
        if notes is None or notes.player_id != player.id:  # a seat's former player's notes stay theirs
            return {"game_id": game_id, "seat": seat, "text": "", "updated_at": None}
        return self._view(notes)

    def put_notes(self, player: Caller, game_id: str, text: str) -> dict:
        """Save the caller's notes on the game, over what they saved before."""
        seat = self._seat(player, game_id)
        if len(text) > MAX_LENGTH:
            raise ServiceError("notes_too_long", _("notes may hold {limit} characters, not {length}").format(
                limit=MAX_LENGTH, length=len(text)), limit=MAX_LENGTH)
        notes = NotesRecord(game_id, seat, player.id, text, iso(self.clock.now()))
        self.store.put_notes(notes)
        return self._view(notes)

    def _seat(self, player: Caller, game_id: str) -> int:
        game, _engine = self.life.load(game_id)
        seat = game.seat_of(player.id)
        if seat is None:
            raise ServiceError("not_seated", _("only a seat's own player keeps notes on game {game_id}").format(
                game_id=game_id))
        return seat

    @staticmethod
    def _view(notes: NotesRecord) -> dict:
        return {"game_id": notes.game_id, "seat": notes.seat, "text": notes.text, "updated_at": notes.updated_at}
