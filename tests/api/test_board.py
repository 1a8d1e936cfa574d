"""The board in a browser, through the API: a seat's signed link plays as that seat; a public
game's board is open to anyone, and shows no hand."""

from __future__ import annotations

from urllib.parse import urlsplit


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def test_a_seats_board_link_shows_its_hand_and_plays_its_steps(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    link = api.get(f"/v1/games/{game['game_id']}/board-link", key=ann["api_key"]).body
    assert link["seat"] == 1
    page = api.get(path_of(link["url"]))
    assert page.status == 200 and "<svg" in page.body and "Your move" in page.body
    view_path = path_of(link["url"]).replace("/board?", "/board/view?")
    view = api.get(view_path).body
    assert view["hand"] == game["state"]["hand"] and view["you"] == 1
    step = next(c["step"] for c in view["steps"] if c["step"]["type"] == "play")
    played = api.post(view_path.replace("/board/view?", "/board/steps?"), {"expected_version": 0, "step": step})
    assert played.status == 200 and played.body["version"] == 1
    stale = api.post(view_path.replace("/board/view?", "/board/steps?"), {"expected_version": 0, "step": step})
    assert stale.status == 409 and stale.body["code"] == "version_conflict"


def test_a_private_games_board_needs_a_seats_link(api):
    ann, bob, cat = api.signup("Ann"), api.signup("Bob"), api.signup("Cat")
    game = api.new_game(ann, [ann, bob])
    assert api.get(f"/v1/games/{game['game_id']}/board/view").body["code"] == "game_not_public"
    assert api.get(f"/v1/games/{game['game_id']}/board").status == 403
    reply = api.get(f"/v1/games/{game['game_id']}/board-link", key=cat["api_key"])
    assert reply.status == 403 and reply.body["code"] == "not_seated"
    forged = api.get(f"/v1/games/{game['game_id']}/board/view?seat=abc.def.ghi")
    assert forged.status == 403 and forged.body["code"] == "invalid_link"


def test_a_public_games_board_shows_no_hand_and_no_steps(api):
    ann, bob, cat = api.signup("Ann"), api.signup("Bob"), api.signup("Cat")
    game = api.new_game(ann, [ann, bob], public=True)
    link = api.get(f"/v1/games/{game['game_id']}/board-link", key=cat["api_key"]).body
    assert link["seat"] is None
    view = api.get(path_of(link["url"]).replace("/board", "/board/view")).body
    assert view["hand"] == [] and view["steps"] == [] and view["you"] is None
    assert not any(card in view["svg"] or card in view["text"] for card in game["state"]["hand"])
    reply = api.post(f"/v1/games/{game['game_id']}/board/steps", {"expected_version": 0, "step": {"type": "pass"}})
    assert reply.status == 403 and reply.body["code"] == "not_seated"


def test_a_board_link_for_one_game_does_not_open_another(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    first, second = api.new_game(ann, [ann, bob]), api.new_game(ann, [ann, bob])
    link = api.get(f"/v1/games/{first['game_id']}/board-link", key=ann["api_key"]).body["url"]
    token = urlsplit(link).query.removeprefix("seat=")
    reply = api.get(f"/v1/games/{second['game_id']}/board/view?seat={token}")
    assert reply.status == 403 and reply.body["code"] == "invalid_link"


def test_a_khan_board_shows_the_field_and_plays_a_clicked_step(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], game="khan", options={"first_seat": 1}, public=True)
    link = api.get(f"/v1/games/{game['game_id']}/board-link", key=ann["api_key"]).body
    view_path = path_of(link["url"]).replace("/board?", "/board/view?")
    view = api.get(view_path).body
    assert view["game"] == "khan" and "<svg" in view["svg"] and view["headline"] == "Your move"
    place = next(c for c in view["steps"] if c["step"] == {"type": "place", "unit": "heavy_cavalry"})
    assert "heavy_cavalry" in place["label"]
    played = api.post(view_path.replace("/board/view?", "/board/steps?"), {"expected_version": 0, "step": place["step"]})
    assert played.status == 200 and played.body["version"] == 1 and played.body["headline"] == "Seat 2 is to move"
    watched = api.get(f"/v1/games/{game['game_id']}/board/view").body  # a spectator: no hand, no steps
    assert watched["version"] == 1 and watched["hand"] == [] and watched["steps"] == []
    commands = [card for card in played.body["hand"] if not card.endswith(("cavalry", "archers", "men"))]
    assert commands and not any(card in watched["svg"] or card in watched["text"] for card in commands)
