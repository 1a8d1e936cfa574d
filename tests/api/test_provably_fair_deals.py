"""Issue 23: provably fair deals. Every view commits to the deal from version 0 on (the SHA-256 of
"{game_id}:{seed}:{deal_salt}"); the seed and the salt are shown once the game is over, and must
hash to it. The salt is a secret until then (tests/mailplay/test_hidden_information.py scans every
email and page of whole games for it too)."""

import hashlib
import re
from dataclasses import replace

import pytest

from chalicelib.store import keys
from chalicelib.store.items import typed_key

HEX64 = re.compile(r"[0-9a-f]{64}")


def commitment_of(game_id: str, seed: int, salt: str) -> str:
    """How anyone checks it by hand: printf '%s' "g_x:123:abcd" | sha256sum"""
    return hashlib.sha256(f"{game_id}:{seed}:{salt}".encode("utf-8")).hexdigest()


def play_one(api, players: dict, game_id: str) -> dict:
    """One legal step (not a resignation) by the seat to move; the view after it."""
    view = api.view(players[api.view(players[1], game_id)["to_move"]], game_id)
    step = next(s for s in view["legal_steps"] if s["type"] != "resign")
    reply = api.act(players[view["you"]], game_id, view["version"], step)
    assert reply.status == 200, reply.body
    return reply.body["view"]


def test_the_deal_commitment_is_shown_from_version_0_and_never_changes(api):
    ann, bob, eve = api.signup("Ann"), api.signup("Bob"), api.signup("Eve")
    game = api.new_game(ann, [ann, bob], public=True)
    gid, commitment = game["game_id"], game["deal_commitment"]
    assert game["version"] == 0 and HEX64.fullmatch(commitment)
    assert game["seed"] is None and game["deal_salt"] is None
    players = {1: ann, 2: bob}
    for _ in range(3):
        view = play_one(api, players, gid)
        assert view["deal_commitment"] == commitment and view["deal_salt"] is None and view["seed"] is None
    watched = api.view(eve, gid)  # a spectator sees the same commitment, and no secret
    assert watched["deal_commitment"] == commitment and watched["deal_salt"] is None
    assert api.view(bob, gid)["deal_commitment"] == commitment


def test_a_finished_games_seed_and_salt_hash_to_its_commitment(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob])
    commitment = game["deal_commitment"]
    reply = api.act(bob, game["game_id"], 0, {"type": "resign"})
    view = reply.body["view"]
    assert view["status"] == "finished" and view["deal_commitment"] == commitment
    salt = view["deal_salt"]
    assert re.fullmatch(r"[0-9a-f]{32,}", salt)  # at least 128 random bits
    assert commitment_of(game["game_id"], view["seed"], salt) == commitment
    assert api.view(ann, game["game_id"])["deal_salt"] == salt


def test_an_explicit_seed_is_shown_but_the_salt_stays_secret_until_the_end(api, two):
    ann, bob, game = two
    assert game["seed"] == 7 and game["deal_salt"] is None
    view = api.act(ann, game["game_id"], 0, {"type": "resign"}).body["view"]
    assert commitment_of(game["game_id"], 7, view["deal_salt"]) == game["deal_commitment"]


def test_every_game_draws_its_own_salt(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    one, two = (api.new_game(ann, [ann, bob], seed=99) for _ in range(2))
    assert one["deal_commitment"] != two["deal_commitment"]  # same seed, other game and salt
    salts = {api.act(ann, g["game_id"], 0, {"type": "resign"}).body["view"]["deal_salt"] for g in (one, two)}
    assert len(salts) == 2


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_a_game_stored_before_deals_were_committed_to_shows_no_commitment(api, store):
    """Its settings item has no salt: the view says null for the commitment and the salt, before
    and after the end (the seed is still shown once it ends, as before)."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = api.new_game(ann, [ann, bob])["game_id"]
    store.client.update_item(TableName=store.table, Key=typed_key(keys.settings(gid)), UpdateExpression="REMOVE deal_salt")
    view = api.view(ann, gid)
    assert view["deal_commitment"] is None and view["deal_salt"] is None
    view = api.act(bob, gid, 0, {"type": "resign"}).body["view"]
    assert view["status"] == "finished" and view["seed"] is not None
    assert view["deal_commitment"] is None and view["deal_salt"] is None


def test_a_duplicate_board_of_an_unknown_round_never_shows_its_salt(api, services):
    """A duplicate round's boards share one seed: like the seed, the salt of a finished board stays
    hidden until its round is over (the commitment is still shown); a round its tournament does not
    list is never over (tests/api/test_tournaments.py shows the deal once the round ends)."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = api.new_game(ann, [ann, bob])["game_id"]
    api.act(bob, gid, 0, {"type": "resign"})
    game = services.moves.find(gid)
    board = replace(game, seed_withheld=True, tournament_id="t_x")
    view = services.games.view(board, 1)
    assert view["status"] == "finished" and view["seed"] is None and view["deal_salt"] is None
    assert view["deal_commitment"] == commitment_of(gid, game.seed, game.deal_salt)
