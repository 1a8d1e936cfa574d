"""``battleline tournament list, show, join, withdraw`` against the real API (chalice's test client on the
store): an organiser's Swiss listed, entered, shown with its standings and the round's pairings (the
player's own game named, to play it with ``battleline show``), and left after a question."""

from __future__ import annotations

import pytest

from battleline_cli import main
from battleline_cli.client import Client, Failure

from .command import run


@pytest.fixture
def served(api, monkeypatch):
    """The command line's Client sends its calls to ``api``; the players Ann (the organiser), Bob, Cat."""

    class Served(Client):
        def call(self, method, path, body=None, *, auth=True):
            reply = api.request(method, path, body, key=self.key if auth else None)
            if reply.status >= 400:
                raise Failure(f"{reply.body.get('detail')} ({reply.body['code']})")
            return reply.body

    monkeypatch.setattr(main, "Client", Served)
    people = {name: api.signup(name) for name in ("Ann", "Bob", "Cat")}
    made = api.post("/v1/tournaments", {"name": "Autumn Swiss", "game": "battleline", "format": "swiss",
                                        "rounds": 2}, key=people["Ann"]["api_key"])
    assert made.status == 201, made.body
    return api, people, made.body["id"]


def cli(args, key, monkeypatch, capsys, stdin=""):
    return run(["--key", key, *args], monkeypatch, capsys, stdin=stdin)


def test_a_player_lists_enters_and_follows_a_tournament_from_the_command_line(served, monkeypatch, capsys):
    api, people, tid = served
    bob = people["Bob"]["api_key"]
    status, out, err = cli(["tournament", "list"], bob, monkeypatch, capsys)
    assert (status, err) == (0, "")
    assert f"{tid}  Autumn Swiss  Battle Line, Swiss: open for entry, 0 players" in out
    assert "battleline tournament join TOURNAMENT" in out

    for name in ("Ann", "Bob", "Cat"):
        assert cli(["tournament", "join", tid], people[name]["api_key"], monkeypatch, capsys)[0] == 0
    status, out, _ = cli(["tournament", "show", tid], bob, monkeypatch, capsys)
    assert "3 players entered: Ann, Bob (you), Cat" in out and "battleline tournament withdraw" in out

    assert api.post(f"/v1/tournaments/{tid}/start", key=people["Ann"]["api_key"]).status == 200
    status, out, _ = cli(["tournament", "show", tid], bob, monkeypatch, capsys)
    shown = out.splitlines()
    assert shown[0] == "Autumn Swiss (Battle Line, Swiss): round 1 of 2"
    assert [line.split(".")[0].strip() for line in shown[3:6]] == ["1", "2", "3"]
    assert any("Bob (you)" in line for line in shown[3:6])
    assert "BH-C1: Buchholz Cut-1; then BH" in out
    view = api.get(f"/v1/tournaments/{tid}").body
    bobs = next(p for p in view["pairings"] if people["Bob"]["id"] in
                (p["first"]["player_id"], (p["second"] or {}).get("player_id")))
    if bobs["second"] is None:
        assert "Bob (you), a bye" in out
    else:
        assert f"Your game: battleline show {bobs['game_ids'][0]}" in out
        assert "being played" in out
    assert "a bye" in out  # three players: one of them sits out the round
    assert f"/v1/tournaments/{tid}/standings" in out


def test_withdrawing_asks_first_and_a_no_keeps_the_player_in(served, monkeypatch, capsys):
    api, people, tid = served
    cat = people["Cat"]["api_key"]
    cli(["tournament", "join", tid], cat, monkeypatch, capsys)
    status, out, err = cli(["tournament", "withdraw", tid], cat, monkeypatch, capsys, stdin="n\n")
    assert status == 1 and "Withdraw from Autumn Swiss?" in out and "still in" in err
    assert not api.get(f"/v1/tournaments/{tid}").body["players"][0]["withdrawn"]
    status, out, _ = cli(["tournament", "withdraw", tid], cat, monkeypatch, capsys, stdin="yes\n")
    assert status == 0 and "You withdrew from Autumn Swiss." in out
    assert all(p["withdrawn"] or p["player_id"] != people["Cat"]["id"]
               for p in api.get(f"/v1/tournaments/{tid}").body["players"])
    status, out, err = cli(["tournament", "withdraw", tid], cat, monkeypatch, capsys, stdin="yes\n")
    assert status == 1 and "you are not in Autumn Swiss" in err and "Withdraw from" not in out  # not asked


def test_an_empty_list_says_so_and_a_usage_mistake_gets_the_usage(served, monkeypatch, capsys):
    _api, people, _tid = served
    status, out, _ = cli(["tournament", "list", "--status", "finished"], people["Ann"]["api_key"], monkeypatch, capsys)
    assert status == 0 and out.strip() == "No tournament here is finished."
    status, _out, err = cli(["tournament", "show"], people["Ann"]["api_key"], monkeypatch, capsys)
    assert status == 2 and "Usage" in err
