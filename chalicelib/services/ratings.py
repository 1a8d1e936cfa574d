"""Ratings: a finished game's consequences (its rating, its tournament, its ladder), Glicko-2 ratings and
the leaderboards."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Callable

from .. import timecontrol
from ..clock import Clock, iso
from ..errors import ServiceError
from ..games import ENGINES, GameEngine
from ..notify import messages
from ..records import GameRecord, Player, RatingRecord
from ..store.errors import VersionConflict
from ..store.protocol import Store
from ..tournaments import glicko2
from ..i18n import _

RATING_PERIOD_DAYS = 30  # a rating's RD grows for each such period without a rated game


class Ratings:
    def __init__(self, store: Store, clock: Clock, *, find: Callable[[str], GameRecord | None],
                 advance_tournament: Callable[[str], None], settle_ladder: Callable[[GameRecord], None] | None = None,
                 engines: dict[str, GameEngine] | None = None) -> None:
        self.store = store
        self.clock = clock
        self.engines = engines or ENGINES
        self.find = find
        self.advance_tournament = advance_tournament
        self.settle_ladder = settle_ladder

    def settle_finished(self, message: messages.Message) -> None:
        """A finished game's consequences (a ``GAME_FINISHED`` message, so never lost): its ladder, its
        rating, its tournament."""
        game = self.find(message.data["game_id"])
        if game is None or game.status != "finished":
            return
        if game.ladder_id and self.settle_ladder is not None:
            self.settle_ladder(game)  # declining a ladder challenge counts there
        if game.ended is not None:
            return  # a game declined or aborted is never rated, and counts for nothing else
        engine = self.engines[game.game]
        if game.rated:
            self._rate(game, engine.result(game.state))
        if game.tournament_id:
            self.advance_tournament(game.tournament_id)

    def _rate(self, game: GameRecord, result: dict) -> None:
        """Glicko-2, each game its own rating period; an idle rating's RD grows first."""
        first, second = (s.player_id for s in game.seats)
        score = 1.0 if result["winner"] == 1 else 0.0 if result["winner"] == 2 else 0.5
        now = self.clock.now()
        for _attempt in range(5):
            a, b = self.store.get_rating(first, game.game), self.store.get_rating(second, game.game)
            ra, rb = aged(a, now), aged(b, now)
            new_a = glicko2.update(ra, [(rb, score)])
            new_b = glicko2.update(rb, [(ra, 1.0 - score)])
            changed = [_rated(a, new_a, score, now), _rated(b, new_b, 1.0 - score, now)]
            try:
                self.store.save_ratings(game.id, changed)
                return
            except VersionConflict:
                continue  # another game of one of them was rated meanwhile: read again
        raise RuntimeError(f"could not rate game {game.id}; the outbox will try again")

    def player_ratings(self, player: Player) -> dict:
        return {r.game: r.as_json() for r in self.store.list_ratings(player.id)}

    def leaderboard(self, game: str, limit: int) -> dict:
        if game not in self.engines:
            raise ServiceError("unknown_game_type", _("there are no {game!r} games on this server").format(game=game))
        rows = self.store.leaderboard(game, limit)
        names = {r.player_id: self.store.get_player(r.player_id) for r in rows}
        return {"game": game, "players": [
            {"rank": rank, "player_id": r.player_id, "name": names[r.player_id].name if names[r.player_id] else "?",
             **r.as_json()} for rank, r in enumerate(rows, start=1)]}


def aged(record: RatingRecord, now: datetime) -> glicko2.Rating:
    """The rating as Glicko-2 sees it now: its RD grown for each idle rating period."""
    rating = glicko2.Rating(record.rating, record.rd, record.volatility)
    if record.updated_at:
        idle = (now - timecontrol.parse_time(record.updated_at)).days // RATING_PERIOD_DAYS
        for _attempt in range(min(idle, 24)):
            rating = glicko2.update(rating, [])
    return rating


def _rated(before: RatingRecord, after: glicko2.Rating, score: float, now: datetime) -> RatingRecord:
    return replace(before, rating=after.rating, rd=after.rd, volatility=after.volatility, games=before.games + 1,
                   wins=before.wins + (score == 1.0), losses=before.losses + (score == 0.0),
                   draws=before.draws + (score == 0.5), updated_at=iso(now))
