"""ETag and If-None-Match on game views: 304 with no body while the view is the same, a new tag as
soon as it differs (a move; also a change that makes no new version, such as a vacation stopping the
clock), one tag per viewer (Vary: Authorization, Accept-Language)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from chalicelib.http.web import entity_tag


def started(api, **extra) -> tuple[dict, dict, dict]:
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1, **extra})
    return ann, bob, game


def test_a_view_that_has_not_changed_is_answered_304_with_no_body(api):
    ann, bob, game = started(api)
    first = api.get(f"/v1/games/{game['game_id']}", key=bob["api_key"])
    tag = first.headers["etag"]
    assert first.status == 200 and tag.startswith('W/"')
    assert first.headers["vary"] == "Authorization, Accept-Language"
    assert first.headers["cache-control"] == "private, no-cache"
    again = api.get(f"/v1/games/{game['game_id']}", key=bob["api_key"], headers={"If-None-Match": tag})
    assert again.status == 304 and again.body is None
    assert again.headers["etag"] == tag and again.headers["vary"] == "Authorization, Accept-Language"


@pytest.mark.parametrize("header", ["*", '"other", {tag}', "{tag}", "{bare}"])
def test_if_none_match_takes_a_list_star_and_strong_spellings(api, header):
    ann, bob, game = started(api)
    tag = api.get(f"/v1/games/{game['game_id']}", key=bob["api_key"]).headers["etag"]
    sent = header.format(tag=tag, bare=tag.removeprefix("W/"))
    assert api.get(f"/v1/games/{game['game_id']}", key=bob["api_key"], headers={"If-None-Match": sent}).status == 304


def test_a_move_gives_a_new_tag_and_the_whole_view(api):
    ann, bob, game = started(api)
    tag = api.get(f"/v1/games/{game['game_id']}", key=bob["api_key"]).headers["etag"]
    view = api.view(ann, game["game_id"])
    step = next(s for s in view["legal_steps"] if s["type"] == "play")
    assert api.act(ann, game["game_id"], view["version"], step).status == 200
    after = api.get(f"/v1/games/{game['game_id']}", key=bob["api_key"], headers={"If-None-Match": tag})
    assert after.status == 200 and after.body["version"] == view["version"] + 1 and after.headers["etag"] != tag


def test_each_seat_has_its_own_tag_so_one_players_tag_never_answers_for_another(api):
    ann, bob, game = started(api)
    ann_tag = api.get(f"/v1/games/{game['game_id']}", key=ann["api_key"]).headers["etag"]
    bob_reply = api.get(f"/v1/games/{game['game_id']}", key=bob["api_key"], headers={"If-None-Match": ann_tag})
    assert bob_reply.status == 200 and bob_reply.headers["etag"] != ann_tag and bob_reply.body["you"] == 2


def test_a_view_that_changes_without_a_new_version_gets_a_new_tag(api):
    ann, bob, game = started(api, time_control={"per_move_days": 3})
    before = api.get(f"/v1/games/{game['game_id']}", key=bob["api_key"])
    assert api.post("/v1/players/me/vacation", {"days": 2}, key=ann["api_key"]).status == 200
    after = api.get(f"/v1/games/{game['game_id']}", key=bob["api_key"], headers={"If-None-Match": before.headers["etag"]})
    assert after.status == 200 and after.body["version"] == before.body["version"]
    assert after.body["clock"] != before.body["clock"] and after.headers["etag"] != before.headers["etag"]


def test_a_running_clocks_seconds_alone_do_not_change_the_tag():
    view = {"version": 3, "clock": {"seats": [
        {"seat": 1, "time_left_seconds": 259200, "running": True, "deadline": "2026-03-04T12:00:00.000Z"},
        {"seat": 2, "time_left_seconds": 259200, "running": False, "deadline": None}]}}
    later = {"version": 3, "clock": {"seats": [
        {"seat": 1, "time_left_seconds": 259140, "running": True, "deadline": "2026-03-04T12:00:00.000Z"},
        {"seat": 2, "time_left_seconds": 259200, "running": False, "deadline": None}]}}
    moved = {**later, "clock": {"seats": [later["clock"]["seats"][0], {**later["clock"]["seats"][1],
                                                                     "time_left_seconds": 1}]}}
    assert entity_tag(view) == entity_tag(later) != entity_tag(moved)


def test_refusals_and_other_operations_carry_no_tag(api):
    ann, bob, game = started(api)
    assert "etag" not in api.get("/v1/games/nope", key=ann["api_key"], headers={"If-None-Match": "*"}).headers
    assert "etag" not in api.get(f"/v1/games/{game['game_id']}/events", key=ann["api_key"]).headers


def test_the_board_pages_view_is_tagged_too(api):
    ann, bob, game = started(api)
    link = api.get(f"/v1/games/{game['game_id']}/board-link", key=ann["api_key"]).body["url"]
    parts = urlsplit(link)
    path = f"{parts.path}/view?{parts.query}"
    first = api.get(path)
    assert first.status == 200 and first.headers["etag"]
    assert api.get(path, headers={"If-None-Match": first.headers["etag"]}).status == 304
