"""Talk (issue 18): a short message goes with a move; the other seats read it in their view and
events, a spectator never, and a player who turned messages off neither."""

import pytest

from .test_contract import problem_of

PREFS = "/v1/players/me/preferences"


def post(api, player, game_id, version, steps, **extra):
    return api.post(f"/v1/games/{game_id}/actions", {"expected_version": version, "steps": steps, **extra},
                    key=player["api_key"])


def first_play(view):
    return next(s for s in view["legal_steps"] if s["type"] == "play")


def events(api, player, game_id):
    reply = api.get(f"/v1/games/{game_id}/events", key=player["api_key"])
    assert reply.status == 200, reply.body
    return reply.body["events"]


def said(api, player, game_id):
    return [e for e in events(api, player, game_id) if e["type"] == "message"]


@pytest.fixture
def table(api):
    ann, bob, eve = api.signup("Ann"), api.signup("Bob"), api.signup("Eve")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1}, public=True)
    return ann, bob, eve, game


def test_a_message_goes_with_a_move_and_the_opponent_reads_it(api, table):
    ann, bob, eve, game = table
    gid = game["game_id"]
    reply = post(api, ann, gid, 0, [first_play(game)], message="Good luck, Bob! \u00e9\u00e8 \u4f60\u597d")
    assert reply.status == 200, reply.body
    assert reply.body["events"][-1]["type"] == "message"
    assert reply.body["events"][-1]["data"] == {"text": "Good luck, Bob! \u00e9\u00e8 \u4f60\u597d"}
    bob_view = api.view(bob, gid)
    assert [(m["seat"], m["name"], m["text"]) for m in bob_view["messages"]] == [
        (1, "Ann", "Good luck, Bob! \u00e9\u00e8 \u4f60\u597d")]
    assert [e["data"]["text"] for e in said(api, bob, gid)] == ["Good luck, Bob! \u00e9\u00e8 \u4f60\u597d"]
    assert api.view(ann, gid)["messages"][0]["text"].startswith("Good luck")  # the sender reads their own


def test_a_message_never_reaches_a_spectator_or_a_webhook_payload(api, table, services):
    ann, bob, eve, game = table
    gid = game["game_id"]
    assert post(api, ann, gid, 0, [first_play(game)], message="secret plan: flag 5").status == 200
    assert api.view(eve, gid)["messages"] == []
    assert all(e["type"] != "message" for e in events(api, eve, gid))
    assert "secret plan" not in str(api.get(f"/v1/games/{gid}/events", key=eve["api_key"]).body)
    stored = services.store.list_events(gid)
    message = next(e for e in stored if e.type == "message")
    assert message.data == {} and message.seen_by(None)["data"] == {}  # the text is the seats' own
    from chalicelib.notify.messages import for_action
    game_record = services.games.moves.load(gid)[0]
    payloads = for_action(game_record, game_record, stored)
    assert "secret plan" not in str([m.data for m in payloads])
    assert services.games.replayed_state(gid) == game_record.state  # a message is no step: the game replays


@pytest.mark.parametrize("message, why", [
    ("", "blank"), ("   ", "blank"), ("x" * 501, "long"), ("line\nbreak", "control"), ("tab\there", "control"),
    ("nul\u0000", "control"), ("\u202eevil", "bidi"), (5, "type"), (None, "null is left out"),
])
def test_a_bad_message_is_refused_and_nothing_is_played(api, table, message, why):
    ann, bob, eve, game = table
    gid = game["game_id"]
    reply = post(api, ann, gid, 0, [first_play(game)], message=message)
    if message is None:  # null: as if no message was sent
        assert reply.status == 200 and all(e["type"] != "message" for e in reply.body["events"])
        return
    problem_of(reply, 422, "invalid_request")
    assert "message" in reply.body["detail"]
    assert api.view(ann, gid)["version"] == 0


def test_five_hundred_characters_are_enough(api, table):
    ann, bob, eve, game = table
    text = "\u4f60" * 500
    assert post(api, ann, game["game_id"], 0, [first_play(game)], message=text).status == 200
    assert api.view(bob, game["game_id"])["messages"][0]["text"] == text


def test_messages_off_hides_them_from_view_and_events_but_sending_still_works(api, table):
    ann, bob, eve, game = table
    gid = game["game_id"]
    turned = api.request("PUT", PREFS, {"messages": False}, key=bob["api_key"])
    assert turned.status == 200 and turned.body["messages"] is False
    assert post(api, ann, gid, 0, [first_play(game)], message="can you read me?").status == 200
    assert api.view(bob, gid)["messages"] == [] and said(api, bob, gid) == []
    assert [m["text"] for m in api.view(ann, gid)["messages"]] == ["can you read me?"]
    # Bob may still send one (Ann reads it), though he reads none
    view = api.view(bob, gid)
    steps = [s for s in view["legal_steps"] if s["type"] != "resign"]
    assert view["to_move"] == 1 or steps  # Ann's turn is not over until she claims and draws
    ann_view = api.view(ann, gid)
    for kind in ("claim", "draw"):
        step = next(s for s in ann_view["legal_steps"] if s["type"] == kind)
        assert post(api, ann, gid, ann_view["version"], [step]).status == 200
        ann_view = api.view(ann, gid)
    bob_view = api.view(bob, gid)
    assert post(api, bob, gid, bob_view["version"], [first_play(bob_view)], message="yes, but I will not answer").status == 200
    assert [m["text"] for m in api.view(ann, gid)["messages"]] == ["can you read me?", "yes, but I will not answer"]
    assert api.view(bob, gid)["messages"] == []
    # on again: they are there
    assert api.request("PUT", PREFS, {"messages": True}, key=bob["api_key"]).status == 200
    assert len(api.view(bob, gid)["messages"]) == 2 and len(said(api, bob, gid)) == 2


