"""Issue 36 item 6: a tournament's emails. A round paired tells each player their game(s), the
opponent, the time control and the links, and replaces those games' start emails; a bye is told;
the event's end tells the final standings with the standings page and its CSV. In the player's
language."""

from __future__ import annotations

import pytest
from chalice.test import Client

import app as app_module
from chalicelib.config import build_services
from chalicelib.notify.dispatcher import Outlets
from tests.conftest import ApiClient
from tests.notify.helpers import LINKS, Outbox, html_of, text_of


@pytest.fixture
def mailed(store, monkeypatch):
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    monkeypatch.setattr(app_module.api, "services", lambda: services)
    with Client(app_module.app) as client:
        api = ApiClient(client, services.store)
        yield api, services, outbox


def signup(api, name, language="en"):
    reply = api.post("/v1/players", {"name": name, "email": f"{name.lower()}@example.org", "language": language})
    assert reply.status == 201, reply.body
    return reply.body


def kinds_to(outbox, name):
    return [(m["X-Battleline-Message"] or "").rsplit("_", 1)[0] for m in outbox.sent
            if m["To"] == f"{name.lower()}@example.org"]


def swiss_of_three(api, services, language="en"):
    ann, bob, cat = signup(api, "Ann", language), signup(api, "Bob"), signup(api, "Cat")
    t = api.post("/v1/tournaments", {"name": "Club Swiss", "game": "battleline", "format": "swiss", "rounds": 2,
                                     "options": {"time_control": {"per_move_days": 3}}}, key=ann["api_key"]).body
    for player in (ann, bob, cat):
        assert api.post(f"/v1/tournaments/{t['id']}/join", key=player["api_key"]).status == 200
    t = api.post(f"/v1/tournaments/{t['id']}/start", key=ann["api_key"]).body
    services.dispatcher.drain_outbox()
    return t, {p["id"]: p for p in (ann, bob, cat)}


def test_issue36_item6_a_paired_round_and_a_bye_are_told_and_replace_the_games_start_emails(mailed):
    api, services, outbox = mailed
    t, players = swiss_of_three(api, services)
    [pairing] = [p for p in t["pairings"] if p["round"] == 1 and p["second"]]
    [bye] = [p for p in t["pairings"] if p["round"] == 1 and not p["second"]]
    for side, other in (("first", "second"), ("second", "first")):
        name, opponent = pairing[side]["name"], pairing[other]["name"]
        mails = [m for m in outbox.sent if m["To"] == f"{name.lower()}@example.org"]
        assert len(mails) == 1, [m["X-Battleline-Message"] for m in mails]  # no game.invited, no your-move email
        text = text_of(mails[0])
        assert mails[0]["Subject"] == "Club Swiss: round 1 of 2 is paired"
        assert text.startswith(f"Round 1 of 2: you play {opponent}.")
        game_id = pairing["game_ids"][0]
        assert f"Battle Line with {opponent} (game {game_id})" in text
        assert "3 days for each move." in text and f"/v1/games/{game_id}/board?seat=" in text
        seat = next(s["seat"] for s in api.view(players[pairing[side]["player_id"]], game_id)["seats"]
                    if s["player_id"] == pairing[side]["player_id"])
        to_move = api.view(players[pairing[side]["player_id"]], game_id)["to_move"]
        assert ("Your move." in text) == (seat == to_move) and "Your hand" not in text
        assert "Open the board" in html_of(mails[0])
    byed = [m for m in outbox.sent if m["To"] == f"{bye['first']['name'].lower()}@example.org"]
    assert len(byed) == 1 and byed[0]["Subject"] == "Club Swiss: a bye in round 1"
    assert text_of(byed[0]).startswith("Round 1 of 2: you have a bye (no game this round).\nIt scores ")


def test_issue36_item6_the_end_of_the_event_tells_the_final_standings_with_the_page_and_csv(mailed):
    api, services, outbox = mailed
    t, players = swiss_of_three(api, services, language="zh-Hans")
    while t["status"] == "running":
        for p in [p for p in t["pairings"] if p["round"] == t["round"] and p["points"] is None and p["second"]]:
            loser = players[p["second"]["player_id"]]
            view = api.view(loser, p["game_ids"][0])
            assert api.act(loser, p["game_ids"][0], view["version"], {"type": "resign"}).status == 200
            services.dispatcher.drain_outbox()
        t = api.get(f"/v1/tournaments/{t['id']}").body
    services.dispatcher.drain_outbox()
    standings = api.get(f"/v1/tournaments/{t['id']}/standings").body["standings"]
    for player in players.values():
        ended = [m for m in outbox.sent if m["X-Battleline-Message"] == f"msg_{t['id']}_r2_finished_{player['id']}"]
        assert len(ended) == 1
        text = text_of(ended[0])
        mine = next(r for r in standings if r["player_id"] == player["id"])
        if player["name"] == "Ann":  # in her language
            assert "Club Swiss" in ended[0]["Subject"] and "has ended" not in ended[0]["Subject"]
        else:
            assert ended[0]["Subject"] == "Club Swiss has ended"
            assert text.startswith(f"Club Swiss has ended: you placed {mine['rank']} of 3")
        assert f"/v1/tournaments/{t['id']}/standings/page" in text
        assert f"/v1/tournaments/{t['id']}/standings?format=csv" in text
        assert all(row["name"] in text for row in standings)
