"""A Khan & General game whose card set the server has lost (its file gone, KHAN_CARD_SETS_DIR not set
after a restart) or whose file was edited in place under the same version: the game answers 503
``game_unavailable`` naming the card set, in the reader's language and as a page to a browser, never
a 500 asking to retry; a new game on an unknown set is still refused 422 ``unknown_card_set``."""

from __future__ import annotations

import copy
import dataclasses
import logging
from urllib.parse import urlsplit

import pytest

from chalicelib.games.khan.cardset import DEFAULT_CARD_SET, REGISTRY, parse

from ..conftest import LINKS

SET_ID = "steppe-lost"


def add_set_to_lose(monkeypatch) -> tuple[str, int]:
    """A designer's set the server has while a game is made on it (its key in the registry); the test
    then takes it away (``monkeypatch.delitem``) or changes it; the registry is as it was after the test."""
    data = copy.deepcopy(REGISTRY.get(DEFAULT_CARD_SET, 1).data)
    data.update(id=SET_ID, name="A set that goes missing", version=1)
    monkeypatch.setitem(REGISTRY.sets, (SET_ID, 1), parse(data, f"{SET_ID}.v1.json"))
    return (SET_ID, 1)


@pytest.fixture
def lost_set(monkeypatch):
    return add_set_to_lose(monkeypatch)


def khan_game(api, ann, bob):
    return api.new_game(ann, [ann, bob], game="khan", options={"first_seat": 1, "card_set": SET_ID})


def board_path(api, player, game_id):
    reply = api.get(f"/v1/games/{game_id}/board-link", key=player["api_key"])
    assert reply.status == 200, reply.body
    parts = urlsplit(reply.body["url"])
    return f"{parts.path}?{parts.query}"


def test_a_game_whose_card_set_is_gone_answers_game_unavailable_naming_the_set(api, lost_set, monkeypatch, caplog):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = khan_game(api, ann, bob)
    board = board_path(api, ann, game["game_id"])
    monkeypatch.delitem(REGISTRY.sets, lost_set)  # the server restarted without the designer's folder
    with caplog.at_level(logging.ERROR, logger="battleline.web"):
        reply = api.get(f"/v1/games/{game['game_id']}", key=ann["api_key"])
    assert reply.status == 503 and reply.body["code"] == "game_unavailable", reply.body
    assert "retry-after" not in reply.headers  # retrying cannot help
    assert reply.body["card_set"] == {"id": SET_ID, "version": 1}
    assert f"{SET_ID} version 1" in reply.body["detail"] and "operator restores it" in reply.body["detail"]
    assert "Idempotency-Key" not in reply.body["detail"]
    assert any("there is no card set steppe-lost version 1" in r.getMessage() for r in caplog.records)  # the cause
    assert not [r for r in caplog.records if r.exc_info]  # no traceback: a known state, not a bug
    # A move is refused the same way, nothing written.
    acted = api.act(ann, game["game_id"], 0, {"type": "place", "unit": "heavy_cavalry"})
    assert (acted.status, acted.body["code"]) == (503, "game_unavailable")
    # The board page is a page for a browser, the same problem for any other client.
    page = api.get(board, headers={"Accept": "text/html", "Accept-Language": "ja"})
    assert page.status == 503 and page.headers["content-type"].startswith("text/html")
    assert SET_ID in page.body and "{" not in page.body.split("<body", 1)[1].split("<script", 1)[0]
    assert "<h1" in page.body and "Something went wrong" not in page.body
    problem = api.get(board)
    assert (problem.status, problem.body["code"]) == (503, "game_unavailable")


def test_a_game_whose_card_set_was_edited_in_place_says_so_in_the_readers_language(api, lost_set, monkeypatch):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = khan_game(api, ann, bob)
    edited = dataclasses.replace(REGISTRY.sets[lost_set], digest="0" * 16)  # the same version, other rules
    monkeypatch.setitem(REGISTRY.sets, lost_set, edited)
    reply = api.get(f"/v1/games/{game['game_id']}", key=ann["api_key"])
    assert (reply.status, reply.body["code"]) == (503, "game_unavailable")
    assert "changed on this server after the game began" in reply.body["detail"]
    for language in ("zh-Hans", "ja", "vi"):
        said = api.get(f"/v1/games/{game['game_id']}", key=ann["api_key"], headers={"Accept-Language": language})
        assert said.headers["content-language"] == language
        assert SET_ID in said.body["detail"] and "changed on this server" not in said.body["detail"]
        assert said.body["title"] == reply.body["title"]  # the problem type's name stays English


