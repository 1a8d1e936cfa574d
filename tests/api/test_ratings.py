"""Glicko-2 ratings: updated once when a rated game ends, never for seeded games; leaderboards."""

from __future__ import annotations

import copy
import json
from datetime import datetime, timezone

import pytest

from chalicelib.games.khan.cardset import DEFAULT_CARD_SET, REGISTRY
from chalicelib.notify import messages
from chalicelib.store.records import RatingRecord
from chalicelib.services.ratings import aged
from chalicelib.tournaments import glicko2


def finish_by_resignation(api, loser, game):
    reply = api.act(loser, game["game_id"], game["version"], {"type": "resign"})
    assert reply.status == 200, reply.body
    return reply.body["view"]


def ratings(api, player):
    return api.get("/v1/players/me", key=player["api_key"]).body["ratings"]


def test_a_rated_game_updates_both_ratings_once(api, services):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob])
    assert game["rated"] is True
    finish_by_resignation(api, bob, game)
    assert ratings(api, ann) == {}  # rated by the outbox worker, not inside the move
    services.dispatcher.drain_outbox()
    winner, loser = ratings(api, ann)["battleline"], ratings(api, bob)["battleline"]
    expected = glicko2.update(glicko2.Rating(), [(glicko2.Rating(), 1.0)])
    assert winner["rating"] == round(expected.rating) and winner["rating"] > 1500 > loser["rating"]
    assert winner["rd"] == round(expected.rd, 1) and winner["provisional"] is True
    assert (winner["games"], winner["wins"], loser["losses"]) == (1, 1, 1)
    # The same message dispatched again (an at-least-once re-run) changes nothing.
    settle = messages.Message(f"msg_{game['game_id']}_1_settle", messages.GAME_FINISHED, "",
                              {"game_id": game["game_id"]}, "2026-01-01T00:00:00.000Z")
    services.dispatcher.dispatch(settle)
    assert ratings(api, ann)["battleline"] == winner


def test_seeded_games_and_unrated_games_are_never_rated(api, services):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    seeded = api.new_game(ann, [ann, bob], seed=11)
    unrated = api.new_game(ann, [ann, bob], rated=False)
    assert seeded["rated"] is False and unrated["rated"] is False
    finish_by_resignation(api, bob, seeded)
    finish_by_resignation(api, bob, unrated)
    services.dispatcher.drain_outbox()
    assert ratings(api, ann) == {} and ratings(api, bob) == {}


def test_three_player_games_are_not_rated(api, services):
    ann, bob, cat = api.signup("Ann"), api.signup("Bob"), api.signup("Cat")
    game = api.new_game(ann, [ann, bob, cat], options={"players": 3})
    assert game["rated"] is False


def test_an_idle_ratings_deviation_grows_each_rating_period():
    now = datetime(2026, 6, 1, tzinfo=timezone.utc)
    fresh = RatingRecord("p", "battleline", 1700, 60, 0.06, updated_at="2026-05-20T00:00:00.000Z")
    idle = RatingRecord("p", "battleline", 1700, 60, 0.06, updated_at="2026-01-01T00:00:00.000Z")
    assert aged(fresh, now).rd == 60
    five_periods = glicko2.Rating(1700, 60, 0.06)
    for _ in range(5):
        five_periods = glicko2.update(five_periods, [])
    assert aged(idle, now).rd == five_periods.rd > 60


def test_leaderboard_lists_established_ratings_best_first(api, services):
    players = [api.signup(name) for name in ("Ann", "Bob", "Cat", "Dan")]
    ratings_by_name = {"Ann": (1620, 80), "Bob": (1810, 70), "Cat": (1900, 200), "Dan": (1505, 109)}
    for player in players:
        rating, rd = ratings_by_name[player["name"]]
        services.store.save_ratings(f"g-{player['id']}", [RatingRecord(player["id"], "battleline", rating, rd, 0.06,
                                                                       games=30)])
    reply = api.get("/v1/leaderboards/battleline")
    assert reply.status == 200
    assert [(p["rank"], p["name"], p["rating"]) for p in reply.body["players"]] == [
        (1, "Bob", 1810), (2, "Ann", 1620), (3, "Dan", 1505)]  # Cat is still provisional (RD 200)
    assert api.get("/v1/leaderboards/battleline?limit=1").body["players"][0]["name"] == "Bob"
    assert api.get("/v1/leaderboards/chess").body["code"] == "unknown_game_type"
    assert api.get("/v1/leaderboards/battleline?limit=0").status == 422


def test_a_rated_game_moves_a_player_onto_the_leaderboard_when_rd_falls_below_110(api, services):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    services.store.save_ratings("g-seed-ann", [RatingRecord(ann["id"], "battleline", 1600, 111, 0.06, games=20)])
    assert api.get("/v1/leaderboards/battleline").body["players"] == []
    finish_by_resignation(api, bob, api.new_game(ann, [ann, bob]))
    services.dispatcher.drain_outbox()
    board = api.get("/v1/leaderboards/battleline").body["players"]
    assert [p["name"] for p in board] == ["Ann"] and board[0]["rd"] < 110 and board[0]["games"] == 21


def test_finished_game_view_says_it_was_rated(api, services):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob])
    view = finish_by_resignation(api, bob, game)
    assert view["rated"] is True and view["seed"] is not None  # a finished game shows its seed


