"""Consent and the lobby (issue 18): a game seating someone else waits for their yes; open seats
are found and taken first come, first served; a game that never began is never rated."""

import threading

import pytest

from .test_contract import problem_of

TIMED = {"first_seat": 1, "time_control": {"per_move_days": 1}}


def ask(api, ann, bob, **extra):
    """Ann makes a rated, clocked game seating Bob, who has said nothing yet."""
    return api.new_game(ann, [ann, bob], consent=False, rated=True, options=TIMED, **extra)


def test_a_game_seating_another_player_waits_for_their_yes_and_no_clock_runs(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = ask(api, ann, bob)
    assert game["status"] == "waiting" and game["phase"] == "waiting" and game["to_move"] is None
    assert game["legal_steps"] == [] and not any(s["running"] or s["deadline"] for s in game["clock"]["seats"])
    assert [s["invited"] for s in game["seats"]] == [False, True]
    assert game["state"]["hand"] == [] and api.view(bob, game["game_id"])["state"]["hand"] == []
    told = api.get(f"/v1/games/{game['game_id']}/events?after=0", key=bob["api_key"]).body["events"]
    assert not any(e.get("private") or "hand" in e["data"] or "cards" in e["data"] for e in told)
    problem_of(api.act(ann, game["game_id"], 0, {"type": "resign"}), 409, "game_not_started")
    mine = api.get("/v1/games?status=waiting", key=bob["api_key"]).body["games"]
    assert [g["game_id"] for g in mine] == [game["game_id"]]

    accepted = api.post(f"/v1/games/{game['game_id']}/accept", key=bob["api_key"])
    assert accepted.status == 200, accepted.body
    assert accepted.body["status"] == "active" and accepted.body["to_move"] == 1
    assert len(accepted.body["state"]["hand"]) == 7
    assert accepted.body["clock"]["seats"][0]["running"] and accepted.body["clock"]["seats"][0]["deadline"]
    assert [s["invited"] for s in accepted.body["seats"]] == [False, False]
    problem_of(api.post(f"/v1/games/{game['game_id']}/accept", key=bob["api_key"]), 409, "nothing_to_answer")


def test_declined_game_is_finished_declined_and_never_rated(api, services):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = ask(api, ann, bob)
    declined = api.post(f"/v1/games/{game['game_id']}/decline", key=bob["api_key"])
    assert declined.status == 200, declined.body
    assert declined.body["status"] == "finished"
    assert declined.body["result"] == {"winner": None, "reason": "declined", "seat": 2}
    assert declined.body["rated"] is False
    services.dispatcher.drain_outbox()
    for player in (ann, bob):
        ratings = api.get("/v1/players/me", key=player["api_key"]).body["ratings"]
        assert all(r["games"] == 0 for r in ratings)
    problem_of(api.post(f"/v1/games/{game['game_id']}/accept", key=bob["api_key"]), 409, "nothing_to_answer")


def test_only_the_asked_player_answers(api):
    ann, bob, cat = api.signup("Ann"), api.signup("Bob"), api.signup("Cat")
    game = ask(api, ann, bob)
    problem_of(api.post(f"/v1/games/{game['game_id']}/accept", key=cat["api_key"]), 403, "not_seated")
    problem_of(api.post(f"/v1/games/{game['game_id']}/accept", key=ann["api_key"]), 409, "nothing_to_answer")


def test_aborted_before_the_first_move_is_unrated_and_after_it_refused(api, services):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], rated=True, options=TIMED)
    assert game["status"] == "active"
    aborted = api.post(f"/v1/games/{game['game_id']}/abort", key=bob["api_key"])
    assert aborted.status == 200, aborted.body
    assert aborted.body["result"]["reason"] == "aborted"
    assert not any(s["running"] or s["deadline"] for s in aborted.body["clock"]["seats"])
    services.dispatcher.drain_outbox()
    assert all(r["games"] == 0 for r in api.get("/v1/players/me", key=ann["api_key"]).body["ratings"])

    again = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    step = next(s for s in again["legal_steps"] if s["type"] == "play")
    assert api.act(ann, again["game_id"], 0, step, {"type": "claim", "flags": []},
                   {"type": "draw", "deck": "troop"}).status == 200
    problem_of(api.post(f"/v1/games/{again['game_id']}/abort", key=bob["api_key"]), 409, "game_started")


def test_a_player_who_refuses_games_cannot_be_seated_and_one_who_accepts_starts_at_once(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    api.request("PUT", "/v1/players/me/preferences", {"challenges": "refuse"}, key=bob["api_key"])
    problem_of(api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": ann["id"]},
                                                                        {"player_id": bob["id"]}]},
                        key=ann["api_key"]), 403, "challenges_refused")
    api.request("PUT", "/v1/players/me/preferences", {"challenges": "accept"}, key=bob["api_key"])
    game = api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]},
                    key=ann["api_key"]).body
    assert game["status"] == "active"


