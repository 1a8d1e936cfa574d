"""The ratings area (``store.protocol.RatingStore``) in memory: ratings guarded by their versions,
a game rated once, the leaderboard (the ratings established when saved)."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..records import RatingRecord
from .. import keys
from ..errors import VersionConflict
from .table import MemoryTable


def _as_stored(r: RatingRecord) -> RatingRecord:
    """A rating as DynamoDB keeps its numbers (six decimals; whole numbers read back as int)."""
    def number(value: float):
        value = round(value, 6)
        return int(value) if value == int(value) else value

    return replace(r, rating=number(r.rating), rd=number(r.rd), volatility=number(r.volatility))


class MemoryRatings(MemoryTable):
    """Ratings and the leaderboard."""

    def get_rating(self, player_id: str, game: str) -> RatingRecord:
        found = self._ratings.get((player_id, game))
        return replace(found) if found else RatingRecord(player_id, game)

    def list_ratings(self, player_id: str) -> list[RatingRecord]:
        return [replace(r) for (p, _), r in sorted(self._ratings.items()) if p == player_id]

    def get_ratings(self, player_ids: list[str], game: str) -> dict[str, RatingRecord]:
        return {p: self.get_rating(p, game) for p in player_ids}

    def save_ratings(self, game_id: str, ratings: list[RatingRecord]) -> bool:
        if (game_id, "RATED") in self._marks:
            return False
        for r in ratings:
            stored = self._ratings.get((r.player_id, r.game))
            if (stored is None) != (r.version == 0) or (stored is not None and stored.version != r.version):
                raise VersionConflict(None)
        self._marks.add((game_id, "RATED"))
        for r in ratings:
            self._ratings[(r.player_id, r.game)] = _as_stored(replace(r, version=r.version + 1))
            if r.provisional:
                self._listed.discard((r.player_id, r.game))
            else:
                self._listed.add((r.player_id, r.game))
        return True

    def leaderboard(self, game: str, limit: int,
                    keep: Callable[[RatingRecord], bool]) -> tuple[list[RatingRecord], list[RatingRecord]]:
        kept: list[RatingRecord] = []
        refused: list[RatingRecord] = []
        by_shard: dict[str, list[RatingRecord]] = {}
        for player_id, kind in self._listed:
            if kind == game:
                by_shard.setdefault(keys.shard(player_id), []).append(self._ratings[(player_id, kind)])
        for shard in sorted(by_shard):
            found = 0
            for record in sorted(by_shard[shard], key=lambda r: (-r.rating, r.player_id)):
                if found >= limit:
                    break
                if keep(replace(record)):
                    kept.append(replace(record))
                    found += 1
                else:
                    refused.append(replace(record))
        kept.sort(key=lambda r: (-r.rating, r.player_id))
        return kept[:limit], refused

    def drop_from_leaderboard(self, rating: RatingRecord) -> bool:
        stored = self._ratings.get((rating.player_id, rating.game))
        if stored is None or stored.version != rating.version:
            return False
        self._listed.discard((rating.player_id, rating.game))
        return True


