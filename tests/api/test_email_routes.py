"""Preferences and the HTML pages behind email links, through the HTTP API."""

import pytest

from urllib.parse import urlsplit

from tests.conftest import LINKS, signed_link

from .test_contract import problem_of


def test_preferences_default_and_update(api):
    ann = api.signup("Ann")
    prefs = api.get("/v1/players/me/preferences", key=ann["api_key"]).body
    assert prefs == {"email": ["game.invited", "game.your_turn", "game.reminder", "game.finished", "ladder.rank_changed"],
                     "webhook": ["game.invited", "game.your_turn", "game.reminder", "game.action", "game.finished",
                                 "ladder.rank_changed"],
                     "challenges": "ask", "messages": True, "language": "en", "time_zone": "UTC",
                     "weekend_pause": False, "digest": {"enabled": False, "time": "08:00"}}
    chosen = {"email": ["game.finished"], "webhook": ["game.your_turn"], "challenges": "ask", "messages": False,
              "language": "ja", "time_zone": "Asia/Ho_Chi_Minh", "weekend_pause": True,
              "digest": {"enabled": True, "time": "21:45"}}
    assert api.request("PUT", "/v1/players/me/preferences", chosen, key=ann["api_key"]).body == chosen
    assert api.get("/v1/players/me/preferences", key=ann["api_key"]).body == chosen


def test_a_preference_left_out_keeps_its_value(api):
    """An older client that knows only email and webhook cannot reset a newer setting."""
    ann = api.signup("Ann")
    api.request("PUT", "/v1/players/me/preferences", {"challenges": "accept"}, key=ann["api_key"])
    older = {"email": ["game.finished"], "webhook": []}
    assert api.request("PUT", "/v1/players/me/preferences", older, key=ann["api_key"]).body == {
        **older, "challenges": "accept", "messages": True, "language": "en", "time_zone": "UTC",
        "weekend_pause": False, "digest": {"enabled": False, "time": "08:00"}}
    assert api.get("/v1/players/me/preferences", key=ann["api_key"]).body["challenges"] == "accept"
    problem_of(api.request("PUT", "/v1/players/me/preferences", {"email": ["game.nope"], "webhook": []},
                           key=ann["api_key"]), 422, "invalid_request")


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def test_step_link_pages_over_http(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    path = urlsplit(LINKS.step_url(game["game_id"], 1, 0, step)).path
    page = api.get(path)
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    assert f'<form method="post" action="{path}"' in page.body and f"Play {step['card']} at flag 1?" in page.body
    assert api.view(ann, game["game_id"])["version"] == 0
    played = api.post(path, headers=FORM)
    assert played.status == 200 and "<h1" in played.body and ">Played</h1>" in played.body
    assert api.view(ann, game["game_id"])["version"] == 1
    assert api.get("/v1/links/not-a-token").status == 400


def test_the_turn_pages_form_is_read_over_http(api):
    """The confirmation page's form (claim checkboxes, a deck) reaches the turn as it posts it."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    path = urlsplit(LINKS.step_url(game["game_id"], 1, 0, step)).path
    played = api.post(path, raw="turn=1&deck=tactics", headers={**FORM, **BROWSER})
    assert played.status == 200 and "from the tactics deck" in played.body
    events = api.get(f"/v1/games/{game['game_id']}/events?after=0", key=ann["api_key"]).body["events"]
    assert [e["type"] for e in events][-3:] == ["play", "claim", "draw"] and events[-1]["data"]["deck"] == "tactics"
    again = api.post(path, raw="turn=1&deck=troop", headers={**FORM, **BROWSER})  # other choices, after
    assert again.status == 409 and "This move was already played" in again.body


BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.mark.parametrize("path", ["/v1/links/not-a-token", "/v1/invitations/not-a-token", "/v1/unsubscribe/x",
                                  "/v1/games/g_nothing/board"])
def test_a_page_refusal_is_a_page_for_a_browser_and_problem_json_for_a_program(api, path):
    page = api.get(path, headers=BROWSER)
    assert page.status >= 400 and page.headers["content-type"].startswith("text/html")
    program = api.get(path)
    assert program.status == page.status and program.headers["content-type"] == "application/problem+json"
    assert program.body["status"] == program.status and program.body["code"]


def test_answer_link_pages_over_http(api):
    """Bob, asked to play Ann's game, opens his Accept link (nothing happens) and presses its
    button: the game starts; his Decline link then says the game is on."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], consent=False, options={"first_seat": 1})
    assert game["status"] == "waiting"
    accept = urlsplit(LINKS.answer_url(game["game_id"], 2, bob["id"], "accept")).path
    decline = urlsplit(LINKS.answer_url(game["game_id"], 2, bob["id"], "decline")).path
    page = api.get(accept, headers=BROWSER)
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    assert f'<form method="post" action="{signed_link(accept)}' in page.body
    assert "Ann asks you to play Battle Line?" in page.body
    assert "Accept: start the game" in page.body and signed_link(decline) in page.body and "Ann moves first." in page.body
    assert api.view(bob, game["game_id"])["status"] == "waiting"
    answered = api.post(accept, headers={**FORM, **BROWSER})
    assert answered.status == 200 and "You accepted: the game starts" in answered.body
    assert "It is Ann&#39;s move; we will email you when it is yours." in answered.body
    assert "/board?seat=" in answered.body
    assert api.view(ann, game["game_id"])["status"] == "active"
    again = api.post(decline, headers={**FORM, **BROWSER})
    assert again.status == 409 and "You accepted this game already" in again.body
    assert api.view(ann, game["game_id"])["status"] == "active"
    assert api.get("/v1/answers/not-a-token", headers=BROWSER).status == 400


def test_a_decline_link_over_http_ends_the_game_declined(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], consent=False)
    decline = urlsplit(LINKS.answer_url(game["game_id"], 2, bob["id"], "decline")).path
    assert "Decline the game" in api.get(decline, headers=BROWSER).body
    answered = api.post(decline, headers={**FORM, **BROWSER})
    assert answered.status == 200 and ">You declined</h1>" in answered.body
    view = api.view(ann, game["game_id"])
    assert view["status"] == "finished" and view["result"] == {"winner": None, "reason": "declined", "seat": 2}


