"""Issue 23: game records (getGameRecord, listGameRecords; docs/records.md) and ``battleline verify``
on real games through the API: the record's shape for both games, running and finished; a seat's
record before the end holds nothing of the other seat's hand or draws, nor the seed or salt (scanned
like tests/mailplay/test_hidden_information.py, whose HIDDEN_INFO_SEED picks the deal here too);
NDJSON and cursors; a finished game verifies with the local engine, and the CLI says so."""

from __future__ import annotations

import json
import os
import random
import re
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from battleline_cli import main
from battleline_cli.client import Client, Failure
from chalicelib.gamerecord import verify
from chalicelib.games.battleline import notation
from tests.mailplay.test_hidden_information import STEP_WORDS, cards_named, ids_in

RFC3339_Z = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")
RECORD_KEYS = {"format", "game_id", "game", "rules_version", "card_set", "status", "options", "time_control", "rated",
               "tournament_id", "players", "you", "created_at", "finished_at", "result", "deal_commitment", "seed",
               "deal_salt", "complete", "start", "moves", "notation"}
MOVE_KEYS = {"version", "seat", "kind", "steps", "events", "at", "clock_used_seconds"}


def record(api, player, game_id: str) -> dict:
    reply = api.get(f"/v1/games/{game_id}/record", key=player["api_key"])
    assert reply.status == 200, reply.body
    return reply.body


def new(api, game: str, *players, **extra) -> str:
    ann, bob = players
    chosen = os.environ.get("HIDDEN_INFO_SEED")
    options = {"first_seat": 1, **extra.pop("options", {})}
    return api.new_game(ann, [ann, bob], game=game, options=options,
                        **({"seed": int(chosen)} if chosen else {}), **extra)["game_id"]


def play(api, players: dict, game_id: str, steps: int, rng: random.Random) -> dict:
    """Up to ``steps`` random legal steps (no resignation) by the seat to move; the last view."""
    view = api.view(players[1], game_id)
    for _ in range(steps):
        if view["status"] != "active":
            break
        if view["to_move"] != view["you"]:  # the turn passed: the next seat's view (a move's answer is the mover's)
            view = api.view(players[view["to_move"]], game_id)
        choices = [s for s in view["legal_steps"] if s["type"] not in ("resign", "offer_draw")]
        reply = api.act(players[view["you"]], game_id, view["version"], rng.choice(choices))
        assert reply.status == 200, reply.body
        view = reply.body["view"]
    return view


@pytest.mark.parametrize("game", ["battleline", "khan"])
def test_a_record_has_the_documented_shape_running_and_finished(api, game):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = new(api, game, ann, bob, options={"time_control": {"per_move_days": 3}})
    play(api, {1: ann, 2: bob}, gid, 6, random.Random(1))
    running = record(api, ann, gid)
    assert set(running) == RECORD_KEYS and running["format"] == "game-record/1"
    assert running["rules_version"] == f"{game}/1" and running["status"] == "active" and not running["complete"]
    assert running["seed"] is None and running["deal_salt"] is None and running["finished_at"] is None
    assert running["time_control"]["per_move_days"] == 3 and "time_control" not in running["options"]
    assert [p["name"] for p in running["players"]] == ["Ann", "Bob"] and running["you"] == 1
    if game == "khan":
        assert set(running["card_set"]) == {"id", "version", "digest"}
    else:
        assert running["card_set"] is None
    assert [m["version"] for m in running["moves"]] == list(range(1, api.view(ann, gid)["version"] + 1))
    for move in running["moves"]:
        assert set(move) == MOVE_KEYS and RFC3339_Z.fullmatch(move["at"]) and move["kind"] == "steps"
        assert move["steps"] and move["seat"] in (1, 2)
        assert move["clock_used_seconds"] is None or move["clock_used_seconds"] >= 0
    assert any(m["clock_used_seconds"] is not None for m in running["moves"])
    version = api.view(ann, gid)["version"]
    api.act(bob, gid, version, {"type": "resign"})
    done = record(api, bob, gid)
    assert done["status"] == "finished" and done["complete"] and done["finished_at"] == done["moves"][-1]["at"]
    assert done["result"]["winner"] == 1 and done["seed"] is not None and done["deal_salt"]
    assert done["moves"][-1]["steps"] == [{"type": "resign"}] and done["moves"][-1]["seat"] == 2
    assert verify.commitment(gid, done["seed"], done["deal_salt"]) == done["deal_commitment"]
    assert record(api, ann, gid)["start"] == done["start"]  # everything, to every reader, once over


