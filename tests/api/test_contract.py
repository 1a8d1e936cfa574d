"""The public contract (api.md) through the HTTP layer, on moto and on DynamoDB Local."""

import random

import pytest


def problem_of(reply, status, code):
    assert reply.status == status, reply.body
    assert reply.headers["content-type"] == "application/problem+json"
    assert reply.body["code"] == code
    assert reply.body["status"] == status
    assert {"type", "title", "detail"} <= set(reply.body)
    assert "Traceback" not in reply.body["detail"]
    return reply.body


# ------------------------------------------------------------------ players and keys

def test_create_player_shows_the_key_once_and_get_me_uses_it(api, store):
    ann = api.signup("Ann")
    assert ann["api_key"].startswith("bl_live_")
    me = api.get("/v1/players/me", key=ann["api_key"])
    assert me.status == 200 and {k: me.body[k] for k in ("id", "name", "email", "created_at")} == {
        k: ann[k] for k in ("id", "name", "email", "created_at")}
    assert me.body["ratings"] == {} and me.body["vacation"]["days_left"] == 14
    assert "api_key" not in me.body


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_api_keys_are_stored_only_hashed(api, store):
    ann = api.signup("Ann")
    scan = store.client.scan(TableName=store.table)["Items"]
    assert ann["api_key"] not in repr(scan)


@pytest.mark.parametrize("header", [None, "Bearer nope", "Basic abc", "Bearer "])
def test_unauthorized_without_a_valid_key(api, header):
    reply = api.get("/v1/players/me", headers={"Authorization": header} if header else {})
    problem_of(reply, 401, "unauthorized")
    assert reply.headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "x" * 65}, {"name": "A", "email": "nope"},
                                  {"name": "A", "extra": 1}, [], "x"])
def test_create_player_refuses_bad_bodies(api, body):
    problem_of(api.post("/v1/players", body), 422, "invalid_request")


def test_bad_json_is_a_400_problem(api):
    problem_of(api.post("/v1/players", raw="{nope"), 400, "invalid_json")
    problem_of(api.post("/v1/players", raw="\xff\xfe"), 400, "invalid_json")


@pytest.mark.parametrize("media_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"])
def test_a_body_that_is_not_json_is_a_415_problem(api, media_type):
    reply = api.post("/v1/players", raw="name=Ann", headers={"Content-Type": media_type})
    problem_of(reply, 415, "unsupported_media_type")


def test_json_with_a_charset_is_accepted(api):
    reply = api.post("/v1/players", {"name": "Ann"}, headers={"Content-Type": "application/json; charset=utf-8"})
    assert reply.status == 201


# ------------------------------------------------------------------ creating and viewing games

def test_create_game_returns_the_creators_view(api, two):
    ann, bob, game = two
    assert game["status"] == "active" and game["version"] == 0
    assert game["you"] == 1 and game["to_move"] == 1 and game["phase"] == "play"
    assert game["seats"] == [{"seat": 1, "player_id": ann["id"], "name": "Ann", "invited": False, "bot": None, "open": False},
                             {"seat": 2, "player_id": bob["id"], "name": "Bob", "invited": False, "bot": None, "open": False}]
    assert len(game["state"]["hand"]) == 7 and game["state"]["hand_sizes"] == {"1": 7, "2": 7}
    assert game["state"]["decks"] == {"troop": 46, "tactics": 10}
    assert game["seed"] == 7  # an explicit seed is shown to all
    plays = [s for s in game["legal_steps"] if s["type"] == "play"]
    assert len(plays) == 7 * 9 and {"type": "resign"} in game["legal_steps"]


def test_a_drawn_seed_stays_secret_until_the_game_ends(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob])
    assert game["seed"] is None
    reply = api.act(bob, game["game_id"], 0, {"type": "resign"})
    assert reply.body["view"]["seed"] is not None