def first_play_link(api) -> tuple[dict, dict, str]:
    """Ann (seat 1, first) and Bob's new game; Ann, the game, and the path of her first play's step link."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    return ann, game, urlsplit(LINKS.step_url(game["game_id"], 1, 0, step)).path


def test_a_turn_pages_form_with_a_long_message_in_chinese_plays_what_it_chose(api):
    """A message of 460 Chinese characters makes a form of some 4,200 bytes: it is read whole (it once read
    as no form, and the page's defaults were played: a troop card drawn, the message dropped)."""
    from urllib.parse import quote

    ann, game, path = first_play_link(api)
    played = api.post(path, raw="turn=1&deck=tactics&message=" + quote("我" * 460), headers={**FORM, **BROWSER})
    assert played.status == 200 and "from the tactics deck" in played.body
    events = api.get(f"/v1/games/{game['game_id']}/events?after=0", key=ann["api_key"]).body["events"]
    assert next(e for e in events if e["type"] == "draw")["data"]["deck"] == "tactics"
    assert any(e["data"].get("text") == "我" * 460 for e in events)
    assert "Your message went with it." in played.body


def test_a_message_too_long_for_a_move_is_said_so_on_the_page_in_words(api):
    """501 characters: the page says how many and how many go (not pydantic's 'String should have at most 500
    characters'), and nothing is played."""
    from urllib.parse import quote

    ann, game, path = first_play_link(api)
    page = api.post(path, raw="turn=1&deck=troop&message=" + quote("x" * 501), headers={**FORM, **BROWSER})
    assert page.status == 422 and "holds 501 characters, and at most 500 go with a move" in page.body
    assert "String should" not in page.body and api.view(ann, game["game_id"])["version"] == 0


@pytest.mark.parametrize("form, status, code", [
    ("turn=1&deck=tactics&message=" + "x" * 20000, 413, "payload_too_large"),
    ("turn=1&claim=99&deck=troop", 422, "invalid_request"),
    ("turn=1&claim=-1", 422, "invalid_request"),
    ("turn=1&deck=zzz", 422, "invalid_request"),
    ("turn=1&deck=troop&deck=tactics", 422, "invalid_request"),
    ("turn=1&claim=5&deck=troop", 422, "invalid_request"),  # no flag can be claimed after the first play
    ("turn=1&claim=%C2%B3&deck=troop", 422, "invalid_request"),  # '³' is a digit to isdigit(), not a flag
    ("turn=1&claim=%D9%A3&deck=troop", 422, "invalid_request"),  # nor is an Arabic-Indic 3
    ("claim=9&deck=tactics", 422, "invalid_request"),  # choices without the page's turn field
    ("turn=1&deck=", 422, "invalid_request"),  # a blank deck is no deck, not the default one
    ("turn=1&deck=troop&message=%ff%fehi", 422, "invalid_request"),  # not UTF-8: never sent as read
])
def test_a_form_that_is_not_the_pages_plays_nothing(api, form, status, code):
    """A form too large to be the page's, or with a choice the page does not offer, is refused and plays
    nothing: never read as the page's defaults."""
    ann, game, path = first_play_link(api)
    page = api.post(path, raw=form, headers={**FORM, **BROWSER})
    assert "That move was not played" in page.body
    assert page.status == status and page.headers["content-type"].startswith("text/html"), page.body[:300]
    assert "nothing was done" in page.body
    program = api.post(path, raw=form, headers=FORM)
    assert program.status == status and program.body["code"] == code
    assert api.view(ann, game["game_id"])["version"] == 0


def test_a_form_of_another_kind_plays_nothing_and_is_said_in_the_players_language(api):
    """A multipart form (curl -F) is not the page's form: refused, nothing played (it read as no form, and the
    page's defaults were played), in the language of the link's player, whatever the browser asks."""
    ann, game, path = first_play_link(api)
    api.request("PUT", "/v1/players/me/preferences", {"language": "ja"}, key=ann["api_key"])
    body = '--b\r\nContent-Disposition: form-data; name="turn"\r\n\r\n1\r\n--b--\r\n'
    page = api.post(path, raw=body, headers={"Content-Type": "multipart/form-data; boundary=b", **BROWSER,
                                             "Accept-Language": "en"})
    assert page.status == 422 and page.headers["content-type"].startswith("text/html")
    assert "フォームを読み取れません" in page.body
    assert api.view(ann, game["game_id"])["version"] == 0
