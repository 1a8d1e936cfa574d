# ruff: noqa: F811 (the clock tests' fixtures, imported, are the tests' arguments)
"""Ratings age where people read them (issue 22, defect 4): RD and provisional status as of now,
and the leaderboard lists only ratings established as of now."""

from __future__ import annotations

from datetime import timedelta

from chalicelib.kernel.clock import iso
from chalicelib.store.records import RatingRecord

from .test_clocks import DAY, START, clock, timed  # noqa: F401 (fixtures)


def me(api, player):
    return api.get("/v1/players/me", key=player["api_key"]).body["ratings"]["battleline"]


def board(api):
    return [p["name"] for p in api.get("/v1/leaderboards/battleline").body["players"]]


def test_ratings_age_where_people_read_them(timed, clock):
    """Defect 4: after 730 idle days getMe still showed RD 107.3 and "established", and the
    leaderboard still listed the player; by Glicko-2 (an empty period each 30 days) RD is 118.8."""
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    timed.services.store.save_ratings("g-ann", [RatingRecord(ann["id"], "battleline", 1700, 107.3, 0.06, games=40,
                                                             updated_at=iso(START))])
    timed.services.store.save_ratings("g-bob", [RatingRecord(bob["id"], "battleline", 1650, 60, 0.06, games=90,
                                                             updated_at=iso(START))])
    fresh = me(timed, ann)
    assert (fresh["rd"], fresh["provisional"]) == (107.3, False)
    assert fresh["established_until"] == iso(START + 180 * DAY)  # six empty periods reach RD 110
    assert board(timed) == ["Ann", "Bob"]

    clock.advance(730 * DAY)
    aged = me(timed, ann)
    assert (aged["rd"], aged["provisional"], aged["established_until"]) == (118.8, True, None)
    assert aged["rating"] == 1700 and aged["games"] == 40  # only the deviation grows
    shown = timed.get(f"/v1/players/{ann['id']}", key=bob["api_key"]).body["ratings"]["battleline"]
    assert (shown["rd"], shown["provisional"]) == (118.8, True)
    rows = timed.get("/v1/leaderboards/battleline").body["players"]
    assert [(r["rank"], r["name"]) for r in rows] == [(1, "Bob")]
    assert rows[0]["rd"] > 60 and rows[0]["provisional"] is False  # Bob's RD aged too, as shown
    # The lapsed entry was taken out of the index as it was found: the next look reads it no more.
    _kept, lapsed = timed.services.store.leaderboard("battleline", 10, lambda r: True)
    assert ann["id"] not in {r.player_id for r in _kept + lapsed}


def test_an_established_rating_leaves_the_leaderboard_the_day_its_rd_reaches_110(timed, clock):
    ann = timed.signup("Ann")
    timed.services.store.save_ratings("g-ann", [RatingRecord(ann["id"], "battleline", 1700, 107.3, 0.06, games=40,
                                                             updated_at=iso(START))])
    clock.advance(180 * DAY - timedelta(seconds=1))
    assert board(timed) == ["Ann"] and me(timed, ann)["provisional"] is False
    clock.advance(timedelta(seconds=1))
    assert board(timed) == [] and me(timed, ann)["provisional"] is True


def test_decision_an_idle_rd_grows_past_24_periods_up_to_350(timed, clock):
    """The old cap of 24 periods (two years) stopped ageing; Glicko's own cap is a new player's 350."""
    ann = timed.signup("Ann")
    timed.services.store.save_ratings("g-ann", [RatingRecord(ann["id"], "battleline", 1700, 107.3, 0.06, games=40,
                                                             updated_at=iso(START))])
    clock.advance(731 * DAY)
    two_years = me(timed, ann)["rd"]
    clock.advance(3650 * DAY)
    assert me(timed, ann)["rd"] > two_years
    clock.advance(365 * 1000 * DAY)
    assert me(timed, ann)["rd"] == 350.0
