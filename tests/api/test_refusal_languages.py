"""A refusal's ``detail`` in the language the request's Accept-Language asks for: the same bad move
refused in Chinese under ``zh-CN``, in Japanese under ``ja``, in English with no header (or one naming
none of ours); the same ``code``, ``type``, ``title`` and fields (card notation, the flag, the
counterexample) in every language; the answer names its language (Content-Language) and says it
depends on the header (Vary). Views keep their ETag and 304 whatever the language."""

from __future__ import annotations

import json

import pytest


def started(api) -> tuple[dict, dict, dict]:
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    return ann, bob, game


def full_side(api, ann, game) -> tuple[dict, int]:
    """Ann's view once her side of flag 1 is full (three cards there, over three turns)."""
    game_id = game["game_id"]
    for _turn in range(3):
        view = api.view(ann, game_id)
        card = next(s["card"] for s in view["legal_steps"] if s["type"] == "play" and s.get("flag") == 1
                    and s["card"][0].isdigit())
        turn = [{"type": "play", "card": card, "flag": 1}, {"type": "claim", "flags": []},
                {"type": "draw", "deck": "troop"}]
        assert api.post(f"/v1/games/{game_id}/actions", {"expected_version": view["version"], "steps": turn},
                        key=ann["api_key"]).status == 200
        other = api.view(game["bob"], game_id)
        step = next(s for s in other["legal_steps"] if s["type"] == "play" and s.get("flag") == 9)
        assert api.post(f"/v1/games/{game_id}/actions", {"expected_version": other["version"], "steps": [
            step, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}]},
            key=game["bob"]["api_key"]).status == 200
    return api.view(ann, game_id)


def refused(api, player: dict, game_id: str, language: str | None, step: dict):
    view = api.view(player, game_id)
    headers = {"Accept-Language": language} if language else {}
    return api.post(f"/v1/games/{game_id}/actions", {"expected_version": view["version"], "steps": [step]},
                    key=player["api_key"], headers=headers)


@pytest.fixture
def played(api):
    ann, bob, game = started(api)
    game["bob"] = bob
    view = full_side(api, ann, game)
    card = next(c for c in view["state"]["hand"] if c[0].isdigit())
    return ann, game["game_id"], {"type": "play", "card": card, "flag": 1}


def test_the_same_bad_move_is_refused_in_each_language_with_the_same_code(api, played):
    ann, game_id, step = played
    english = refused(api, ann, game_id, None, step)
    chinese = refused(api, ann, game_id, "zh-CN,zh;q=0.9,en;q=0.5", step)
    japanese = refused(api, ann, game_id, "ja", step)
    vietnamese = refused(api, ann, game_id, "vi-VN", step)
    assert english.body["detail"] == "your side of flag 1 is full"
    assert chinese.body["detail"] == "你在地区1的一侧已满"
    assert japanese.body["detail"] == "フラッグ1のあなたの側はいっぱいです"
    assert vietnamese.body["detail"] == "phía bạn ở chốt 1 đã đầy"
    for reply in (english, chinese, japanese, vietnamese):
        assert reply.status == 422 and reply.headers["content-type"] == "application/problem+json"
        assert {k: v for k, v in reply.body.items() if k != "detail"} == \
            {k: v for k, v in english.body.items() if k != "detail"}  # code, type, title, status, step_index
        assert reply.body["code"] == "illegal_action" and reply.body["title"] == "The rules do not allow this step now"
        assert "Accept-Language" in reply.headers["vary"]
    assert [r.headers["content-language"] for r in (english, chinese, japanese, vietnamese)] == \
        ["en", "zh-Hans", "ja", "vi"]


def test_a_language_we_do_not_speak_is_answered_in_english(api, played):
    ann, game_id, step = played
    reply = refused(api, ann, game_id, "de-DE, fr;q=0.8", step)
    assert reply.body["detail"] == "your side of flag 1 is full" and reply.headers["content-language"] == "en"


def test_a_refused_claim_says_why_in_the_language_and_keeps_its_counterexample(api):
    ann, bob, game = started(api)
    game_id = game["game_id"]
    view = api.view(ann, game_id)
    card = next(s["card"] for s in view["legal_steps"] if s["type"] == "play" and s["card"][0].isdigit())
    turn = [{"type": "play", "card": card, "flag": 5}, {"type": "claim", "flags": [5]}]
    english = api.post(f"/v1/games/{game_id}/actions", {"expected_version": view["version"], "steps": turn},
                       key=ann["api_key"])
    chinese = api.post(f"/v1/games/{game_id}/actions", {"expected_version": view["version"], "steps": turn},
                       key=ann["api_key"], headers={"Accept-Language": "zh-Hans"})
    assert english.body["detail"] == "flag 5 cannot be claimed: your side of flag 5 has 1 of the 3 cards it needs"
    assert chinese.body["detail"] == "不能声明占据地区5：你在地区5一侧只有1张牌，需要3张"
    assert chinese.body["code"] == english.body["code"] == "illegal_action"
    assert chinese.body["flag"] == english.body["flag"] == 5
    assert chinese.body.get("counterexample") == english.body.get("counterexample")