def test_the_same_seed_deals_the_same_game(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    one = api.new_game(ann, [ann, bob], seed=99)
    two = api.new_game(ann, [ann, bob], seed=99)
    assert one["state"]["hand"] == two["state"]["hand"] and one["to_move"] == two["to_move"]


def test_views_are_per_seat_and_spectators_see_no_hand(api, two):
    ann, bob, game = two
    eve = api.signup("Eve")
    mine, theirs = api.view(ann, game["game_id"]), api.view(bob, game["game_id"])
    watcher = api.view(eve, game["game_id"])
    assert mine["you"] == 1 and theirs["you"] == 2 and watcher["you"] is None
    assert not set(mine["state"]["hand"]) & set(theirs["state"]["hand"])
    assert watcher["state"]["hand"] == [] and watcher["legal_steps"] == []
    assert theirs["legal_steps"] == [{"type": "resign"}]  # not bob's turn
    for card in theirs["state"]["hand"]:
        assert card not in repr(mine)


@pytest.mark.parametrize(
    "body, code",
    [
        ({"game": "chess", "seats": []}, "invalid_request"),
        ({"game": "khan", "seats": [{"player_id": "p_x"}, {"player_id": "p_y"}]}, "player_not_found"),
        ({"game": "battleline", "seats": [{"player_id": "ANN"}]}, "invalid_seats"),
        ({"game": "battleline", "seats": [{"player_id": "ANN"}, {"player_id": "ANN"}]}, "invalid_seats"),
        ({"game": "battleline", "seats": [{"player_id": "ANN"}, {"player_id": "p_nobody"}]}, "player_not_found"),
        ({"game": "battleline", "seats": [{"player_id": "ANN"}, {"bot": "stockfish"}]}, "unsupported_seat"),
        ({"game": "battleline", "seats": [{"player_id": "ANN"}, {"player_id": "BOB"}],
          "options": {"claim_timing": "never"}}, "invalid_options"),
        ({"game": "battleline", "seats": [{"player_id": "ANN"}, {"player_id": "BOB"}],
          "options": {"colour": "red"}}, "invalid_options"),
        ({"game": "battleline", "seats": [{"player_id": "ANN"}, {"player_id": "BOB"}], "seed": -1}, "invalid_request"),
    ],
)
def test_create_game_refuses_bad_requests(api, body, code):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    text = repr(body).replace("'ANN'", repr(ann["id"])).replace("'BOB'", repr(bob["id"]))
    problem_of(api.post("/v1/games", eval(text), key=ann["api_key"]), 422, code)


def test_unknown_game_is_404(api):
    ann = api.signup()
    problem_of(api.get("/v1/games/g_nope", key=ann["api_key"]), 404, "game_not_found")
    problem_of(api.get("/v1/games/" + "x" * 3000, key=ann["api_key"]), 404, "game_not_found")
    problem_of(api.get("/v1/games/%C3%A9%20%00", key=ann["api_key"]), 404, "game_not_found")
    problem_of(api.act(ann, "g_nope", 0, {"type": "pass"}), 404, "game_not_found")


# ------------------------------------------------------------------ actions

def test_a_turn_in_one_request_bumps_the_version_once(api, two):
    ann, bob, game = two
    card = game["state"]["hand"][0]
    reply = api.act(ann, game["game_id"], 0, {"type": "play", "card": card, "flag": 5},
                    {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    assert reply.status == 200, reply.body
    assert reply.body["version"] == 1 and reply.body["view"]["version"] == 1
    assert [e["type"] for e in reply.body["events"]] == ["play", "claim", "draw"]
    assert reply.body["events"][2]["data"]["card"] in reply.body["view"]["state"]["hand"]
    assert reply.body["view"]["to_move"] == 2
    assert reply.body["view"]["state"]["flags"][4]["cards"] == [[card], []]


def test_stale_expected_version_is_a_409_with_the_current_version(api, two):
    ann, bob, game = two
    card = game["state"]["hand"][0]
    assert api.act(ann, game["game_id"], 0, {"type": "play", "card": card, "flag": 1}).status == 200
    body = problem_of(api.act(ann, game["game_id"], 0, {"type": "claim", "flags": []}), 409, "version_conflict")
    assert body["current_version"] == 1
    assert api.view(ann, game["game_id"])["version"] == 1


def test_illegal_step_is_a_422_with_a_reason_and_changes_nothing(api, two):
    ann, bob, game = two
    card = game["state"]["hand"][0]
    reply = api.act(ann, game["game_id"], 0, {"type": "play", "card": card, "flag": 1}, {"type": "draw", "deck": "troop"})
    body = problem_of(reply, 422, "illegal_action")
    assert "claim step" in body["detail"] and body["step_index"] == 1
    view = api.view(ann, game["game_id"])
    assert view["version"] == 0 and card in view["state"]["hand"]
    events = api.get(f"/v1/games/{game['game_id']}/events", key=ann["api_key"]).body["events"]
    assert [e["type"] for e in events] == ["game_created"]


def test_refused_claim_carries_the_counterexample(api, two):
    ann, bob, game = two
    gid, hand = game["game_id"], game["state"]["hand"]
    version = 0
    for i, card in enumerate(hand[:3]):
        steps = [{"type": "play", "card": card, "flag": 1}, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}]
        if i == 2:
            steps = steps[:1]
        assert api.act(ann, gid, version, *steps).status == 200
        version += 1
        if i < 2:
            bob_card = api.view(bob, gid)["state"]["hand"][0]
            assert api.act(bob, gid, version, {"type": "play", "card": bob_card, "flag": 9},
                           {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}).status == 200
            version += 1
    body = problem_of(api.act(ann, gid, version, {"type": "claim", "flags": [1]}), 422, "illegal_action")
    assert body["flag"] == 1 and len(body["counterexample"]["cards"]) == 3
    assert "cannot be claimed" in body["detail"]
    # analyzeBattleLine on the same position gives the same counterexample.
    view = api.view(ann, gid)["state"]
    position = {"flags": [{"flag": f["flag"], "cards": f["cards"], "environment": f["environment"],
                           "claimed_by": f["claimed_by"], "first_complete": f["first_complete"]} for f in view["flags"]],
                "discards": [c for pile in view["discards"].values() for c in pile]}
    analysis = api.post("/v1/battleline/analyze", {"position": position, "seat": 1}).body
    assert analysis["flags"][0]["counterexample"] == body["counterexample"]


def test_not_your_turn_is_403(api, two):
    ann, bob, game = two
    problem_of(api.act(bob, game["game_id"], 0, {"type": "pass"}), 403, "not_your_turn")


def test_no_seat_is_403(api, two):
    ann, bob, game = two
    eve = api.signup("Eve")
    problem_of(api.act(eve, game["game_id"], 0, {"type": "resign"}), 403, "not_seated")


@pytest.mark.parametrize(
    "steps, code",
    [
        ([{"type": "play", "card": "7Z", "flag": 1}], "invalid_card"),
        ([{"type": "play", "card": "07R", "flag": 1}], "invalid_card"),
        ([{"type": "teleport"}], "invalid_step"),
        ([{"type": "play", "card": "7R", "flag": 10}], "invalid_step"),
        ([{"type": "claim", "flags": "all"}], "invalid_step"),
        ([], "invalid_request"),
        ("play", "invalid_request"),
    ],
)
def test_malformed_steps_are_422(api, two, steps, code):
    ann, bob, game = two
    reply = api.post(f"/v1/games/{game['game_id']}/actions", {"expected_version": 0, "steps": steps}, key=ann["api_key"])
    problem_of(reply, 422, code)


def test_finished_game_refuses_actions(api, two):
    ann, bob, game = two
    assert api.act(bob, game["game_id"], 0, {"type": "resign"}).body["view"]["result"]["winner"] == 1
    problem_of(api.act(ann, game["game_id"], 1, {"type": "resign"}), 409, "game_finished")


# ------------------------------------------------------------------ idempotency

def test_same_idempotency_key_and_body_applies_once(api, two):
    ann, bob, game = two
    step = {"type": "play", "card": game["state"]["hand"][0], "flag": 2}
    first = api.act(ann, game["game_id"], 0, step, headers={"Idempotency-Key": "k-1"})
    again = api.act(ann, game["game_id"], 0, step, headers={"Idempotency-Key": "k-1"})
    assert first.status == again.status == 200
    assert first.body == again.body
    assert again.headers.get("idempotent-replayed") == "true" and "idempotent-replayed" not in first.headers
    view = api.view(ann, game["game_id"])
    assert view["version"] == 1
    events = api.get(f"/v1/games/{game['game_id']}/events", key=ann["api_key"]).body["events"]
    assert [e["type"] for e in events] == ["game_created", "play"]


def test_same_idempotency_key_with_another_body_is_refused(api, two):
    ann, bob, game = two
    hand = game["state"]["hand"]
    assert api.act(ann, game["game_id"], 0, {"type": "play", "card": hand[0], "flag": 2},
                   headers={"Idempotency-Key": "k-2"}).status == 200
    reply = api.act(ann, game["game_id"], 1, {"type": "claim", "flags": []}, headers={"Idempotency-Key": "k-2"})
    problem_of(reply, 422, "idempotency_key_reused")
    assert api.view(ann, game["game_id"])["version"] == 1


def test_idempotency_keys_are_scoped_per_player(api, two):
    ann, bob, game = two
    key = {"Idempotency-Key": "shared"}
    assert api.act(ann, game["game_id"], 0, {"type": "play", "card": game["state"]["hand"][0], "flag": 2},
                   {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}, headers=key).status == 200
    bob_card = api.view(bob, game["game_id"])["state"]["hand"][0]
    assert api.act(bob, game["game_id"], 1, {"type": "play", "card": bob_card, "flag": 2}, headers=key).status == 200


def test_create_player_and_game_are_idempotent(api):
    key = {"Idempotency-Key": "signup-1"}
    one = api.post("/v1/players", {"name": "Ann"}, headers=key)
    two = api.post("/v1/players", {"name": "Ann"}, headers=key)
    assert one.status == two.status == 201 and one.body == {**two.body, "api_key": one.body["api_key"]}
    assert two.body["api_key"] is None  # the key is shown once: a replay never hands it over
    problem_of(api.post("/v1/players", {"name": "Bob"}, headers=key), 422, "idempotency_key_reused")
    ann, bob = one.body, api.signup("Bob")
    body = {"game": "battleline", "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]}
    g1 = api.post("/v1/games", body, key=ann["api_key"], headers={"Idempotency-Key": "g"})
    g2 = api.post("/v1/games", body, key=ann["api_key"], headers={"Idempotency-Key": "g"})
    assert g1.body["game_id"] == g2.body["game_id"]
    assert len(api.get("/v1/games", key=ann["api_key"]).body["games"]) == 1


@pytest.mark.parametrize("key", ["", "x" * 256, "caf\u00e9"])
def test_invalid_idempotency_keys_are_refused(api, key):
    problem_of(api.post("/v1/players", {"name": "A"}, headers={"Idempotency-Key": key}), 400, "idempotency_key_invalid")


# ------------------------------------------------------------------ lists and events

def test_list_games_filters_by_status_and_my_move(api, two):
    ann, bob, game = two
    other = api.new_game(ann, [ann, bob], options={"first_seat": 2})
    gid = game["game_id"]
    assert {g["game_id"] for g in api.get("/v1/games", key=ann["api_key"]).body["games"]} == {gid, other["game_id"]}
    mine = api.get("/v1/games?to_move=me", key=ann["api_key"]).body["games"]
    assert [g["game_id"] for g in mine] == [gid] and mine[0]["your_turn"]
    theirs = api.get("/v1/games?to_move=me", key=bob["api_key"]).body["games"]
    assert [g["game_id"] for g in theirs] == [other["game_id"]]
    api.act(bob, gid, 0, {"type": "resign"})
    assert [g["game_id"] for g in api.get("/v1/games?status=finished", key=ann["api_key"]).body["games"]] == [gid]
    problem_of(api.get("/v1/games?status=over", key=ann["api_key"]), 422, "invalid_request")


def test_events_show_each_seat_only_its_own_draws(api, two):
    ann, bob, game = two
    gid = game["game_id"]
    reply = api.act(ann, gid, 0, {"type": "play", "card": game["state"]["hand"][0], "flag": 2},
                    {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    drawn = reply.body["events"][-1]["data"]["card"]
    own = api.get(f"/v1/games/{gid}/events", key=ann["api_key"]).body["events"]
    other = api.get(f"/v1/games/{gid}/events", key=bob["api_key"]).body["events"]
    assert own[-1]["data"] == {"deck": "troop", "card": drawn}
    assert other[-1]["data"] == {"deck": "troop"}
    assert [e["seq"] for e in own] == [1, 2, 3, 4]
    after = api.get(f"/v1/games/{gid}/events?after=2", key=bob["api_key"]).body["events"]
    assert [e["seq"] for e in after] == [3, 4]
    problem_of(api.get(f"/v1/games/{gid}/events?after=-1", key=bob["api_key"]), 422, "invalid_request")


def test_a_full_game_through_the_api_reaches_a_result(long_play, api, two):
    ann, bob, game = two
    players = {1: ann, 2: bob}
    choose = random.Random(3)
    gid, view = game["game_id"], game
    for _ in range(600):
        if view["status"] == "finished":
            break
        player = players[view["to_move"]]
        if view.get("you") != view["to_move"]:  # the turn passed: the next seat's view (a move's answer is the mover's)
            view = api.view(player, gid)
        steps = [s for s in view["legal_steps"] if s["type"] != "resign"]
        claims = [s for s in steps if s["type"] == "claim" and s["flags"]]
        reply = api.act(player, gid, view["version"], claims[0] if claims else choose.choice(steps))
        assert reply.status == 200, reply.body
        view = reply.body["view"]
    assert view["status"] == "finished" and view["result"]["winner"] in (1, 2)
    assert view["seed"] == 7
    events = api.get(f"/v1/games/{gid}/events", key=ann["api_key"]).body["events"]
    assert events[-1]["type"] == "game_finished" and events[-1]["version"] == view["version"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


@pytest.mark.parametrize("name", ["\u200b", " \u200b\u200d ", "\u3164", "\u2800\u2800", "\u00ad", "\u034f",
                                  "\u17b5", "\u180e", "\ufe0f", "\U000e0020", "\u0301\u0301", "\u3164\u2800\u00ad"])
def test_a_name_that_shows_nothing_is_blank(api, name):
    """A name of zero-width or blank characters only reads as no name wherever it is shown: refused as blank."""
    problem_of(api.post("/v1/players", {"name": name}), 422, "invalid_request")
    assert api.post("/v1/players", {"name": "Ann\u200b"}).status == 201  # something shows
    assert api.post("/v1/players", {"name": "e\u0301"}).status == 201  # a mark on a letter shows
