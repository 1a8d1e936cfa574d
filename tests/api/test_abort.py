"""Issue 34, item 5: who may call a game off before its first move (abortGame): its creator, seated
or not (as a challenger cancels a challenge on Lichess), and any seated player; nobody else, and
nobody once a move was made."""

from __future__ import annotations


def made_for_others(api):
    """Ann makes a game for Bob and Cat without a seat of her own; it waits for their answers."""
    ann, bob, cat, dan = (api.signup(name) for name in ("Ann", "Bob", "Cat", "Dan"))
    reply = api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": bob["id"]}, {"player_id": cat["id"]}]},
                     key=ann["api_key"])
    assert reply.status == 201, reply.body
    return ann, bob, cat, dan, reply.body["game_id"]


def test_item5_the_creator_without_a_seat_may_abort_before_the_first_move(api):
    ann, bob, _cat, _dan, game_id = made_for_others(api)
    reply = api.post(f"/v1/games/{game_id}/abort", key=ann["api_key"])
    assert reply.status == 200 and reply.body["status"] == "finished" and reply.body["result"]["reason"] == "aborted"
    assert api.view(bob, game_id)["status"] == "finished"


def test_item5_any_seated_player_may_abort_before_the_first_move(api):
    _ann, _bob, cat, _dan, game_id = made_for_others(api)
    reply = api.post(f"/v1/games/{game_id}/abort", key=cat["api_key"])
    assert reply.status == 200 and reply.body["result"]["reason"] == "aborted"


def test_item5_a_player_neither_seated_nor_the_creator_may_not_abort(api):
    _ann, bob, _cat, dan, game_id = made_for_others(api)
    reply = api.post(f"/v1/games/{game_id}/abort", key=dan["api_key"])
    assert reply.status == 403 and reply.body["code"] == "not_seated"
    assert api.view(bob, game_id)["status"] == "waiting"


def test_item5_after_the_first_move_neither_the_creator_nor_a_seat_may_abort(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    assert api.act(ann, game["game_id"], 0, step).status == 200
    for player in (ann, bob):
        reply = api.post(f"/v1/games/{game['game_id']}/abort", key=player["api_key"])
        assert reply.status == 409 and reply.body["code"] == "game_started"
