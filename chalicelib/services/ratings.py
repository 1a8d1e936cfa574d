"""Ratings: a finished game's Glicko-2 ratings, a player's ratings as of now, and the leaderboards.
(What else a finished game leads to, its ladder and its tournament, is :mod:`.finished`'s.)"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from .. import timecontrol
from ..clock import Clock, iso
from ..errors import ServiceError
from ..games import ENGINES, GameEngine
from ..records import GameRecord, Player, RatingRecord
from ..store.errors import VersionConflict
from ..store.protocol import Store
from ..tournaments import glicko2
from ..i18n import _

RATING_PERIOD_DAYS = glicko2.RATING_PERIOD_DAYS  # a rating's RD grows for each such period without a rated game


class Ratings:
    def __init__(self, store: Store, clock: Clock, *, engines: dict[str, GameEngine] | None = None) -> None:
        self.store = store
        self.clock = clock
        self.engines = engines or ENGINES

    def rate(self, game: GameRecord) -> None:
        """A finished rated game's Glicko-2 ratings (from :class:`~.finished.FinishedGames`)."""
        self._rate(game, self.engines[game.game].result(game.state))

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
        """The player's ratings as of now (getMe, getPlayer): RD grown by the idle periods."""
        now = self.clock.now()
        return {r.game: shown(r, now) for r in self.store.list_ratings(player.id)}

    def leaderboard(self, game: str, limit: int) -> dict:
        """The best ratings established as of now, highest first. The index holds every rating that
        was established when it was saved; those that have aged into provisional since are read and
        dropped (``Store.leaderboard`` pages on past them) and taken out of the index as they are
        found, so each costs a read once (docs/correspondence.md, Ratings)."""
        if game not in self.engines:
            raise ServiceError("unknown_game_type", _("there are no {game!r} games on this server").format(game=game))
        now = self.clock.now()
        rows, lapsed = self.store.leaderboard(game, limit, lambda r: not as_of(r, now).provisional)
        for record in lapsed:
            self.store.drop_from_leaderboard(record)
        profiles = self.store.get_players([r.player_id for r in rows]) if rows else {}  # names, and bot accounts
        names = {r.player_id: profiles.get(r.player_id) for r in rows}
        return {"game": game, "players": [
            {"rank": rank, "player_id": r.player_id, "name": names[r.player_id].name if names[r.player_id] else "?",
             **shown(r, now), **({"bot_account": True} if names[r.player_id] and names[r.player_id].bot else {})}
            for rank, r in enumerate(rows, start=1)]}


def idle_periods(record: RatingRecord, now: datetime) -> int:
    """Whole rating periods since the rating's last rated game (none without a time)."""
    if not record.updated_at:
        return 0
    return max(0, (now - timecontrol.parse_time(record.updated_at)).days // RATING_PERIOD_DAYS)


def aged(record: RatingRecord, now: datetime) -> glicko2.Rating:
    """The rating as Glicko-2 sees it now: its RD grown for each idle rating period (up to 350)."""
    return glicko2.idle(glicko2.Rating(record.rating, record.rd, record.volatility), idle_periods(record, now))


def as_of(record: RatingRecord, now: datetime) -> RatingRecord:
    """The record with its RD as of now (so ``provisional`` is too)."""
    return replace(record, rd=aged(record, now).rd)


def established_until(record: RatingRecord) -> datetime | None:
    """When idleness makes the rating provisional (its RD reaches 110 after an empty period each
    ``RATING_PERIOD_DAYS``); None if it is provisional already or has no time to age from."""
    periods = glicko2.periods_until_provisional(glicko2.Rating(record.rating, record.rd, record.volatility))
    if not periods or not record.updated_at:
        return None
    return timecontrol.parse_time(record.updated_at) + timedelta(days=periods * RATING_PERIOD_DAYS)


def shown(record: RatingRecord, now: datetime) -> dict:
    """A rating as people read it: as of now, with the moment it turns provisional if it is not."""
    current = as_of(record, now)
    until = established_until(record) if not current.provisional else None
    return {**current.as_json(), "established_until": iso(until) if until else None}


def _rated(before: RatingRecord, after: glicko2.Rating, score: float, now: datetime) -> RatingRecord:
    return replace(before, rating=after.rating, rd=after.rd, volatility=after.volatility, games=before.games + 1,
                   wins=before.wins + (score == 1.0), losses=before.losses + (score == 0.0),
                   draws=before.draws + (score == 0.5), updated_at=iso(now))
