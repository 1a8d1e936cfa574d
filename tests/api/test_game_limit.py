"""The limit on a player's unfinished games (issue 23): createGame, joinGame, acceptGame and
rematchGame are refused with 409 ``too_many_games`` at the limit; tournament games count but are
never refused; the count is the player's unfinished memberships, so a finished game frees a place."""

import threading

import pytest

from chalicelib.services.limits import MAX_UNFINISHED_GAMES

from .test_contract import problem_of

LIMIT = 2


@pytest.fixture
def limited(services):
    services.game_limit.most = LIMIT
    return services


def create(api, creator, *others, open_seat=False):
    seats = [{"player_id": creator["id"]}, *({"player_id": o["id"]} for o in others)]
    if open_seat:
        seats.append({"open": True})
    return api.post("/v1/games", {"game": "battleline", "seats": seats}, key=creator["api_key"])


def test_the_documented_limit_is_100():
    assert MAX_UNFINISHED_GAMES == 100


def test_creating_a_game_over_the_limit_is_refused(api, limited):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    for _ in range(LIMIT):
        assert create(api, ann, bob).status == 201  # Bob is asked: the games wait, and count for both
    refused = problem_of(create(api, ann, bob), 409, "too_many_games")
    assert refused["limit"] == LIMIT and str(LIMIT) in refused["detail"]
    assert len(api.get("/v1/games", key=ann["api_key"]).body["games"]) == LIMIT


def test_a_finished_game_frees_a_place(api, limited):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    games = [api.new_game(ann, [ann, bob], options={"first_seat": 1}) for _ in range(LIMIT)]
    problem_of(create(api, ann, bob), 409, "too_many_games")
    assert api.act(ann, games[0]["game_id"], 0, {"type": "resign"}).status == 200
    assert create(api, ann, bob).status == 201


def test_seating_a_player_who_accepts_everything_at_their_limit_is_refused(api, limited):
    ann, bob, cy = api.signup("Ann"), api.signup("Bob"), api.signup("Cy")
    for _ in range(LIMIT):
        api.new_game(cy, [cy, bob])  # Bob accepts every game made for him
    refused = problem_of(create(api, ann, bob), 409, "too_many_games")
    assert "Bob" in refused["detail"]


def test_joining_at_the_limit_is_refused(api, limited):
    ann, bob, cy = api.signup("Ann"), api.signup("Bob"), api.signup("Cy")
    open_game = create(api, ann, open_seat=True).body["game_id"]
    for _ in range(LIMIT):
        create(api, bob, cy)
    problem_of(api.post(f"/v1/games/{open_game}/join", key=bob["api_key"]), 409, "too_many_games")
    assert api.post(f"/v1/games/{open_game}/join", key=cy["api_key"]).status == 200


def test_games_asked_of_a_player_count_only_once_accepted(api, limited):
    """Decision: a challenge not accepted yet does not count for the player asked (nobody fills another
    player's quota with challenges); accepting one at the limit is refused, declining never is."""
    ann, bob, cy, dee = (api.signup(n) for n in ("Ann", "Bob", "Cy", "Dee"))
    asked = [create(api, ann, bob).body["game_id"], create(api, cy, bob).body["game_id"],
             create(api, dee, bob).body["game_id"]]
    assert create(api, bob, ann).status == 201  # three games asked of Bob: none counts for him
    assert api.post(f"/v1/games/{asked[0]}/accept", key=bob["api_key"]).status == 200  # now two
    problem_of(api.post(f"/v1/games/{asked[1]}/accept", key=bob["api_key"]), 409, "too_many_games")
    assert api.post(f"/v1/games/{asked[1]}/decline", key=bob["api_key"]).status == 200
    assert api.view(bob, asked[2])["status"] == "waiting"


def test_tournament_games_count_but_are_never_refused(api, limited):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    for _ in range(LIMIT):
        api.new_game(ann, [ann, bob])
    made = api.post("/v1/tournaments", {"name": "Cup", "game": "battleline", "format": "round_robin",
                                        "max_players": 2}, key=ann["api_key"])
    tid = made.body["id"]
    for p in (ann, bob):
        assert api.post(f"/v1/tournaments/{tid}/join", key=p["api_key"]).status in (200, 201)
    assert api.post(f"/v1/tournaments/{tid}/start", key=ann["api_key"]).status == 200
    games = api.get("/v1/games", key=ann["api_key"]).body["games"]
    assert len(games) == LIMIT + 1  # over the limit: the tournament's game was not refused
    problem_of(create(api, ann, bob), 409, "too_many_games")  # and it counts


def test_limit_is_checked_not_reserved_and_the_count_never_drifts(api, limited, concurrent):
    """Decision: creates at once one below the limit may all pass (the limit is checked, not
    reserved), but nothing is counted but the memberships themselves: the next request sees the
    true number and is refused, and ending games frees exactly as many places."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    assert create(api, ann, bob).status == 201  # one below the limit of two (Bob is asked: it waits)
    answers: list[int] = []
    lock = threading.Lock()

    def make():
        status = create(api, ann, bob).status
        with lock:
            answers.append(status)

    threads = [threading.Thread(target=make) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    made = answers.count(201)
    assert made >= 1 and set(answers) <= {201, 409}
    games = api.get("/v1/games?status=waiting", key=ann["api_key"]).body["games"]
    assert len(games) == 1 + made
    assert limited.store.count_unfinished_games(ann["id"]) == 1 + made  # what was made, no more, no less
    problem_of(create(api, ann, bob), 409, "too_many_games")
    for game in games[1:]:
        assert api.post(f"/v1/games/{game['game_id']}/abort", key=ann["api_key"]).status == 200
    assert limited.store.count_unfinished_games(ann["id"]) == 1
    assert create(api, ann, bob).status == 201