def test_a_new_game_on_an_unknown_card_set_is_still_refused_as_unknown_card_set(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    api.accepting(bob)
    reply = api.post("/v1/games", {"game": "khan", "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}],
                                   "options": {"card_set": "nope"}}, key=ann["api_key"])
    assert (reply.status, reply.body["code"]) == (422, "unknown_card_set")


def test_every_operation_that_loads_a_game_documents_game_unavailable():
    import app as app_module

    loading = [op for op in app_module.api.operations if "game_not_found" in op.errors or op.loads_game]
    assert loading and all("game_unavailable" in op.error_codes for op in loading)
    assert not [op.operation_id for op in app_module.api.operations if "game_unavailable" in op.error_codes
                and op not in loading]
    assert {op.operation_id for op in loading if op.html} >= {"getBoard", "showStepLink", "playStepLink",
                                                               "showAnswerLink", "answerGame"}


def test_an_emails_step_link_to_such_a_game_answers_a_page_saying_it_waits(api, lost_set, monkeypatch):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = khan_game(api, ann, bob)
    path = urlsplit(LINKS.step_url(game["game_id"], 1, 0, {"type": "place", "unit": "heavy_cavalry"})).path
    monkeypatch.delitem(REGISTRY.sets, lost_set)
    for reply in (api.get(path, headers={"Accept": "text/html"}),
                  api.post(path, headers={"Accept": "text/html", "Content-Type": "application/x-www-form-urlencoded"})):
        assert reply.status == 503 and reply.headers["content-type"].startswith("text/html")
        assert f"{SET_ID} version 1" in reply.body and "operator" in reply.body
    assert api.get(path).body["code"] == "game_unavailable"  # any other client: the problem


def test_an_unexpected_error_asks_for_an_idempotency_key_only_where_the_operation_takes_one(api, services, monkeypatch):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob])
    board = board_path(api, ann, game["game_id"])

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services.games, "get_game", broken)
    monkeypatch.setattr(services.boards, "board", broken)
    reply = api.get(f"/v1/games/{game['game_id']}", key=ann["api_key"])
    assert (reply.status, reply.body["code"]) == (500, "internal_error")
    assert "Idempotency-Key" not in reply.body["detail"] and "operator" in reply.body["detail"]
    page = api.get(board, headers={"Accept": "text/html"})  # a browser gets a page, not JSON
    assert page.status == 500 and page.headers["content-type"].startswith("text/html")
    monkeypatch.setattr(services.games, "post_action", broken)
    acted = api.act(ann, game["game_id"], 0, {"type": "pass"})
    assert acted.status == 500 and "Idempotency-Key" in acted.body["detail"]  # a write: a retry with it is safe


def test_an_email_reply_to_such_a_game_is_answered_that_it_waits_not_raised(store, lost_set, monkeypatch):
    """A reply by email to a game whose card set is gone is answered in the game's thread (nothing played,
    why): it raised out of the mail handler, and the player never heard back."""
    from chalicelib.http.models import CreateGameRequest, PlayerSeat
    from tests.fakes import start_game
    from tests.notify.helpers import game_by_mail, text_of

    services, inbound, outbox, _view, ann, bob = game_by_mail(store, "battleline")
    game = start_game(services, ann, CreateGameRequest(game="khan", options={"first_seat": 1, "card_set": SET_ID},
                                                       seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]),
                      [ann, bob])
    monkeypatch.delitem(REGISTRY.sets, lost_set)
    raw = (f"From: ann@example.org\r\nTo: {LINKS.reply_address(game['game_id'], 1, 0)}\r\nSubject: Re\r\n"
           f"Message-ID: <lost@example.org>\r\n\r\nplace heavy_cavalry\r\n").encode()
    result = inbound.handle(raw)
    assert result.outcome == "refused" and result.reply is not None
    assert f"{SET_ID} version 1" in text_of(result.reply) and text_of(result.reply).startswith("Not played: ")
