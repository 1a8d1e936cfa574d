"""A finished game's consequences, from its ``server.game_finished`` outbox message (so never
lost, and safe to run again): its ladder's rungs, its Glicko-2 rating, and its tournament, whose
round, once every board of it is over, is scored and the next round paired
(:meth:`Tournaments.settle_game <.tournaments.Tournaments.settle_game>` then
:meth:`~.tournaments.Tournaments.advance`, over the pure :mod:`chalicelib.tournaments.director`:
the server's entry to the tournament's pairing; ``make pair`` drives the same pairing from a
TRF-16 file)."""

from __future__ import annotations

from ..notify import messages
from .ladders import Ladders
from .life import GameLife
from .ratings import Ratings
from .tournaments import Tournaments


class FinishedGames:
    def __init__(self, *, life: GameLife, ratings: Ratings, tournaments: Tournaments, ladders: Ladders) -> None:
        self.life = life
        self.ratings = ratings
        self.tournaments = tournaments
        self.ladders = ladders

    def settle(self, message: messages.Message) -> None:
        """The finished game's ladder (declining a ladder challenge counts there), then, unless it
        ended before it began (declined, aborted: it counts for nothing else), its rating and its
        tournament (a loss on time may withdraw its player; the round may be over: the next is paired)."""
        game = self.life.find(message.data["game_id"])
        if game is None or game.status != "finished":
            return
        if game.ladder_id:
            self.ladders.settle(game)
        if game.ended is not None:
            return
        if game.rated:
            self.ratings.rate(game)
        if game.tournament_id:
            self.tournaments.settle_game(game)
