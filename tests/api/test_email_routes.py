"""Preferences and the HTML pages behind email links, through the HTTP API."""

import pytest

from urllib.parse import urlsplit

from tests.conftest import LINKS

from .test_contract import problem_of


def test_preferences_default_and_update(api):
    ann = api.signup("Ann")
    prefs = api.get("/v1/players/me/preferences", key=ann["api_key"]).body
    assert prefs == {"email": ["game.invited", "game.your_turn", "game.reminder", "game.finished"],
                     "webhook": ["game.invited", "game.your_turn", "game.reminder", "game.action", "game.finished"]}
    chosen = {"email": ["game.finished"], "webhook": ["game.your_turn"]}
    assert api.request("PUT", "/v1/players/me/preferences", chosen, key=ann["api_key"]).body == chosen
    assert api.get("/v1/players/me/preferences", key=ann["api_key"]).body == chosen
    problem_of(api.request("PUT", "/v1/players/me/preferences", {"email": ["game.nope"], "webhook": []},
                           key=ann["api_key"]), 422, "invalid_request")


def test_step_link_pages_over_http(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    path = urlsplit(LINKS.step_url(game["game_id"], 1, 0, step)).path
    page = api.get(path)
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    assert '<form method="post"' in page.body and "Confirm: play" in page.body
    assert api.view(ann, game["game_id"])["version"] == 0
    played = api.post(path, headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert played.status == 200 and "Played: play" in played.body
    assert api.view(ann, game["game_id"])["version"] == 1
    assert api.get("/v1/links/not-a-token").status == 400


BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.mark.parametrize("path", ["/v1/links/not-a-token", "/v1/invitations/not-a-token", "/v1/unsubscribe/x",
                                  "/v1/games/g_nothing/board"])
def test_a_page_refusal_is_a_page_for_a_browser_and_problem_json_for_a_program(api, path):
    page = api.get(path, headers=BROWSER)
    assert page.status >= 400 and page.headers["content-type"].startswith("text/html")
    program = api.get(path)
    assert program.status == page.status and program.headers["content-type"] == "application/problem+json"
    assert program.body["status"] == program.status and program.body["code"]
