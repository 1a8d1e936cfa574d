"""Issue 36 item 6 (the CLI's part): ladders from the terminal: ``battleline ladder show``, ``join`` and
``challenge`` over getLadder, joinLadder and challengeOnLadder, in the player's language."""

from __future__ import annotations


import pytest

from battleline_cli import main
from battleline_cli.client import Client, Failure

from .test_screens import later_position
from .command import run

GAME, _EVENTS = later_position("battleline", 4)


def rung(rank: int, player_id: str, name: str, **more) -> dict:
    return {"rank": rank, "player_id": player_id, "name": name, "rating": 1500, "provisional": True,
            "open_challenges": 0, "joined_at": "2026-11-24T00:00:00.000Z",
            "last_active_at": "2026-11-24T00:00:00.000Z", **more}


@pytest.fixture
def server(monkeypatch):
    """A server with the standing Battle Line ladder (Ann 1st, Bob 2nd, Cat 3rd; Bob's challenge of Ann open)
    that lets Dan (p_dan) join at the bottom and challenge; every request recorded."""
    calls: list[tuple] = []
    players = [rung(1, "p_ann", "Ann", open_challenges=1), rung(2, "p_bob", "Bob", open_challenges=1),
               rung(3, "p_cat", "Cat", provisional=False, rating=1623)]
    challenge = {"game_id": "g_7", "challenger": {"player_id": "p_bob", "name": "Bob", "rank": 2},
                 "challenged": {"player_id": "p_ann", "name": "Ann", "rank": 1},
                 "respond_by": "2026-11-27T09:00:00.000Z", "created_at": "2026-11-24T09:00:00.000Z"}

    def ladder() -> dict:
        return {"id": "battleline", "name": "Battle Line ladder", "game": "battleline", "standing": True,
                "organiser": None, "options": {}, "max_places_above": 5, "max_open_challenges": 3,
                "response_days": 3, "idle_days": 30, "created_at": "2026-11-24T00:00:00.000Z",
                "players": list(players), "challenges": [challenge]}

    class Recorded(Client):
        def call(self, method, path, body=None, *, auth=True):
            calls.append((method, path, body))
            if path == "/v1/players/me/preferences":
                return {"language": "en"}
            if path == "/v1/players/me":
                return {"id": "p_dan", "name": "Dan"}
            if (method, path) == ("GET", "/v1/ladders/battleline"):
                return ladder()
            if (method, path) == ("POST", "/v1/ladders/battleline/join"):
                players.append(rung(4, "p_dan", "Dan"))
                return ladder()
            if (method, path) == ("POST", "/v1/ladders/battleline/challenges"):
                if body["player_id"] == "p_ann":
                    raise Failure("Ann is 3 places above you: you may challenge at most 2 above (too_far_above)")
                them = next(p for p in players if p["player_id"] == body["player_id"])
                return {"game_id": "g_1", "challenger": {"player_id": "p_dan", "name": "Dan", "rank": 4},
                        "challenged": {"player_id": them["player_id"], "name": them["name"], "rank": them["rank"]},
                        "respond_by": "2026-11-27T09:00:00.000Z", "created_at": "2026-11-24T09:00:00.000Z",
                        "game": {**GAME, "status": "waiting"}}
            raise Failure(f"not found: {method} {path} (ladder_not_found)")

    monkeypatch.setattr(main, "Client", Recorded)
    return calls


def test_item_6_ladder_show_lists_the_players_top_first_and_the_open_challenges(server, monkeypatch, capsys):
    status, out, err = run(["ladder", "show"], monkeypatch, capsys)  # no key needed: a ladder is public
    assert (status, err) == (0, "")
    shown = out.splitlines()
    assert shown[0] == ("Battle Line ladder (Battle Line): challenge up to 5 places above you, 3 open challenges at "
                        "most, 3 days to accept.")
    assert [line.split()[:2] for line in shown[2:5]] == [["1.", "Ann"], ["2.", "Bob"], ["3.", "Cat"]]
    assert "1,623" in shown[4] and "provisional" not in shown[4] and "1 open challenge" in shown[2]
    assert "Bob challenges Ann: game g_7, to be accepted by" in out
    assert server[0] == ("GET", "/v1/ladders/battleline", None)


def test_item_6_ladder_join_then_challenge_by_place_and_a_refusal_in_one_line(server, monkeypatch, capsys):
    status, out, _err = run(["--key", "k", "ladder", "join"], monkeypatch, capsys)
    assert status == 0 and out.splitlines()[0] == "You are on Battle Line ladder: number 4 of 4."
    assert "battleline ladder challenge PLAYER --ladder battleline" in out
    status, out, _err = run(["--key", "k", "ladder", "show"], monkeypatch, capsys)
    assert "Dan (you)" in out
    status, out, _err = run(["--key", "k", "ladder", "challenge", "2"], monkeypatch, capsys)
    assert status == 0 and out.startswith("You challenged Bob (number 2): game g_1. They accept by ")
    assert ("POST", "/v1/ladders/battleline/challenges", {"player_id": "p_bob"}) in server
    status, _out, err = run(["--key", "k", "ladder", "challenge", "p_ann"], monkeypatch, capsys)
    assert status == 1 and err.count("\n") == 1 and "too_far_above" in err
    status, _out, err = run(["--key", "k", "ladder", "challenge", "9"], monkeypatch, capsys)
    assert status == 1 and "nobody is number 9 on Battle Line ladder" in err


@pytest.mark.parametrize("language, first", [
    ("zh-Hans", "你已加入Battle Line ladder：第4名，共4人。"),
    ("ja", "Battle Line ladder に参加しました。4人中4位です。"),
    ("vi", "Bạn đã vào Battle Line ladder: hạng 4 trên 4."),
])
def test_item_6_the_ladder_commands_speak_the_players_language(server, monkeypatch, capsys, language, first):
    status, out, _err = run(["--key", "k", "--language", language, "ladder", "join"], monkeypatch, capsys)
    assert status == 0 and out.splitlines()[0] == first
    status, out, _err = run(["--key", "k", "--language", language, "ladder", "show"], monkeypatch, capsys)
    assert status == 0 and "challenge up to" not in out and "Open challenges" not in out