def test_preferences_left_out_keep_their_value(api):
    ann = api.signup("Ann")
    defaults = api.get(PREFS, key=ann["api_key"]).body
    assert defaults["messages"] is True
    assert api.request("PUT", PREFS, {"messages": False}, key=ann["api_key"]).body == {**defaults, "messages": False}
    # an older client sends only what it knows: the newer setting stays
    older = {"email": ["game.finished"], "webhook": ["game.your_turn"]}
    assert api.request("PUT", PREFS, older, key=ann["api_key"]).body == {**defaults, **older, "messages": False}
    kept = {**defaults, "email": ["game.finished"], "webhook": [], "messages": False}
    assert api.request("PUT", PREFS, {"webhook": []}, key=ann["api_key"]).body == kept
    assert api.request("PUT", PREFS, {}, key=ann["api_key"]).body == kept
    assert api.get(PREFS, key=ann["api_key"]).body == kept
    for bad in ({"messages": None}, {"email": None}, {"messages": "no"}, {"messages": 0}, {"colour": "red"}):
        problem_of(api.request("PUT", PREFS, bad, key=ann["api_key"]), 422, "invalid_request")
    assert api.get(PREFS, key=ann["api_key"]).body["messages"] is False


def test_old_messages_leave_the_view_but_stay_in_the_events(api, table):
    ann, bob, eve, game = table
    gid = game["game_id"]
    assert post(api, ann, gid, 0, [first_play(game)], message="early words").status == 200
    # play on until the message is more than 40 events back
    view = api.view(ann, gid)
    while view["status"] == "active" and view["messages"]:
        mover = ann if view["to_move"] == 1 else bob
        seat_view = api.view(mover, gid)
        step = next(s for s in seat_view["legal_steps"] if s["type"] != "resign")
        assert post(api, mover, gid, seat_view["version"], [step]).status == 200
        view = api.view(ann, gid)
    assert view["messages"] == [] and [e["data"]["text"] for e in said(api, bob, gid)] == ["early words"]


def board_path(api, player, game_id, what="view"):
    from .test_board import path_of

    url = api.get(f"/v1/games/{game_id}/board-link", key=player["api_key"]).body["url"]
    return path_of(url).replace("/board?", f"/board/{what}?")


def test_the_board_sends_a_message_and_shows_the_opponents_but_not_to_a_spectator(api, table):
    ann, bob, eve, game = table
    gid = game["game_id"]
    steps_path = board_path(api, ann, gid, "steps")
    turn = [first_play(game), {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}]
    played = api.post(steps_path, {"expected_version": 0, "steps": turn, "message": "<i>hi</i> Bob"})
    assert played.status == 200, played.body
    assert played.body["messages"] == []  # her own message is not news to her
    assert [(line["said_by"], line["text"]) for line in played.body["log"] if line.get("said_by")] == [
        ("Ann", "<i>hi</i> Bob")]
    bob_board = api.get(board_path(api, bob, gid)).body
    assert [(m["name"], m["text"]) for m in bob_board["messages"]] == [("Ann", "<i>hi</i> Bob")]
    assert any(line.get("said_by") == "Ann" for line in bob_board["log"])
    page = api.get(board_path(api, bob, gid).replace("/board/view?", "/board?")).body
    assert "<i>hi</i>" not in page and "\\u003ci\\u003ehi" in page  # in the page's JSON, escaped
    watcher = api.get(f"/v1/games/{gid}/board/view").body
    assert watcher["messages"] == [] and not any(line.get("said_by") for line in watcher["log"])
    assert "hi</i> Bob" not in str(watcher)
    # a bad message on the board: refused, nothing played
    view = api.view(bob, gid)
    reply = api.post(board_path(api, bob, gid, "steps"), {"expected_version": view["version"],
                                                          "step": first_play(view), "message": "a\u0007b"})
    problem_of(reply, 422, "invalid_request")
    assert api.view(bob, gid)["version"] == view["version"]
    # Bob turns messages off: his board shows none
    assert api.request("PUT", PREFS, {"messages": False}, key=bob["api_key"]).status == 200
    bob_board = api.get(board_path(api, bob, gid)).body
    assert bob_board["messages"] == [] and not any(line.get("said_by") for line in bob_board["log"])
