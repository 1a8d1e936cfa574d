"""The boards of a duplicate round: every board deals the same cards, so while any board of the
round is unfinished only a board's own seats may see it, and everything of it is public once the
round's last board has finished. The one rule of views, records, replays and boards."""

from __future__ import annotations

from ..kernel.errors import ServiceError
from ..kernel.i18n import _
from ..store.records import GameRecord
from ..store.protocol import Store
from .life import GameLife


class DuplicateBoards:
    def __init__(self, store: Store, life: GameLife) -> None:
        self.store = store  # the board's tournament
        self.life = life  # the round's games

    def hide_board_in_play(self, game: GameRecord, seat: int | None) -> None:
        """Every board of a duplicate round deals the same cards: what is played (and drawn) on one
        is in the hands (and the deck) of the others. So while any board of the round is unfinished,
        only a board's own seats may see it: anyone else (a player of another board, the organiser)
        is refused. An unfinished board needs no look at its tournament; a finished one asks whether
        its round is scored."""
        if seat is not None or not game.duplicate_board:
            return
        if game.status != "finished" or self.round_in_play(game.tournament_id, game.id):
            raise ServiceError("board_in_play", _("game {id} is a board of a duplicate round that is still being "
                                                  "played; it may be watched once every board of the round is "
                                                  "finished").format(id=game.id))

    def all_public(self, game: GameRecord) -> bool:
        """Whether everything of the game is public now (its seed and salt, every hand, every draw):
        once it is finished, and on a board of a duplicate round once its round's last board has
        finished too (the test that opens the boards to all; shown sooner, a seed or a hand here
        would give away the other boards' hands). The one rule of views, records and replays; the
        tournament item is read only for a finished duplicate board."""
        return game.status == "finished" and (not game.duplicate_board
                                               or not self.round_in_play(game.tournament_id, game.id))

    def round_in_play(self, tournament_id: str, game_id: str) -> bool:
        """Whether a board of the game's round is unfinished: a pairing of that round is not yet scored
        (a pairing is scored once its last game ends). A game the tournament does not list counts as
        in play, so a doubt hides the board rather than shows it."""
        found = self.store.load_tournament(tournament_id)
        pairing = next((p for p in found.data["pairings"] if game_id in p["games"]), None) if found else None
        if pairing is None:
            return True
        t = found.data
        unscored = [p for p in t["pairings"] if p["round"] == pairing["round"] and p["points"] is None]
        if t["status"] != "running" or pairing["round"] != t["round"]:
            return bool(unscored)  # (only the current round's pairings are scored from their games)
        # As ``Tournaments.scored`` would score them, stopping at the first unfinished game (a board's seats
        # see its view: no need to read every board of a round still in play).
        return any(not p["games"] or any((g := self.life.find(game_id)) is None or g.status != "finished"
                                         for game_id in p["games"]) for p in unscored)
