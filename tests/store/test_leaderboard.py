"""The leaderboard index (docs/storage.md): 16 shards a game type, each read on past the ratings
the caller refuses (those aged into provisional) until it gives a full page."""

from __future__ import annotations

from itertools import count

import pytest

from chalicelib.store.records import RatingRecord
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


def test_issue36_item9_a_card_sets_pool_keeps_its_own_ratings_and_leaderboard(store):
    """A Khan & General card set rated apart (pool ``khan:<set>``): the same players' ratings in the
    default pool and the set's are separate items, each pool's leaderboard lists its own, and the
    set's index entries are spread over the 16 shards of its own key (docs/storage.md: no hot key)."""
    pool = "khan:steppe-playtest"
    players = [f"p{n}" for n in range(40)]
    for n, player in enumerate(players):
        store.save_ratings(f"g-{player}", [RatingRecord(player, "khan", 1500 + n, 80, 0.06, games=30),
                                           RatingRecord(player, pool, 1900 - n, 80, 0.06, games=30)])
    assert store.get_rating("p0", "khan").rating == 1500 and store.get_rating("p0", pool).rating == 1900
    assert {r.game for r in store.list_ratings("p0")} == {"khan", pool}
    on_set, _ = store.leaderboard(pool, 3, lambda r: True)
    on_default, _ = store.leaderboard("khan", 3, lambda r: True)
    assert [(r.player_id, r.game) for r in on_set] == [("p0", pool), ("p1", pool), ("p2", pool)]
    assert [(r.player_id, r.game) for r in on_default] == [("p39", "khan"), ("p38", "khan"), ("p37", "khan")]
    assert {keys.leaderboard(pool, p, 1)["lb"] for p in players} <= {f"{pool}#{shard:02}" for shard in range(16)}
    assert len(keys.shards(pool)) == keys.SHARDS == 16