def test_refusals_of_the_http_edge_and_the_services_follow_the_header_too(api):
    ann = api.signup("Ann")
    missing = api.get("/v1/games/g_nothere", key=ann["api_key"], headers={"Accept-Language": "ja"})
    assert missing.status == 404 and missing.body["code"] == "game_not_found"
    assert missing.body["detail"] == "ゲーム 'g_nothere' はありません"
    assert missing.body["title"] == "No such game"  # the problem type's name stays as openapi.yaml lists it
    bad = api.client.http.post("/v1/games", headers={"Content-Type": "application/json", "Accept-Language": "zh",
                                                    "Authorization": f"Bearer {ann['api_key']}"}, body=b"{nope")
    assert bad.status_code == 400 and json.loads(bad.body)["detail"].startswith("正文不是有效的 JSON：")
    assert bad.headers["Content-Language"] == "zh-Hans"
    no_key = api.get("/v1/players/me", headers={"Accept-Language": "vi"})
    assert no_key.status == 401 and no_key.body["code"] == "unauthorized"
    assert no_key.body["detail"] == "hãy gửi một khóa API hợp lệ dạng 'Authorization: Bearer <api_key>'"


def test_a_views_etag_and_304_hold_with_the_language_in_vary(api):
    ann, bob, game = started(api)
    path = f"/v1/games/{game['game_id']}"
    first = api.get(path, key=bob["api_key"], headers={"Accept-Language": "ja"})
    assert first.status == 200 and "Accept-Language" in first.headers["vary"]
    again = api.get(path, key=bob["api_key"], headers={"Accept-Language": "ja", "If-None-Match": first.headers["etag"]})
    assert again.status == 304 and again.body is None and "Accept-Language" in again.headers["vary"]
    # the view's JSON is the same in every language (codes and card notation): so is its tag
    english = api.get(path, key=bob["api_key"])
    assert english.headers["etag"] == first.headers["etag"] and english.body == first.body


def test_analyze_battle_line_gives_its_reasons_in_the_language(api):
    position = {"flags": [{"cards": [["8R", "9R", "10R"], ["1B", "2G"]]}] + [{"cards": [[], []]}] * 8}
    english = api.post("/v1/battleline/analyze", {"position": position, "seat": 1})
    japanese = api.post("/v1/battleline/analyze", {"position": position, "seat": 1}, headers={"Accept-Language": "ja"})
    assert english.status == japanese.status == 200
    assert english.body["flags"][0]["reason"] == "your wedge of 27 beats host of 3" or \
        english.body["flags"][0]["reason"].startswith("no completion of the opponent's side can beat your wedge of 27")
    assert "合計27のくさび形" in japanese.body["flags"][0]["reason"]
    assert japanese.body["flags"][0]["claimable"] == english.body["flags"][0]["claimable"] is True
    assert japanese.headers["content-language"] == "ja" and "Accept-Language" in japanese.headers["vary"]


@pytest.mark.parametrize("language", ["ja", "vi"])
def test_a_khan_games_refused_card_set_and_deck_are_said_in_the_requests_language(api, language):
    """``unknown_card_set`` and ``invalid_deck`` say their whole sentence in the request's language
    (not an English sentence after a translated prefix), naming the set, the sets there are and the
    deck's problem by their ids; the code stays."""
    from ..engine.khan.test_rules import KHAN_PLUS

    ann, bob = api.signup("Ann"), api.signup("Bob")
    four = ["heavy_cavalry"] * 4 + KHAN_PLUS[4:]
    for options, code, english in (
            ({"card_set": "steppe"}, "unknown_card_set", "there is no card set steppe (known: khan-default v1"),
            ({"card_set_version": 7}, "unknown_card_set", "there is no card set khan-default version 7"),
            ({"decks": {"1": four}}, "invalid_deck", "seat 1's deck is not valid: at most 3 units of one type: "
                                                     "4 × heavy_cavalry")):
        body = {"game": "khan", "options": options, "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]}
        plain = api.post("/v1/games", body, key=ann["api_key"])
        said = api.post("/v1/games", body, key=ann["api_key"], headers={"Accept-Language": language})
        assert plain.status == said.status == 422 and plain.body["code"] == said.body["code"] == code
        assert english in plain.body["detail"], plain.body
        detail = said.body["detail"]
        assert not any(words in detail for words in ("there is no", "known", "version", "not valid", "at most",
                                                     "of one type")), detail
        assert ("khan-default" in detail) if code == "unknown_card_set" else ("heavy_cavalry" in detail), detail
