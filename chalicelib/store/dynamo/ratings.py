"""The DynamoDB storage of one area (``store.protocol.RatingStore``); docs/storage.md."""

from __future__ import annotations

from typing import Callable

from ..records import (
    RatingRecord,
)
from .. import keys
from ..errors import (
    VersionConflict,
)
from ..items import (
    decimal,
    typed,
)
from .table import IS_NEW, Table, at_version


class DynamoRatings(Table):
    """Ratings and the leaderboard."""

    def get_rating(self, player_id: str, game: str) -> RatingRecord:
        item = self._get(keys.rating(player_id, game))
        return RatingRecord(player_id, game) if item is None else self._rating_from(item)

    def list_ratings(self, player_id: str) -> list[RatingRecord]:
        items = self._query_prefix(keys.player_pk(player_id), keys.RATING_PREFIX)
        return [self._rating_from(item) for item in items]

    def save_ratings(self, game_id: str, ratings: list[RatingRecord]) -> bool:
        """Write the ratings a finished game changed, once: False if this game was rated already
        (a re-run). Each rating is guarded by its version; a race raises VersionConflict."""
        items = [self._put(typed({**keys.rated(game_id), "kind": "rated"}))]
        for r in ratings:
            values = {**keys.rating(r.player_id, r.game), "kind": "rating",
                      **{k: getattr(r, k) for k in RatingRecord.__dataclass_fields__}}
            values["version"] = r.version + 1
            if not r.provisional:
                values.update(keys.leaderboard(r.game, r.player_id, decimal(r.rating)))
            for name in ("rating", "rd", "volatility"):
                values[name] = decimal(values[name])
            items.append(self._put(typed(values), IS_NEW if r.version == 0 else at_version(r.version)))
        try:
            self.client.transact_write_items(TransactItems=items)
        except self.client.exceptions.TransactionCanceledException as error:
            reasons = [r.get("Code", "None") for r in error.response.get("CancellationReasons", [])]
            if reasons and reasons[0] == "ConditionalCheckFailed":
                return False
            raise VersionConflict(None) from error
        return True

    def leaderboard(self, game: str, limit: int,
                    keep: Callable[[RatingRecord], bool]) -> tuple[list[RatingRecord], list[RatingRecord]]:
        """The highest ``limit`` that ``keep`` accepts of each of the game type's 16 shards, merged;
        a shard is read a page of ``limit`` at a time, on past the refused, until it gave ``limit``."""
        kept: list[RatingRecord] = []
        refused: list[RatingRecord] = []
        for shard in keys.shards(game):
            found, start = 0, None
            while True:
                page, start = self._query_page("lb = :g", {":g": {"S": shard}}, index="leaderboard", limit=limit,
                                               descending=True, start=start)
                for item in page:
                    record = self._rating_from(item)
                    if found < limit and keep(record):
                        kept.append(record)
                        found += 1
                    elif found < limit:
                        refused.append(record)
                if found >= limit or start is None:
                    break
        kept.sort(key=lambda r: (-r.rating, r.player_id))
        return kept[:limit], refused

    def drop_from_leaderboard(self, rating: RatingRecord) -> bool:
        """Remove the rating's index keys, on its version (a rating saved since keeps its place)."""
        return self._applied(self.client.update_item, **self._update(
            keys.rating(rating.player_id, rating.game), "REMOVE lb, lb_rating", condition=at_version(rating.version)))

    @staticmethod
    def _rating_from(item: dict) -> RatingRecord:
        return RatingRecord(**{k: item[k] for k in RatingRecord.__dataclass_fields__ if k in item})

    def get_ratings(self, player_ids: list[str], game: str) -> dict[str, RatingRecord]:
        """The players' ratings at ``game`` by BatchGetItem (eventually consistent; a player without
        one has the default)."""
        found = {item["player_id"]: self._rating_from(item)
                 for item in self._batch_get([keys.rating(p, game) for p in dict.fromkeys(player_ids)])}
        return {p: found.get(p) or RatingRecord(p, game) for p in player_ids}
