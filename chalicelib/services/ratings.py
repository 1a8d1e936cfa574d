"""Ratings: a finished game's Glicko-2 ratings, a player's ratings as of now, and the leaderboards.
(What else a finished game leads to, its ladder and its tournament, is :mod:`.finished`'s.)"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from ..clocks import timecontrol
from ..kernel.clock import Clock, iso
from ..kernel.errors import ServiceError
from ..games import ENGINES, GameEngine
from ..store.records import GameRecord, Player, RatingRecord
from ..store.errors import VersionConflict
from ..store.protocol import Store
from ..tournaments import glicko2
from ..kernel.i18n import _

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
        """Glicko-2, each game its own rating period; an idle rating's RD grows first. The ratings of
        the game's pool move (``GameEngine.rating_pool``: a Khan & General card set's own)."""
        first, second = (s.player_id for s in game.seats)
        score = 1.0 if result["winner"] == 1 else 0.0 if result["winner"] == 2 else 0.5
        now = self.clock.now()
        pool = self.engines[game.game].rating_pool(game.options)
        for _attempt in range(5):
            a, b = self.store.get_rating(first, pool), self.store.get_rating(second, pool)
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
        """The player's ratings as of now (getMe, getPlayer), by pool ("khan", "khan:<card set>"): RD
        grown by the idle periods."""
        now = self.clock.now()
        return {r.game: shown(r, now) for r in self.store.list_ratings(player.id)}

    def pool(self, game: str, card_set: str | None = None) -> str:
        """The rating pool of ``game`` (with ``card_set``: that set's own), or a refusal: an unknown
        game type, a card set of a game that has none, an unknown set."""
        engine = self.engines.get(game)
        if engine is None:
            raise ServiceError("unknown_game_type", _("there are no {game!r} games on this server").format(game=game))
        if card_set is None:
            return engine.rating_pool({})
        if "card_set" not in engine.options_model.model_fields:
            # no card set of that id exists for this game: the same answer as an unknown set (404)
            raise ServiceError("card_set_not_found", _("{game} games have no card sets: leave out card_set").format(
                game=game))
        try:
            return engine.rating_pool({"card_set": card_set})
        except LookupError as error:
            raise ServiceError("card_set_not_found", str(error)) from None

    def leaderboard(self, game: str, limit: int, card_set: str | None = None) -> dict:
        """The best ratings of the game's pool (a card set's own with ``card_set``) established as of
        now, highest first. The index holds every rating that
        was established when it was saved; those that have aged into provisional since are read and
        dropped (``Store.leaderboard`` pages on past them) and taken out of the index as they are
        found, so each costs a read once (docs/correspondence.md, Ratings)."""
        pool = self.pool(game, card_set)
        now = self.clock.now()
        rows, lapsed = self.store.leaderboard(pool, limit, lambda r: not as_of(r, now).provisional)
        for record in lapsed:
            self.store.drop_from_leaderboard(record)
        profiles = self.store.get_players([r.player_id for r in rows]) if rows else {}  # names, and bot accounts
        names = {r.player_id: profiles.get(r.player_id) for r in rows}
        return {"game": game, "pool": pool, "card_set": card_set if pool != game else None, "players": [
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
