"""Bots as seat players through the API: seated with {"bot": name}, moving from the outbox
worker (never inside another player's request), through the same engine, unrated."""

from __future__ import annotations

import pytest


def bot_game(api, player, bot="greedy", game="battleline", seat=2, **options):
    seats = [{"player_id": player["id"]}, {"bot": bot}]
    if seat == 1:
        seats.reverse()
    reply = api.post("/v1/games", {"game": game, "seats": seats, "options": {"first_seat": 1, **options}},
                     key=player["api_key"])
    assert reply.status == 201, reply.body
    return reply.body


def test_a_bot_moves_from_the_outbox_after_the_players_move(api, services):
    ann = api.signup("Ann")
    game = bot_game(api, ann)
    assert game["seats"][1] == {"seat": 2, "player_id": None, "name": "greedy bot", "invited": False, "bot": "greedy", "open": False}
    assert game["rated"] is False
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    view = api.act(ann, game["game_id"], 0, step, {"type": "claim", "flags": []},
                   {"type": "draw", "deck": "troop"}).body["view"]
    assert view["to_move"] == 2 and view["version"] == 1  # the request did not play the bot's turn
    services.dispatcher.drain_outbox()  # the worker (or the stream consumer) does
    view = api.view(ann, game["game_id"])
    assert view["version"] == 2 and view["to_move"] == 1
    events = api.get(f"/v1/games/{game['game_id']}/events?after=0", key=ann["api_key"]).body["events"]
    assert [e["seat"] for e in events if e["version"] == 2] and all(e["seat"] == 2 for e in events if e["version"] == 2)


def test_a_bot_that_starts_moves_once_the_game_is_made(api, services):
    ann = api.signup("Ann")
    game = bot_game(api, ann, bot="random", seat=1)
    assert game["to_move"] == 1 and game["you"] == 2
    services.dispatcher.drain_outbox()
    assert api.view(ann, game["game_id"])["to_move"] == 2


def test_two_bots_play_a_whole_game_through_the_outbox(api, services):
    ann = api.signup("Ann")
    game = api.post("/v1/games", {"game": "battleline", "seats": [{"bot": "greedy"}, {"bot": "random"}]},
                    key=ann["api_key"]).body
    for _ in range(200):
        if not services.dispatcher.drain_outbox():
            break
    view = api.get(f"/v1/games/{game['game_id']}", key=ann["api_key"]).body
    assert view["status"] == "finished" and view["result"]["winner"] in (1, 2)


def test_a_khan_bot_plays_its_turns_and_its_reactions(api, services):
    ann = api.signup("Ann")
    game = bot_game(api, ann, game="khan", seat=2)
    gid = game["game_id"]
    assert api.act(ann, gid, 0, {"type": "place", "unit": "heavy_cavalry"}).status == 200
    services.dispatcher.drain_outbox()
    view = api.view(ann, gid)
    assert view["state"]["round"] == 1 and view["to_move"] == 1 and len(view["state"]["field"]) == 2
    reply = api.act(ann, gid, view["version"], {"type": "end_action"}, {"type": "end_turn"})
    assert reply.status == 200, reply.body
    services.dispatcher.drain_outbox()
    view = api.view(ann, gid)
    assert view["to_move"] == 1 and view["state"]["round"] == 2  # the bot played its whole turn


def test_the_khan_mcts_bot_takes_a_seat_and_plays(api, services):
    ann = api.signup("Ann")
    game = bot_game(api, ann, bot="mcts", game="khan", seat=1)
    assert game["seats"][0]["bot"] == "mcts" and game["to_move"] == 1
    services.dispatcher.drain_outbox()
    view = api.view(ann, game["game_id"])
    assert view["to_move"] == 2 and len(view["state"]["field"]) == 1  # it placed its first unit


@pytest.mark.parametrize("game, bot", [("battleline", "alphazero"), ("khan", "alphazero")])
def test_an_unknown_bot_is_refused(api, game, bot):
    ann = api.signup("Ann")
    reply = api.post("/v1/games", {"game": game, "seats": [{"player_id": ann["id"]}, {"bot": bot}]},
                     key=ann["api_key"])
    assert reply.status == 422 and reply.body["code"] == "unsupported_seat" and "there are" in reply.body["detail"]


def test_a_bots_turn_message_that_comes_late_or_twice_changes_nothing(api, services):
    from chalicelib.notify.messages import BOT_TURN, Message

    ann = api.signup("Ann")
    game = bot_game(api, ann, bot="random", seat=1)
    message = Message("m", BOT_TURN, "", {"game_id": game["game_id"], "seat": 1, "version": 0}, "now")
    assert services.bots.play_bot(message) is not None
    assert services.bots.play_bot(message) is None  # the game has moved on
    assert api.view(ann, game["game_id"])["version"] == 1
