"""Which language a page speaks: a page opened from a link (a seat's board, a step link, an answer
or unsubscribe link) speaks the link's player's ``language`` preference whatever the browser asks
for; a spectator's board and a page without a player follow the request's Accept-Language, and say
that they vary with it. And in no language does a board show another seat's hand."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

from tests.conftest import LINKS

BROWSER = {"Accept": "text/html,application/xhtml+xml"}
YOUR_MOVE = {"en": "Your move", "zh-Hans": "轮到你了", "ja": "あなたの手番", "vi": "Lượt của bạn"}
MOVE_LOG = {"en": "Move log", "zh-Hans": "行动记录", "ja": "棋譜", "vi": "Nhật ký nước đi"}
WATCHING = {"en": "You are watching this game.", "zh-Hans": "你正在观看这局游戏。", "ja": "このゲームを観戦しています。",
            "vi": "Bạn đang theo dõi ván đấu này."}


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def player(api, name: str, language: str) -> dict:
    reply = api.post("/v1/players", {"name": name, "language": language})
    assert reply.status == 201, reply.body
    return reply.body


def html_lang(page: str) -> str:
    return re.search(r'<html lang="([^"]+)"', page).group(1)


def words_of(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="board-words">(.*?)</script>', page, re.S).group(1))


@pytest.mark.parametrize("language", ["zh-Hans", "ja", "vi"])
def test_a_seats_board_speaks_its_players_language_whatever_the_browser_asks(api, language):
    ann, bob = player(api, "Ann", language), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    link = path_of(api.get(f"/v1/games/{game['game_id']}/board-link", key=ann["api_key"]).body["url"])
    page = api.get(link, headers={**BROWSER, "Accept-Language": "en-GB,en;q=0.9"})
    assert page.status == 200 and html_lang(page.body) == language
    assert page.headers["content-language"] == language and "Accept-Language" not in page.headers.get("vary", "")
    assert f'<h1 id="headline">{YOUR_MOVE[language]}</h1>' in page.body and MOVE_LOG[language] in page.body
    assert "Your move" not in page.body and "Move log" not in page.body
    assert words_of(page.body)["resign"] != "Resign"
    view = api.get(link.replace("/board?", "/board/view?"), headers={"Accept-Language": "en"}).body
    assert view["headline"] == YOUR_MOVE[language]
    assert all(not re.search(r"\bPlay\b|\bflag\b", step["label"]) for step in view["steps"])
    # Bob reads English: his board of the same game is English, its other seat named as Ann.
    bobs = api.get(path_of(api.get(f"/v1/games/{game['game_id']}/board-link", key=bob["api_key"]).body["url"]),
                   headers={**BROWSER, "Accept-Language": language})
    assert html_lang(bobs.body) == "en" and "Ann is to move" in bobs.body


@pytest.mark.parametrize("asked, language", [("zh-CN,zh;q=0.9,en;q=0.5", "zh-Hans"), ("ja-JP", "ja"),
                                             ("vi", "vi"), ("fr-FR, de;q=0.5", "en"), (None, "en")])
def test_a_spectators_board_follows_accept_language_and_varies_with_it(api, asked, language):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], public=True)
    page = api.get(f"/v1/games/{game['game_id']}/board", headers={**BROWSER, **({"Accept-Language": asked} if asked else {})})
    assert page.status == 200 and html_lang(page.body) == language
    assert page.headers["content-language"] == language and "Accept-Language" in page.headers["vary"]
    assert words_of(page.body)["watching"] == WATCHING[language] and MOVE_LOG[language] in page.body
    view = api.get(f"/v1/games/{game['game_id']}/board/view", headers={"Accept-Language": asked or ""})
    assert view.headers["vary"].count("Accept-Language") == 1 and view.body["you"] is None
    assert view.body["headline"].replace("Bob", "{name}").replace("Ann", "{name}") == {
        "en": "{name} is to move", "zh-Hans": "轮到{name}行动", "ja": "{name}の手番です", "vi": "Đến lượt {name}"}[language]


def test_a_step_link_page_speaks_its_players_language(api):
    ann, bob = player(api, "安", "zh-Hans"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    path = urlsplit(LINKS.step_url(game["game_id"], 1, 0, step)).path
    page = api.get(path, headers={**BROWSER, "Accept-Language": "ja"})
    assert page.status == 200 and html_lang(page.body) == "zh-Hans" and page.headers["content-language"] == "zh-Hans"
    assert "Accept-Language" not in page.headers.get("vary", "")
    assert "在地区1打出" in page.body and "？</h1>" in page.body and "Play " not in page.body
    assert "PingFang SC" in page.body  # a font that draws Chinese, named first
    played = api.post(path, headers={**BROWSER, "Content-Type": "application/x-www-form-urlencoded",
                                     "Accept-Language": "vi"})
    assert played.status == 200 and html_lang(played.body) == "zh-Hans" and "Played" not in played.body


def test_an_unsubscribe_link_speaks_its_players_language_and_a_bad_link_the_browsers(api):
    kenji = player(api, "Kenji", "ja")
    page = api.get(urlsplit(LINKS.unsubscribe_url(kenji["id"])).path, headers={**BROWSER, "Accept-Language": "vi"})
    assert html_lang(page.body) == "ja" and "メールを停止しますか？" in page.body and "Stop emails?" not in page.body
    refused = api.get("/v1/links/not-a-token", headers={**BROWSER, "Accept-Language": "vi-VN"})
    assert refused.status == 400 and html_lang(refused.body) == "vi" and refused.headers["content-language"] == "vi"
    assert "Accept-Language" in refused.headers["vary"] and "This link cannot be used" not in refused.body


@pytest.mark.parametrize("language", ["en", "zh-Hans", "ja", "vi"])
@pytest.mark.parametrize("game_type", ["battleline", "khan"])
def test_no_board_shows_another_seats_hand_in_any_language(api, language, game_type):
    ann, bob = player(api, "Ann", language), player(api, "Bob", language)
    game = api.new_game(ann, [ann, bob], game=game_type, options={"first_seat": 1}, public=True)
    hands = {p["id"]: api.view(p, game["game_id"])["state"]["hand"] for p in (ann, bob)}
    for me, other in ((ann, bob), (bob, ann)):
        link = path_of(api.get(f"/v1/games/{game['game_id']}/board-link", key=me["api_key"]).body["url"])
        view = api.get(link.replace("/board?", "/board/view?")).body
        assert view["hand"] == hands[me["id"]]
        hidden = set(hands[other["id"]]) - set(hands[me["id"]])
        shown = json.dumps({k: v for k, v in view.items() if k != "steps"}, ensure_ascii=False)
        assert hidden and not any(f'"{card}"' in shown for card in hidden)
        if game_type == "khan":  # the card set's units are public; a hidden command is named nowhere
            hidden = {card for card in hidden if not card.endswith(("cavalry", "archers", "men"))}
            assert hidden and not [card for card in hidden if re.search(rf"\b{card.replace('_', '[_ ]')}\b", view["svg"] + view["text"], re.I)]
    watched = api.get(f"/v1/games/{game['game_id']}/board", headers={**BROWSER, "Accept-Language": language}).body
    data = re.search(r'id="board-data">(.*?)</script>', watched, re.S).group(1)
    assert json.loads(data)["hand"] == [] and not any(f'"{card}"' in data for hand in hands.values() for card in hand)


def test_a_spectator_may_ask_for_a_language_with_lang_and_the_page_keeps_asking_in_it(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], public=True, options={"first_seat": 1})
    page = api.get(f"/v1/games/{game['game_id']}/board?lang=ja", headers={**BROWSER, "Accept-Language": "vi"})
    assert html_lang(page.body) == "ja" and page.headers["content-language"] == "ja"
    assert "Accept-Language" not in page.headers.get("vary", "")  # the address says the language
    assert f'"/v1/games/{game["game_id"]}/board/view?lang=ja"' in page.body  # what the page polls speaks it too
    view = api.get(f"/v1/games/{game['game_id']}/board/view?lang=ja&after=0", headers={"Accept-Language": "vi"}).body
    assert view["headline"] == "Annの手番です"
    assert api.get(f"/v1/games/{game['game_id']}/board?lang=fr").status == 422  # only our languages
    link = path_of(api.get(f"/v1/games/{game['game_id']}/board-link", key=ann["api_key"]).body["url"])
    assert html_lang(api.get(f"{link}&lang=ja", headers=BROWSER).body) == "en"  # a seat's board: its player's