@pytest.mark.parametrize("game", ["battleline", "khan"])
def test_a_seats_record_before_the_end_never_holds_the_other_seats_cards_nor_the_seed(api, services, game):
    ann, bob, eve = api.signup("Ann"), api.signup("Bob"), api.signup("Eve")
    gid = new(api, game, ann, bob, public=True)
    players, rng, known = {1: ann, 2: bob}, random.Random(23), cards_named(game)
    scanned = 0
    for _ in range(4):
        if play(api, players, gid, 4, rng)["status"] != "active":
            break
        stored = services.moves.find(gid)
        for seat, reader in ((1, ann), (2, bob), (None, eve)):
            text = json.dumps(record(api, reader, gid))
            view = services.games.view(stored, seat)
            told = [e.seen_by(seat) for e in services.store.list_events(gid)]
            visible = ids_in(view, known) | ids_in(told, known)
            hidden = ids_in(stored.state, known) - visible - STEP_WORDS
            leaked = ids_in(json.loads(text), known) & hidden
            assert not leaked, f"seat {seat}'s record shows {leaked} (seed {stored.seed})"
            assert stored.deal_salt not in text and f'"seed": {stored.seed}' not in text
            scanned += 1
    assert scanned >= 6


def test_a_spectators_record_shows_no_draw_and_another_seats_step_loses_what_only_it_sees(api):
    ann, bob, eve = api.signup("Ann"), api.signup("Bob"), api.signup("Eve")
    gid = new(api, "battleline", ann, bob, public=True)
    play(api, {1: ann, 2: bob}, gid, 6, random.Random(3))
    watched, own = record(api, eve, gid), record(api, ann, gid)
    draws = [e for m in watched["moves"] for e in m["events"] if e["type"] == "draw"]
    assert draws and all("card" not in e["data"] for e in draws) and watched["start"]["hand"] == []
    mine = [e for m in own["moves"] for e in m["events"] if e["type"] == "draw" and e["seat"] == 1]
    assert mine and all("card" in e["data"] for e in mine) and own["start"]["hand"]
    theirs = [e for m in own["moves"] for e in m["events"] if e["type"] == "draw" and e["seat"] == 2]
    assert all("card" not in e["data"] for e in theirs)


def told(done: dict) -> list[dict]:
    """The moves a record's notation tells: its ``steps`` moves, each seat and steps."""
    return [{"seat": m["seat"], "steps": m["steps"]} for m in done["moves"] if m["kind"] == "steps"]


def scouting(view: dict, rng: random.Random) -> dict:
    """A step that brings Scout into play soon: Scout itself, its draws and return, a tactics draw."""
    choices = [s for s in view["legal_steps"] if s["type"] not in ("resign", "offer_draw")]
    for wanted in (lambda s: s.get("card") == "SCOUT", lambda s: s["type"] in ("scout_draw", "scout_return"),
                   lambda s: s["type"] == "draw" and s["deck"] == "tactics"):
        if found := [s for s in choices if wanted(s)]:
            return rng.choice(found)
    return rng.choice(choices)


def test_a_battle_line_record_tells_its_game_in_notation_that_reads_back_to_its_steps(api):
    """The record's ``notation`` (docs/notation.md) reads back to the record's steps, version by
    version; while the game runs, another seat's Scout return is ``return:?`` to each seat and to a
    spectator (never its cards), and the Result tag is ``*``; once over, every card and the result."""
    ann, bob, eve = api.signup("Ann"), api.signup("Bob"), api.signup("Eve")
    gid = api.new_game(ann, [ann, bob], options={"first_seat": 1}, seed=5, public=True)["game_id"]
    players, rng = {1: ann, 2: bob}, random.Random(5)
    view = api.view(ann, gid)
    for _ in range(80):
        if any(s["type"] == "scout_return" for m in record(api, eve, gid)["moves"] for s in m["steps"]):
            break
        view = api.view(players[view["to_move"]], gid)
        reply = api.act(players[view["you"]], gid, view["version"], scouting(view, rng))
        assert reply.status == 200, reply.body
        view = reply.body["view"]
    scout_seat = next(m["seat"] for m in record(api, eve, gid)["moves"]
                      if any(s["type"] == "scout_return" for s in m["steps"]))
    for seat, reader in ((1, ann), (2, bob), (None, eve)):
        running = record(api, reader, gid)
        assert '[Result "*"]' in running["notation"] and '[S1 "Ann"]' in running["notation"]
        assert notation.read(running["notation"]) == told(running)
        mine = seat == scout_seat
        assert ("return:?" in running["notation"]) is not mine, (seat, running["notation"])
    api.act(players[view["to_move"]], gid, view["version"], {"type": "resign"})
    done = record(api, eve, gid)
    assert "return:?" not in done["notation"] and f'[Game "{gid}"]' in done["notation"]
    assert notation.read(done["notation"]) == told(done) and done["notation"].rstrip().endswith("resign")
    loser = 3 - done["result"]["winner"]
    assert f'[Result "S{done["result"]["winner"]} (resign)"]' in done["notation"] and told(done)[-1]["seat"] == loser


