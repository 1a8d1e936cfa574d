"""Issue 34, item 1: a board link got with an API key (``getBoardLink``) ends when the player's
keys do: revoked, rotated (at the rotation, and again when the new key is first used) or
recovered. Every use of such a link is refused (the board page, its view, a step played on it, its
notes, its replay); a board link sent by email belongs to the mailbox and keeps working, as does a
spectator's (unsigned) board."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

import pytest

from tests.conftest import LINKS


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def revoke(api, player) -> None:
    assert api.request("DELETE", "/v1/players/me/api-key", key=player["api_key"]).status == 204


def rotate(api, player) -> str:
    reply = api.post("/v1/players/me/api-key", key=player["api_key"])
    assert reply.status == 201
    return reply.body["api_key"]


def board_link(api, player, game_id: str) -> str:
    reply = api.get(f"/v1/games/{game_id}/board-link", key=player["api_key"])
    assert reply.status == 200
    return path_of(reply.body["url"])


def uses(api, link: str, game: dict) -> dict:
    """Every use of a seat's board link: what each answers (status, and the code of a refusal)."""
    view = link.replace("/board?", "/board/view?")
    step = {"type": "play", "card": game["state"]["hand"][0], "flag": 1}
    answers = {
        "getBoard": api.get(link),
        "getBoardView": api.get(view),
        "playOnBoard": api.post(view.replace("/board/view?", "/board/steps?"), {"expected_version": 0, "step": step}),
        "getBoardNotes": api.get(view.replace("/board/view?", "/board/notes?")),
        "putBoardNotes": api.request("PUT", view.replace("/board/view?", "/board/notes?"), {"text": "mine"}),
        "getBoardReplay": api.get(link.replace("/board?", "/board/replay?")),
    }
    return {name: (reply.status, reply.body.get("code") if isinstance(reply.body, dict) else None)
            for name, reply in answers.items()}


REFUSED = {name: (403, "invalid_link") for name in ("getBoardView", "playOnBoard", "getBoardNotes", "putBoardNotes")}


def refused(answers: dict) -> bool:
    """Each JSON use is 403 invalid_link; the pages (board, replay) answer 403 too."""
    return all(answers[name] == expected for name, expected in REFUSED.items()) \
        and answers["getBoard"][0] == 403 and answers["getBoardReplay"][0] == 403


@pytest.fixture
def game(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    made = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    return ann, bob, made


def test_item1_a_board_link_still_plays_while_its_key_is_in_force(api, game):
    ann, _bob, made = game
    answers = uses(api, board_link(api, ann, made["game_id"]), made)
    assert answers["playOnBoard"][0] == 200 and answers["getBoardView"][0] == 200
    assert answers["getBoard"][0] == 200 and answers["getBoardReplay"][0] == 200


def test_item1_revoking_the_key_ends_its_board_links_every_use(api, game):
    ann, bob, made = game
    link = board_link(api, ann, made["game_id"])
    revoke(api, ann)
    assert refused(uses(api, link, made))
    assert api.view(bob, made["game_id"])["version"] == 0  # nothing was played with it


def test_item1_rotating_the_key_ends_the_board_links_got_before(api, game):
    ann, _bob, made = game
    link = board_link(api, ann, made["game_id"])
    rotate(api, ann)
    assert refused(uses(api, link, made))


def test_item1_a_board_link_got_with_the_old_key_during_a_rotation_ends_when_the_new_key_is_used(api, game):
    ann, _bob, made = game
    new_key = rotate(api, ann)
    during = board_link(api, ann, made["game_id"])  # the old key still works for 24 hours
    assert api.get(during.replace("/board?", "/board/view?")).status == 200
    assert api.get("/v1/players/me", key=new_key).status == 200  # the new key's first use ends the old one
    assert refused(uses(api, during, made))
    after = board_link(api, {"api_key": new_key}, made["game_id"])  # a link got with the new key plays
    assert uses(api, after, made)["playOnBoard"][0] == 200


def test_item1_recovering_the_account_ends_the_board_links_got_before(api, game, services):
    ann, _bob, made = game
    link = board_link(api, ann, made["game_id"])
    player = services.store.get_player(ann["id"])
    assert services.store.replace_api_keys(ann["id"], player.name, "0" * 64, "2026-01-01T00:00:00Z")
    assert refused(uses(api, link, made))


def test_item1_an_emailed_board_link_belongs_to_the_mailbox_and_outlives_revoking_and_rotating(api, game):
    ann, _bob, made = game
    emailed = path_of(LINKS.board_url(made["game_id"], 1))  # what a notification email carries
    rotate(api, ann)
    revoke(api, ann)
    answers = uses(api, emailed, made)
    assert answers["playOnBoard"][0] == 200 and answers["getBoardNotes"][0] == 200


def test_item1_a_spectators_board_link_is_not_bound_to_a_key(api):
    ann, bob, cat = api.signup("Ann"), api.signup("Bob"), api.signup("Cat")
    made = api.new_game(ann, [ann, bob], public=True)
    link = board_link(api, cat, made["game_id"])
    revoke(api, cat)
    assert api.get(link.replace("/board", "/board/view")).status == 200


def test_item1_a_board_link_does_not_play_for_whoever_holds_its_seat_later(api, game, services):
    """A key-bound link names its player: should the seat change hands, it no longer opens."""
    ann, _bob, made = game
    link = board_link(api, ann, made["game_id"])
    token = link.split("seat=", 1)[1]
    data = LINKS.read_board_link(unquote(token), made["game_id"])
    forged = path_of(LINKS.board_url(made["game_id"], 2, player_id=data.player_id,
                                     key_generation=data.key_generation))  # Ann's link for Bob's seat
    reply = api.get(forged.replace("/board?", "/board/view?"))
    assert reply.status == 403 and reply.body["code"] == "invalid_link"


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def answer_links_on_the_board(api, player, game_id: str) -> dict:
    """The accept and decline links the seat's board (got with the player's key) shows."""
    view = api.get(board_link(api, player, game_id).replace("/board?", "/board/view?")).body
    return {answer: urlsplit(link["url"]).path for answer, link in zip(("accept", "decline"), view["waiting"]["links"])}


@pytest.mark.parametrize("end", ["revoke", "rotate"])
def test_item1_the_answer_links_a_key_bound_board_showed_end_with_the_key(api, end):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], consent=False, options={"first_seat": 1})
    answers = answer_links_on_the_board(api, bob, game["game_id"])
    revoke(api, bob) if end == "revoke" else rotate(api, bob)
    for path in answers.values():
        reply = api.post(path, headers=FORM)
        assert reply.status == 403 and reply.body["code"] == "invalid_link"
    assert api.view(ann, game["game_id"])["status"] == "waiting"  # neither accepted nor declined


def test_item1_an_emailed_answer_link_belongs_to_the_mailbox_and_outlives_revoking(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], consent=False, options={"first_seat": 1})
    emailed = urlsplit(LINKS.answer_url(game["game_id"], 2, bob["id"], "accept")).path  # as the email carries it
    revoke(api, bob)
    assert api.post(emailed, headers=FORM).status == 200
    assert api.view(ann, game["game_id"])["status"] == "active"


def test_item1_a_key_bound_boards_answer_link_works_while_the_key_does(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], consent=False, options={"first_seat": 1})
    answers = answer_links_on_the_board(api, bob, game["game_id"])
    assert "Decline instead" in api.get(answers["accept"]).body
    assert api.post(answers["accept"], headers=FORM).status == 200
    assert api.view(ann, game["game_id"])["status"] == "active"
