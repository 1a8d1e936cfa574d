"""Issue 34, item 3, consent by rematch: rematchGame asks exactly what createGame asks (the
other players' ``challenges`` preference, blocks, bot policies, the limits: one check,
``services/consent.py``), a declined game has no rematch, and a game has one rematch at most, so
rematch-then-decline cannot be repeated."""

import threading

from .test_bot_accounts import signup_bot
from .test_contract import problem_of


def played(api, ann, bob):
    """A game Ann and Bob played to its end (Ann resigned at once)."""
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    assert api.act(ann, game["game_id"], 0, {"type": "resign"}).status == 200
    return game["game_id"]


def rematch(api, player, game_id, **headers):
    return api.post(f"/v1/games/{game_id}/rematch", key=player["api_key"], headers=headers or None)


def preferences(api, player, **wanted):
    reply = api.request("PUT", "/v1/players/me/preferences", wanted, key=player["api_key"])
    assert reply.status == 200, reply.body


def rematch_declined(api):
    """Ann and Bob played a game; Ann asked for a rematch and Bob declined it."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    first = played(api, ann, bob)
    preferences(api, bob, challenges="ask")
    asked = rematch(api, ann, first)
    assert asked.status == 201, asked.body
    assert api.post(f"/v1/games/{asked.body['game_id']}/decline", key=bob["api_key"]).status == 200
    return ann, bob, first, asked


def test_item3_rematch_of_a_player_who_declined_and_then_refuses_games_is_refused(api):
    ann, bob, first, asked = rematch_declined(api)
    preferences(api, bob, challenges="refuse")
    problem_of(rematch(api, ann, asked.body["game_id"]), 409, "game_never_began")
    problem_of(rematch(api, ann, first), 409, "already_rematched")
    # a game the two played to its end: the preference alone refuses its rematch, as createGame would
    other = played(api, bob, ann)
    preferences(api, bob, challenges="refuse")
    refused = problem_of(rematch(api, ann, other), 403, "challenges_refused")
    assert "Bob" in refused["detail"]
    waiting = api.get("/v1/games?status=waiting", key=bob["api_key"]).body["games"]
    assert waiting == []  # Bob is asked nothing


def test_item3_rematch_follows_the_others_preference_as_create_game_does(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    first = played(api, ann, bob)  # Bob accepts every game made for him
    again = rematch(api, ann, first)
    assert again.status == 201, again.body
    assert again.body["status"] == "active" and [s["invited"] for s in again.body["seats"]] == [False, False]


def test_item3_rematch_is_refused_once_either_blocked_the_other(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    first = played(api, ann, bob)
    assert api.request("PUT", f"/v1/players/me/blocks/{ann['id']}", key=bob["api_key"]).status == 200
    problem_of(rematch(api, ann, first), 403, "blocked")
    problem_of(rematch(api, bob, first), 403, "blocked")
    assert api.request("DELETE", f"/v1/players/me/blocks/{ann['id']}", key=bob["api_key"]).status == 204
    assert rematch(api, ann, first).status == 201


def test_item3_rematch_of_a_bot_account_applies_its_policy(api):
    ann, robo = api.signup("Ann"), signup_bot(api)
    first = played(api, ann, robo)
    preferences(api, robo, bot_policy={"games": ["khan"]})  # the bot no longer plays Battle Line
    refused = problem_of(rematch(api, ann, first), 422, "bot_refuses")
    assert "khan" in refused["detail"]
    preferences(api, robo, bot_policy={"games": ["battleline"], "time_controls": ["none"]})
    again = rematch(api, ann, first)
    assert again.status == 201, again.body
    assert again.body["status"] == "active"  # a bot that accepts every game it allows plays at once


def test_item3_rematch_then_decline_cannot_be_repeated(api):
    ann, bob, first, asked = rematch_declined(api)
    for _ in range(10):  # neither the declined game nor the game before it is rematched again
        problem_of(rematch(api, ann, asked.body["game_id"]), 409, "game_never_began")
        again = problem_of(rematch(api, ann, first), 409, "already_rematched")
        assert again["game_id"] == asked.body["game_id"]
    problem_of(rematch(api, bob, first), 409, "already_rematched")  # nor by the other player
    games = api.get("/v1/games", key=bob["api_key"]).body["games"]
    assert sorted(g["game_id"] for g in games) == sorted([first, asked.body["game_id"]])  # asked once


def test_item3_a_declined_game_is_not_rematchable(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], consent=False)
    assert api.post(f"/v1/games/{game['game_id']}/decline", key=bob["api_key"]).status == 200
    for player in (ann, bob):
        reply = rematch(api, player, game["game_id"])
        assert reply.headers["content-type"].startswith("application/problem+json")
        refused = problem_of(reply, 409, "game_never_began")
        assert "declined" in refused["detail"]
    # nor a game called off while the other was still asked
    called_off = api.new_game(ann, [ann, bob], consent=False)
    assert api.post(f"/v1/games/{called_off['game_id']}/abort", key=ann["api_key"]).status == 200
    problem_of(rematch(api, ann, called_off["game_id"]), 409, "game_never_began")


def test_item3_an_ordinary_rematch_still_works(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    first = played(api, ann, bob)
    again = rematch(api, bob, first, **{"Idempotency-Key": "r1"})
    assert again.status == 201, again.body
    assert [(s["name"], s["invited"]) for s in again.body["seats"]] == [("Bob", False), ("Ann", True)]
    assert again.body["status"] == "waiting"
    replay = rematch(api, bob, first, **{"Idempotency-Key": "r1"})
    assert replay.status == 201 and replay.body["game_id"] == again.body["game_id"]
    second = again.body["game_id"]
    assert api.post(f"/v1/games/{second}/accept", key=ann["api_key"]).body["status"] == "active"
    assert api.act(bob, second, 1, {"type": "resign"}).status == 200
    third = rematch(api, ann, second)  # a rematch played to its end has its own rematch
    assert third.status == 201, third.body
    assert [s["name"] for s in third.body["seats"]] == ["Ann", "Bob"]


def test_item3_rematch_applies_the_limit_of_a_player_seated_at_once(api, services):
    ann, bob, cat = api.signup("Ann"), api.signup("Bob"), api.signup("Cat")
    first = played(api, ann, bob)  # Bob accepts every game made for him: a rematch seats him at once
    services.game_limit.most = 2
    for _ in range(2):
        api.new_game(cat, [cat, bob])
    refused = problem_of(rematch(api, ann, first), 409, "too_many_games")
    assert "Bob" in refused["detail"]


def test_item3_two_rematches_of_one_game_at_once_make_one_game(api, concurrent):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    first = played(api, ann, bob)
    answers: list = []
    threads = [threading.Thread(target=lambda p=p: answers.append(rematch(api, p, first))) for p in (ann, bob)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    made = [a for a in answers if a.status == 201]
    assert len(made) == 1, [a.body for a in answers]
    other = next(a for a in answers if a.status != 201)
    assert problem_of(other, 409, "already_rematched")["game_id"] == made[0].body["game_id"]
