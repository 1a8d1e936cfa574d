"""The leaderboard index (docs/storage.md): 16 shards a game type, each read on past the ratings
the caller refuses (those aged into provisional) until it gives a full page."""

from __future__ import annotations

from itertools import count

import pytest

from chalicelib.records import RatingRecord
from chalicelib.store import keys

pytestmark = pytest.mark.contract  # the same on memory, moto and DynamoDB Local


def first_ids_in_shard(shard: str, how_many: int) -> list[str]:
    found = []
    for n in count():
        if keys.shard(f"p{n}") == shard:
            found.append(f"p{n}")
            if len(found) == how_many:
                return found


def test_leaderboard_pages_past_refused_ratings_within_a_shard(store):
    *lapsed, kept = first_ids_in_shard("03", 6)
    ratings = [RatingRecord(p, "battleline", 1900 - 10 * i, 80, 0.06, games=30) for i, p in enumerate(lapsed)]
    ratings.append(RatingRecord(kept, "battleline", 1600, 80, 0.06, games=30))
    for r in ratings:
        store.save_ratings(f"g-{r.player_id}", [r])
    shown, refused = store.leaderboard("battleline", 2, lambda r: r.player_id == kept)
    assert [r.player_id for r in shown] == [kept]  # three pages of two, five refused on the way
    assert {r.player_id for r in refused} == set(lapsed)
    assert all(store.drop_from_leaderboard(r) for r in refused)
    again, refused_again = store.leaderboard("battleline", 2, lambda r: r.player_id == kept)
    assert [r.player_id for r in again] == [kept] and refused_again == []
    assert store.get_rating(lapsed[0], "battleline").rating == 1900  # the rating itself stays


def test_a_rating_saved_since_it_was_read_keeps_its_place(store):
    (player,) = first_ids_in_shard("05", 1)
    store.save_ratings("g-1", [RatingRecord(player, "battleline", 1700, 80, 0.06, games=30)])
    read = store.get_rating(player, "battleline")
    store.save_ratings("g-2", [RatingRecord(player, "battleline", 1710, 79, 0.06, games=31, version=read.version)])
    assert store.drop_from_leaderboard(read) is False
    assert [r.rating for r in store.leaderboard("battleline", 5, lambda r: True)[0]] == [1710]