def test_a_khan_record_has_no_notation(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = new(api, "khan", ann, bob)
    assert record(api, ann, gid)["notation"] is None


def test_a_duplicate_board_in_play_refuses_its_record_to_anyone_but_its_seats(api, services, monkeypatch):
    ann, bob, eve = api.signup("Ann"), api.signup("Bob"), api.signup("Eve")
    gid = new(api, "battleline", ann, bob, public=True)
    real = services.store.game_history

    def as_board(game_id):
        return [(replace(g, seed_withheld=True, tournament_id="t_x"), e) for g, e in real(game_id)]

    monkeypatch.setattr(services.store, "game_history", as_board)
    reply = api.get(f"/v1/games/{gid}/record", key=eve["api_key"])
    assert reply.status == 403 and reply.body["code"] == "board_in_play"
    assert record(api, ann, gid)["you"] == 1


def test_an_unknown_game_has_no_record(api):
    ann = api.signup("Ann")
    for gid in ("g_nothere", "not a game id!"):
        reply = api.get(f"/v1/games/{gid}/record", key=ann["api_key"])
        assert reply.status == 404 and reply.body["code"] == "game_not_found"


def test_list_game_records_gives_finished_games_newest_first_in_pages_and_as_ndjson(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    finished = []
    for _ in range(3):
        gid = new(api, "battleline", ann, bob)
        api.act(bob, gid, 0, {"type": "resign"})
        finished.insert(0, gid)
    new(api, "battleline", ann, bob)  # in play: not listed
    first = api.get("/v1/players/me/records?limit=2", key=ann["api_key"]).body
    assert [r["game_id"] for r in first["records"]] == finished[:2] and first["next_cursor"]
    assert all(r["complete"] and r["you"] == 1 for r in first["records"])
    rest = api.get(f"/v1/players/me/records?limit=2&cursor={first['next_cursor']}", key=ann["api_key"]).body
    assert [r["game_id"] for r in rest["records"]] == finished[2:] and rest["next_cursor"] is None
    assert [r["you"] for r in api.get("/v1/players/me/records", key=bob["api_key"]).body["records"]] == [2, 2, 2]
    response = api.client.http.get("/v1/players/me/records?limit=2", headers={
        "Authorization": f"Bearer {ann['api_key']}", "Accept": "application/x-ndjson"})
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("application/x-ndjson")
    lines = response.body.decode().splitlines()
    assert [json.loads(line)["game_id"] for line in lines] == finished[:2]
    assert response.headers["Next-Cursor"] == first["next_cursor"]
    bad = api.get("/v1/players/me/records?cursor=garbage", key=ann["api_key"])
    assert bad.status == 400 and bad.body["code"] == "invalid_cursor"


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_a_game_stored_before_rules_versions_were_recorded_is_version_1(api, store):
    from chalicelib.store import keys
    from chalicelib.store.items import typed_key

    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = new(api, "battleline", ann, bob)
    store.client.update_item(TableName=store.table, Key=typed_key(keys.settings(gid)),
                             UpdateExpression="REMOVE rules_version")
    assert record(api, ann, gid)["rules_version"] == "battleline/1"


# ---------------------------------------------------------------- verify, on real games


def through(api, player):
    """The CLI's client, answered by the API test client."""

    class Local(Client):
        def call(self, method, path, body=None, *, auth=True):
            reply = api.request(method, path, body, key=player["api_key"] if auth else None)
            if reply.status >= 400:
                raise Failure(f"{reply.body.get('detail')} ({reply.body.get('code')})")
            return reply.body

    return Local


@pytest.mark.parametrize("game", ["battleline", "khan"])
def test_a_real_finished_game_verifies_and_the_cli_says_so(api, monkeypatch, tmp_path, game):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = new(api, game, ann, bob)
    view = play(api, {1: ann, 2: bob}, gid, 12, random.Random(5))
    api.act(ann, gid, view["version"], {"type": "resign"})
    done = record(api, bob, gid)
    assert verify.verify(done).verified
    monkeypatch.setattr(main, "Client", through(api, bob))
    result = CliRunner().invoke(main.app, ["verify", gid])
    assert result.exit_code == 0, result.output
    assert "Verified" in result.output and "commitment" in result.output
    saved = tmp_path / "record.json"
    done["moves"][2]["steps"] = [{"type": "resign"}]  # an altered record, saved: verify --file finds it
    saved.write_text(json.dumps(done))
    result = CliRunner().invoke(main.app, ["verify", "--file", str(saved)])
    assert isinstance(result.exception, Failure) and result.exception.status == 1
    assert "version 3:" in result.output


def test_the_cli_refuses_an_unfinished_game_with_status_2(api, monkeypatch):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = new(api, "battleline", ann, bob)
    monkeypatch.setattr(main, "Client", through(api, ann))
    result = CliRunner().invoke(main.app, ["verify", gid])
    assert isinstance(result.exception, Failure) and result.exception.status == 2
    assert "not over" in str(result.exception)


def test_the_cli_fetches_a_card_set_it_lacks(api, monkeypatch):
    from chalicelib.games.khan import cardset

    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = new(api, "khan", ann, bob)
    api.act(bob, gid, 0, {"type": "resign"})
    monkeypatch.setattr(main, "Client", through(api, ann))
    done = record(api, ann, gid)
    server_registry = cardset.REGISTRY
    empty = cardset.Registry([])
    monkeypatch.setattr(cardset, "REGISTRY", empty)  # this machine: no card set (the server keeps its own)
    monkeypatch.setattr(main, "Client", type("Mixed", (through(api, ann),), {
        "call": lambda self, method, path, body=None, *, auth=True: _as_server(server_registry, empty, lambda: (
            super(type(self), self).call(method, path, body, auth=auth)))}))
    result = CliRunner().invoke(main.app, ["verify", gid])
    assert result.exit_code == 0, result.output
    assert "Fetching card set" in result.output and (done["card_set"]["id"], done["card_set"]["version"]) in empty.sets


def _as_server(server_registry, local, request):
    """Answer a request with the server's registry in place (server and CLI share a process here)."""
    from chalicelib.games.khan import cardset

    cardset.REGISTRY = server_registry
    try:
        return request()
    finally:
        cardset.REGISTRY = local


@pytest.mark.parametrize("game", ["battleline", "khan"])
def test_a_whole_game_played_to_its_rules_end_verifies(api, long_play, game):
    """On DynamoDB Local (a whole game writes hundreds of items): played to the end its rules give,
    with a clock; its record, read back from the table, replays to the same result."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = new(api, game, ann, bob, options={"time_control": {"per_move_days": 3},
                                            **({"max_rounds": 3} if game == "khan" else {})})
    view = play(api, {1: ann, 2: bob}, gid, 2000, random.Random(11))
    assert view["status"] == "finished" and view["result"]["reason"] != "resign"
    done = record(api, ann, gid)
    verdict = verify.verify(done)
    assert verdict.verified, verdict.problems
    assert verdict.moves == len(done["moves"]) == view["version"]


def test_a_declined_game_is_a_consent_move_and_verifies(api):
    """A game declined before it began: its record's one move is the seat's ``game_declined`` (no
    step), the result says so, and the deal (never played) still checks out."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = api.new_game(ann, [ann, bob], consent=False)["game_id"]
    reply = api.post(f"/v1/games/{gid}/decline", key=bob["api_key"])
    assert reply.status == 200, reply.body
    done = record(api, ann, gid)
    assert [(m["kind"], m["seat"], m["steps"]) for m in done["moves"]] == [("game_declined", 2, [])]
    assert done["result"]["reason"] == "declined" and done["complete"]
    assert verify.verify(done).verified