def test_seed_with_rated_true_is_refused_not_silently_unrated(api, services):
    """Defect 5: ``{"seed": 9, "rated": true}`` made an unrated game without a word."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    api.accepting(bob)
    body = {"game": "battleline", "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]}
    refused = api.post("/v1/games", {**body, "seed": 9, "rated": True}, key=ann["api_key"])
    assert (refused.status, refused.body["code"]) == (422, "rated_conflict")
    assert "seed" in refused.body["detail"]
    assert api.get("/v1/games", key=ann["api_key"]).body["games"] == []  # nothing was made
    # A seed alone (rated left out) still makes a game, unrated; so does rated: false.
    assert api.post("/v1/games", {**body, "seed": 9}, key=ann["api_key"]).body["rated"] is False
    assert api.post("/v1/games", {**body, "seed": 9, "rated": False}, key=ann["api_key"]).body["rated"] is False


def test_rated_true_with_a_bot_or_three_seats_is_refused_too(api, services):
    """The same contradiction, decided the same way: an explicit ``rated: true`` that cannot hold."""
    ann, bob, cat = api.signup("Ann"), api.signup("Bob"), api.signup("Cat")
    api.accepting(bob)
    api.accepting(cat)
    bot = {"game": "battleline", "seats": [{"player_id": ann["id"]}, {"bot": "random"}]}
    refused = api.post("/v1/games", {**bot, "rated": True}, key=ann["api_key"])
    assert (refused.status, refused.body["code"]) == (422, "rated_conflict") and "bot" in refused.body["detail"]
    assert api.post("/v1/games", bot, key=ann["api_key"]).body["rated"] is False
    three = {"game": "battleline", "options": {"players": 3}, "rated": True,
             "seats": [{"player_id": p["id"]} for p in (ann, bob, cat)]}
    assert api.post("/v1/games", three, key=ann["api_key"]).body["code"] == "rated_conflict"
    two = {"game": "battleline", "rated": True, "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]}
    assert api.post("/v1/games", two, key=ann["api_key"]).body["rated"] is True


# ------------------------------------------------------------------ issue 36, item 9: card sets rated apart


@pytest.fixture
def playtest_set(tmp_path):
    """A designer's playtest card set, loaded as the server loads an extra folder; removed after."""
    data = copy.deepcopy(REGISTRY.get(DEFAULT_CARD_SET, 1).data)
    data.update(id="steppe-playtest", name="A designer's playtest set", version=1)
    (tmp_path / "steppe-playtest.v1.json").write_text(json.dumps(data))
    before = dict(REGISTRY.sets)
    REGISTRY.load_dir(tmp_path)
    yield "steppe-playtest"
    REGISTRY.sets.clear()
    REGISTRY.sets.update(before)


def khan_game(api, ann, bob, **options):
    return api.new_game(ann, [ann, bob], game="khan", options={"first_seat": 1, **options})


def test_issue36_item9_a_game_on_a_playtest_set_leaves_the_default_rating_unchanged_and_moves_the_sets_own(
        api, services, playtest_set):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    finish_by_resignation(api, bob, khan_game(api, ann, bob))  # the default set: rated as before
    services.dispatcher.drain_outbox()
    default_before = ratings(api, ann)["khan"]
    assert default_before["pool"] == "khan" and default_before["card_set"] is None and default_before["games"] == 1
    playtest = khan_game(api, ann, bob, card_set=playtest_set)
    assert playtest["rated"] is True
    finish_by_resignation(api, bob, playtest)
    services.dispatcher.drain_outbox()
    after = ratings(api, ann)
    assert after["khan"] == default_before  # the default set's rating did not move
    own = after[f"khan:{playtest_set}"]
    assert own["game"] == "khan" and own["card_set"] == playtest_set and own["pool"] == f"khan:{playtest_set}"
    assert (own["games"], own["wins"]) == (1, 1) and own["rating"] > 1500
    assert ratings(api, bob)[f"khan:{playtest_set}"]["losses"] == 1
    # The public profile shows the same ratings, per pool.
    profile = api.get(f"/v1/players/{ann['id']}", key=bob["api_key"]).body["ratings"]
    assert set(profile) == {"khan", f"khan:{playtest_set}"}


def test_issue36_item9_the_leaderboard_of_a_card_set(api, services, playtest_set):
    players = [api.signup(name) for name in ("Ann", "Bob", "Cat")]
    pool = f"khan:{playtest_set}"
    for player, (on_set, on_default) in zip(players, [(1700, 1550), (1650, 1800), (None, 1600)]):
        saved = [RatingRecord(player["id"], "khan", on_default, 80, 0.06, games=30)]
        if on_set is not None:
            saved.append(RatingRecord(player["id"], pool, on_set, 80, 0.06, games=30))
        services.store.save_ratings(f"g-{player['id']}", saved)
    board = api.get(f"/v1/leaderboards/khan?card_set={playtest_set}").body
    assert board["pool"] == pool and board["card_set"] == playtest_set
    assert [(p["name"], p["rating"], p["card_set"]) for p in board["players"]] == [
        ("Ann", 1700, playtest_set), ("Bob", 1650, playtest_set)]
    default = api.get("/v1/leaderboards/khan").body  # the default set's, as before
    assert default["pool"] == "khan" and default["card_set"] is None
    assert [(p["name"], p["rating"]) for p in default["players"]] == [("Bob", 1800), ("Cat", 1600), ("Ann", 1550)]
    assert api.get("/v1/leaderboards/khan?card_set=khan-default").body["players"] == default["players"]
    unknown = api.get("/v1/leaderboards/khan?card_set=no-such-set")
    assert unknown.status == 404 and unknown.body["code"] == "card_set_not_found"
    none = api.get("/v1/leaderboards/battleline?card_set=steppe-playtest")
    assert none.status == 404 and none.body["code"] == "card_set_not_found"  # a schema-valid request: no 422

