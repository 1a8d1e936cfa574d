"""Blocks (issue 23): blockPlayer / unblockPlayer / listBlocks. A blocked player cannot challenge
the blocker, take a seat in a game the blocker sits in, nor be seated by them (either block is
enough); their messages are not shown to the blocker; tournaments and ladders still pair them."""

import pytest

from .test_contract import problem_of


def block(api, who, whom):
    return api.request("PUT", f"/v1/players/me/blocks/{whom['id']}", key=who["api_key"])


def unblock(api, who, whom):
    return api.request("DELETE", f"/v1/players/me/blocks/{whom['id']}", key=who["api_key"])


def blocks(api, who):
    reply = api.get("/v1/players/me/blocks", key=who["api_key"])
    assert reply.status == 200, reply.body
    return [b["player_id"] for b in reply.body["blocks"]]


def challenge(api, creator, other):
    return api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": creator["id"]},
                                                                   {"player_id": other["id"]}]},
                    key=creator["api_key"])


@pytest.fixture
def people(api):
    return api.signup("Ann"), api.signup("Bob"), api.signup("Cy")


def test_block_is_listed_and_idempotent(api, people):
    ann, bob, _cy = people
    first = block(api, ann, bob)
    assert first.status == 200, first.body
    assert first.body["player_id"] == bob["id"] and first.body["name"] == "Bob" and first.body["blocked_at"]
    again = block(api, ann, bob)
    assert again.status == 200 and again.body == first.body
    assert blocks(api, ann) == [bob["id"]]
    assert blocks(api, bob) == []  # a block is the blocker's own: the blocked player is not told


def test_unblock_is_idempotent(api, people):
    ann, bob, _cy = people
    block(api, ann, bob)
    assert unblock(api, ann, bob).status == 204
    assert unblock(api, ann, bob).status == 204
    assert blocks(api, ann) == []
    assert challenge(api, bob, ann).status == 201


def test_blocking_an_unknown_player_is_404(api, people):
    ann, _bob, _cy = people
    problem_of(block(api, ann, {"id": "p_doesnotexist0000"}), 404, "unknown_player")
    problem_of(unblock(api, ann, {"id": "nonsense"}), 404, "unknown_player")


def test_cannot_block_yourself(api, people):
    ann, _bob, _cy = people
    problem_of(block(api, ann, ann), 422, "cannot_block_self")


def test_blocked_player_cannot_challenge_the_blocker(api, people):
    ann, bob, cy = people
    block(api, ann, bob)
    refused = problem_of(challenge(api, bob, ann), 403, "blocked")
    assert "Ann" not in refused["detail"] and "block" not in refused["detail"]  # who blocked whom is not said
    assert challenge(api, cy, ann).status == 201  # others still may


def test_blocks_work_either_way_round(api, people):
    """Decision: either block is enough, the blocker cannot seat the player they blocked either."""
    ann, bob, _cy = people
    block(api, ann, bob)
    problem_of(challenge(api, ann, bob), 403, "blocked")


def test_blocked_player_cannot_take_the_blockers_open_seat(api, people):
    ann, bob, cy = people
    made = api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": ann["id"]}, {"open": True}]},
                    key=ann["api_key"])
    assert made.status == 201, made.body
    block(api, ann, bob)
    problem_of(api.post(f"/v1/games/{made.body['game_id']}/join", key=bob["api_key"]), 403, "blocked")
    assert api.post(f"/v1/games/{made.body['game_id']}/join", key=cy["api_key"]).status == 200


def test_blocker_cannot_take_the_blocked_players_open_seat(api, people):
    ann, bob, _cy = people
    made = api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": bob["id"]}, {"open": True}]},
                    key=bob["api_key"])
    block(api, ann, bob)
    problem_of(api.post(f"/v1/games/{made.body['game_id']}/join", key=ann["api_key"]), 403, "blocked")