def test_tournament_games_need_no_asking(api, services):
    players = [api.signup(name) for name in ("Ann", "Bob", "Cat", "Dan")]
    made = api.post("/v1/tournaments", {"name": "Cup", "game": "battleline", "format": "round_robin"},
                    key=players[0]["api_key"])
    assert made.status == 201, made.body
    for p in players:
        assert api.post(f"/v1/tournaments/{made.body['id']}/join", key=p["api_key"]).status == 200
    started = api.post(f"/v1/tournaments/{made.body['id']}/start", key=players[0]["api_key"])
    assert started.status == 200, started.body
    services.dispatcher.drain_outbox()
    games = api.get("/v1/games", key=players[1]["api_key"]).body["games"]
    assert games and all(g["status"] == "active" for g in games)
    problem_of(api.post(f"/v1/games/{games[0]['game_id']}/abort", key=players[1]["api_key"]), 409, "tournament_game")


def open_game(api, ann, **seat):
    reply = api.post("/v1/games", {"game": "battleline", "options": {"first_seat": 1},
                                   "seats": [{"player_id": ann["id"]}, {"open": True, **seat}]}, key=ann["api_key"])
    assert reply.status == 201, reply.body
    return reply.body


def test_an_open_seat_is_listed_taken_by_the_first_and_then_gone(api):
    ann, bob, cat = api.signup("Ann"), api.signup("Bob"), api.signup("Cat")
    game = open_game(api, ann)
    assert game["status"] == "waiting" and game["seats"][1]["open"] is True
    listed = api.get("/v1/open-games?game=battleline", key=bob["api_key"]).body["games"]
    assert [(g["game_id"], g["open_seat"], g["may_join"], g["created_by"]["name"]) for g in listed] == [
        (game["game_id"], 2, True, "Ann")]
    assert api.get("/v1/open-games?game=battleline", key=ann["api_key"]).body["games"][0]["may_join"] is False
    problem_of(api.post(f"/v1/games/{game['game_id']}/join", key=ann["api_key"]), 409, "already_seated")

    joined = api.post(f"/v1/games/{game['game_id']}/join", key=bob["api_key"])
    assert joined.status == 200, joined.body
    assert joined.body["status"] == "active" and joined.body["you"] == 2
    assert joined.body["seats"][1] == {"seat": 2, "player_id": bob["id"], "name": "Bob", "invited": False,
                                       "bot": None, "open": False}
    problem_of(api.post(f"/v1/games/{game['game_id']}/join", key=cat["api_key"]), 409, "seat_taken")
    assert api.get("/v1/open-games", key=cat["api_key"]).body["games"] == []
    assert [g["game_id"] for g in api.get("/v1/games", key=bob["api_key"]).body["games"]] == [game["game_id"]]


def test_an_open_seat_keeps_its_rating_range(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = open_game(api, ann, rating_min=1700)
    assert api.get("/v1/open-games", key=bob["api_key"]).body["games"][0]["may_join"] is False
    problem_of(api.post(f"/v1/games/{game['game_id']}/join", key=bob["api_key"]), 403, "rating_out_of_range")
    problem_of(api.post("/v1/games", {"game": "battleline", "seats": [
        {"player_id": ann["id"]}, {"open": True, "rating_min": 1800, "rating_max": 1600}]}, key=ann["api_key"]),
        422, "invalid_seats")


def test_a_rematch_turns_the_seats_round_and_asks_the_other(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], consent=False, options={"first_seat": 1})
    problem_of(api.post(f"/v1/games/{game['game_id']}/rematch", key=ann["api_key"]), 409, "game_not_finished")
    api.post(f"/v1/games/{game['game_id']}/accept", key=bob["api_key"])
    assert api.act(ann, game["game_id"], 1, {"type": "resign"}).status == 200
    again = api.post(f"/v1/games/{game['game_id']}/rematch", key=bob["api_key"], headers={"Idempotency-Key": "r1"})
    assert again.status == 201, again.body
    assert [(s["name"], s["invited"]) for s in again.body["seats"]] == [("Bob", False), ("Ann", True)]
    assert again.body["status"] == "waiting" and again.body["options"]["first_seat"] == 1
    replay = api.post(f"/v1/games/{game['game_id']}/rematch", key=bob["api_key"], headers={"Idempotency-Key": "r1"})
    assert replay.body["game_id"] == again.body["game_id"]


def test_concurrent_joins_of_one_open_seat_seat_exactly_one(api, concurrent):
    ann = api.signup("Ann")
    joiners = [api.signup(f"P{n}") for n in range(8)]
    game = open_game(api, ann)
    answers: list[int] = []
    lock = threading.Lock()

    def join(player):
        status = api.post(f"/v1/games/{game['game_id']}/join", key=player["api_key"]).status
        with lock:
            answers.append(status)

    threads = [threading.Thread(target=join, args=(p,)) for p in joiners]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200] + [409] * 7
    view = api.view(ann, game["game_id"])
    seated = [s["player_id"] for s in view["seats"]]
    assert view["status"] == "active" and sum(p["id"] in seated for p in joiners) == 1


@pytest.mark.parametrize("path", ["accept", "decline", "abort", "join", "rematch"])
def test_answers_to_a_game_that_does_not_exist_are_404(api, path):
    ann = api.signup("Ann")
    problem_of(api.post(f"/v1/games/g_0000000000000000/{path}", key=ann["api_key"]), 404, "game_not_found")