def test_no_rematch_once_either_blocked_the_other(api, people):
    ann, bob, _cy = people
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    assert api.act(ann, game["game_id"], 0, {"type": "resign"}).status == 200
    block(api, bob, ann)
    problem_of(api.post(f"/v1/games/{game['game_id']}/rematch", key=ann["api_key"]), 403, "blocked")
    problem_of(api.post(f"/v1/games/{game['game_id']}/rematch", key=bob["api_key"]), 403, "blocked")


def test_blocked_players_messages_are_not_shown_to_the_blocker(api, people):
    ann, bob, _cy = people
    game = api.new_game(ann, [ann, bob], seed=7, options={"first_seat": 1})
    gid = game["game_id"]
    block(api, bob, ann)  # blocked in the middle of a game: the game goes on
    move = game["legal_steps"][0]
    sent = api.post(f"/v1/games/{gid}/actions", {"expected_version": 0, "steps": [move], "message": "gotcha"},
                    key=ann["api_key"])
    assert sent.status == 200, sent.body
    said = lambda body: [e for e in body["events"] if e["type"] == "message"]  # noqa: E731
    assert [e["data"]["text"] for e in said(api.get(f"/v1/games/{gid}/events", key=ann["api_key"]).body)] == ["gotcha"]
    assert said(api.get(f"/v1/games/{gid}/events", key=bob["api_key"]).body) == []
    assert api.view(bob, gid).get("messages", []) == []
    assert "gotcha" not in str(api.view(bob, gid))
    # Bob's own messages still reach Ann: a block hides what the blocked player says, not the blocker.
    bob_move = api.view(bob, gid)["legal_steps"][0]
    assert api.post(f"/v1/games/{gid}/actions", {"expected_version": 1, "steps": [bob_move], "message": "hm"},
                    key=bob["api_key"]).status == 200
    assert [m["text"] for m in api.view(ann, gid)["messages"]] == ["gotcha", "hm"]


def test_tournaments_still_pair_blocked_players(api, people):
    ann, bob, _cy = people
    block(api, ann, bob)
    made = api.post("/v1/tournaments", {"name": "Cup", "game": "battleline", "format": "round_robin",
                                        "max_players": 2}, key=ann["api_key"])
    assert made.status == 201, made.body
    tid = made.body["id"]
    for p in (ann, bob):
        assert api.post(f"/v1/tournaments/{tid}/join", key=p["api_key"]).status in (200, 201)
    started = api.post(f"/v1/tournaments/{tid}/start", key=ann["api_key"])
    assert started.status == 200, started.body
    games = api.get("/v1/games", key=ann["api_key"]).body["games"]
    assert len(games) == 1 and games[0]["status"] == "active"


def invite(api, creator, address):
    return api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": creator["id"]},
                                                                   {"email": address}]},
                    key=creator["api_key"])


def signup_with(api, name, address):
    reply = api.post("/v1/players", {"name": name, "email": address})
    assert reply.status == 201, reply.body
    return reply.body


def test_a_blocked_player_cannot_invite_you_by_email(api):
    """Issue 23: "a blocked player cannot invite you": an email seat whose address is a player's
    (the address lookup item, any case) is refused when either blocked the other, as a challenge is."""
    ann, bob = signup_with(api, "Ann", "ann@example.org"), api.signup("Bob")
    block(api, ann, bob)
    refused = problem_of(invite(api, bob, "ANN@Example.org"), 403, "blocked")
    assert refused == problem_of(challenge(api, bob, ann), 403, "blocked")  # the same refusal, no more said
    bob_with_address = signup_with(api, "Bob", "bob@example.org")
    block(api, bob_with_address, ann)
    problem_of(invite(api, ann, "bob@example.org"), 403, "blocked")  # either way round


def test_an_address_without_a_block_is_invited_as_before(api):
    """Decision: the check tells nothing of whether an address plays here: an unknown address, and
    a player's address with no block between them, are both invited (201) as before."""
    _ann, bob = signup_with(api, "Ann", "ann@example.org"), api.signup("Bob")
    cy = api.signup("Cy")
    block(api, cy, bob)  # a block between others does not matter
    for address in ("ann@example.org", "nobody@example.org"):
        made = invite(api, bob, address)
        assert made.status == 201, made.body
        assert made.body["status"] == "waiting"
