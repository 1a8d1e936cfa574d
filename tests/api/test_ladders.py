"""Ladders (issue 22, item 8): standing and organised ladders, joining at the bottom, challenges
at most N places above with at most K open each, results that move one rung, declining or not
answering as a loss, idle players leaving, and what the players are told. The races run on
DynamoDB Local (the integration tier)."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import yaml
from chalice.test import Client

import app as app_module
from chalicelib.config import build_services
from chalicelib.http.models import ChallengeRequest, CreatePlayerRequest
from chalicelib.notify.dispatcher import Outlets
from chalicelib.notify.webhooks import SendResult
from chalicelib.store import keys

from ..conftest import LINKS, ApiClient
from ..fakes import FakeClock
from .test_contract import problem_of

START = datetime(2026, 5, 4, 9, 0, tzinfo=timezone.utc)
DAY = timedelta(days=1)


class Outbox:
    def __init__(self):
        self.sent = []

    def send(self, message):
        self.sent.append(message)


@pytest.fixture
def world(store, monkeypatch):
    """The API on a fake clock, its email kept in ``world.mail`` and its webhook posts in ``world.posts``."""
    clock = FakeClock(START)
    mail, posts = Outbox(), []

    def send(target, body, headers, timeout=None):
        posts.append(json.loads(body))
        return SendResult(200)

    services = build_services(store, clock=clock,
                              outlets=Outlets(links=LINKS, mailer=mail, send=send, allow_private=True))
    monkeypatch.setattr(app_module.api, "services", lambda: services)
    with Client(app_module.app) as client:
        api = ApiClient(client, store)
        api.services, api.clock, api.mail, api.posts = services, clock, mail, posts
        yield api


def signup(api, name):
    reply = api.post("/v1/players", {"name": name, "email": f"{name.lower()}@example.org"})
    assert reply.status == 201, reply.body
    return reply.body


def make_ladder(api, organiser, **rules):
    reply = api.post("/v1/ladders", {"name": "Club ladder", "game": "battleline",
                                     "options": {"time_control": {"per_move_days": 2}}, **rules},
                     key=organiser["api_key"])
    assert reply.status == 201, reply.body
    return reply.body["id"]


def ladder_of(api, ladder_id):
    reply = api.get(f"/v1/ladders/{ladder_id}")
    assert reply.status == 200, reply.body
    return reply.body


def order(api, ladder_id):
    return [p["name"] for p in ladder_of(api, ladder_id)["players"]]


def joined(api, ladder_id, *names):
    players = []
    for name in names:
        player = signup(api, name)
        assert api.post(f"/v1/ladders/{ladder_id}/join", key=player["api_key"]).status == 200
        players.append(player)
    return players


def challenge(api, ladder_id, challenger, target):
    return api.post(f"/v1/ladders/{ladder_id}/challenges", {"player_id": target["id"]}, key=challenger["api_key"])


def challenged(api, ladder_id, challenger, target):
    reply = challenge(api, ladder_id, challenger, target)
    assert reply.status == 201, reply.body
    return reply.body["game_id"]


def resign(api, player, game_id):
    view = api.view(player, game_id)
    reply = api.act(player, game_id, view["version"], {"type": "resign"})
    assert reply.status == 200, reply.body


def settle(api):
    """What the stream consumer does a moment later: the finished game's message settles the ladder,
    whose result item then carries the players' messages."""
    for _round in range(3):
        api.services.dispatcher.drain_outbox()


# ---------------------------------------------------------------- ladders and joining

def test_standing_ladder_per_game_exists_without_anyone_creating_it(world):
    listed = world.get("/v1/ladders").body["ladders"]
    assert [(ladder["id"], ladder["standing"]) for ladder in listed] == [("battleline", True), ("khan", True)]
    assert ladder_of(world, "battleline")["players"] == []
    ann, bob = joined(world, "battleline", "Ann", "Bob")
    shown = ladder_of(world, "battleline")
    assert shown["name"] == "Battle Line ladder" and shown["organiser"] is None
    assert [p["name"] for p in shown["players"]] == ["Ann", "Bob"]
    assert [ladder["id"] for ladder in world.get("/v1/ladders").body["ladders"]] == ["battleline", "khan"]
    problem_of(world.get("/v1/ladders/nowhere"), 404, "ladder_not_found")
    problem_of(world.get("/v1/ladders/" + "x" * 3000), 404, "ladder_not_found")  # never a key DynamoDB refuses


def test_create_ladder_with_its_rules_and_list_it(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org, max_places_above=2, max_open_challenges=1, response_days=5, idle_days=9)
    shown = ladder_of(world, ladder_id)
    assert (shown["name"], shown["organiser"], shown["standing"]) == ("Club ladder", org["id"], False)
    assert (shown["max_places_above"], shown["max_open_challenges"], shown["response_days"],
            shown["idle_days"]) == (2, 1, 5, 9)
    assert shown["options"]["time_control"] == {"per_move_days": 2}
    assert ladder_id in [ladder["id"] for ladder in world.get("/v1/ladders").body["ladders"]]
    bad = world.post("/v1/ladders", {"name": "X", "game": "battleline", "options": {"players": 3}},
                     key=org["api_key"])
    problem_of(bad, 422, "invalid_options")
    problem_of(world.post("/v1/ladders", {"name": "X", "game": "battleline", "max_places_above": 0},
                          key=org["api_key"]), 422, "invalid_request")


def test_create_ladder_documents_invalid_deck_and_unknown_card_set(world):
    """A Khan ladder's options are checked as a game's are: a bad deck or card set is refused with
    the code openapi.yaml lists for createLadder (schemathesis found invalid_deck undocumented)."""
    org = signup(world, "Org")
    for options, code in (({"decks": {"1": []}}, "invalid_deck"), ({"card_set": "nope"}, "unknown_card_set")):
        problem_of(world.post("/v1/ladders", {"name": "X", "game": "khan", "options": options},
                              key=org["api_key"]), 422, code)
    document = yaml.safe_load((Path(app_module.__file__).parent / "openapi.yaml").read_text())
    refused = document["paths"]["/v1/ladders"]["post"]["responses"]["422"]["content"]["application/problem+json"]
    assert {"invalid_deck", "unknown_card_set"} <= set(refused["schema"]["properties"]["code"]["enum"])


def test_list_ladders_in_pages_standing_first(world):
    org = signup(world, "Org")
    made = []
    for n in range(3):
        made.append(make_ladder(world, org))
        world.clock.advance(timedelta(seconds=1))
    joined(world, "khan", "Ann")  # a standing ladder in use is listed once, as before
    first = world.get("/v1/ladders?limit=2").body
    assert [ladder["id"] for ladder in first["ladders"]] == ["battleline", "khan", made[2], made[1]]
    second = world.get(f"/v1/ladders?limit=2&cursor={first['next_cursor']}").body
    assert [ladder["id"] for ladder in second["ladders"]] == [made[0]] and second["next_cursor"] is None
    problem_of(world.get("/v1/ladders?cursor=nonsense"), 400, "invalid_cursor")


def test_join_enters_at_the_bottom_once(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org)
    ann, _bob, _cat = joined(world, ladder_id, "Ann", "Bob", "Cat")
    assert order(world, ladder_id) == ["Ann", "Bob", "Cat"]
    assert [p["rank"] for p in ladder_of(world, ladder_id)["players"]] == [1, 2, 3]
    problem_of(world.post(f"/v1/ladders/{ladder_id}/join", key=ann["api_key"]), 409, "already_on_ladder")
    problem_of(world.post("/v1/ladders/nowhere/join", key=ann["api_key"]), 404, "ladder_not_found")


def test_ladder_shows_rank_player_rating_and_open_challenges(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org)
    ann, bob = joined(world, ladder_id, "Ann", "Bob")
    game_id = challenged(world, ladder_id, bob, ann)
    shown = ladder_of(world, ladder_id)
    assert [(p["rank"], p["player_id"], p["name"], p["rating"], p["open_challenges"]) for p in shown["players"]] == [
        (1, ann["id"], "Ann", 1500, 1), (2, bob["id"], "Bob", 1500, 1)]
    [open_challenge] = shown["challenges"]
    assert open_challenge["game_id"] == game_id
    assert open_challenge["challenger"] == {"player_id": bob["id"], "name": "Bob", "rank": 2}
    assert open_challenge["challenged"] == {"player_id": ann["id"], "name": "Ann", "rank": 1}
    assert open_challenge["respond_by"] == "2026-05-07T09:00:00.000Z"


# ---------------------------------------------------------------- challenges

def test_challenge_makes_its_game_at_once_waiting_for_the_challenged_with_the_ladders_time_control(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org)
    ann, bob = joined(world, ladder_id, "Ann", "Bob")
    reply = challenge(world, ladder_id, bob, ann)
    assert reply.status == 201, reply.body
    game = reply.body["game"]
    assert game["game_id"] == reply.body["game_id"] and game["status"] == "waiting" and game["rated"] is True
    assert game["options"]["time_control"] == {"per_move_days": 2}
    assert [(s["player_id"], s["invited"]) for s in game["seats"]] == [(ann["id"], True), (bob["id"], False)]
    accepted = world.post(f"/v1/games/{game['game_id']}/accept", key=ann["api_key"])
    assert accepted.status == 200 and accepted.body["status"] == "active"


def test_challenge_at_most_n_places_above(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org, max_places_above=2)
    ann, bob, cat, dan = joined(world, ladder_id, "Ann", "Bob", "Cat", "Dan")
    refused = problem_of(challenge(world, ladder_id, dan, ann), 422, "too_far_above")
    assert refused["max_places_above"] == 2
    assert challenge(world, ladder_id, dan, bob).status == 201
    problem_of(challenge(world, ladder_id, bob, cat), 422, "not_above")
    problem_of(challenge(world, ladder_id, bob, bob), 422, "not_above")
    eve = signup(world, "Eve")
    problem_of(challenge(world, ladder_id, eve, cat), 409, "not_on_ladder")
    problem_of(challenge(world, ladder_id, cat, eve), 422, "player_not_on_ladder")


def test_at_most_k_open_challenges_each(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org, max_places_above=5, max_open_challenges=1)
    ann, bob, cat, dan = joined(world, ladder_id, "Ann", "Bob", "Cat", "Dan")
    challenged(world, ladder_id, dan, bob)
    mine = problem_of(challenge(world, ladder_id, dan, ann), 409, "too_many_challenges")
    assert mine["player_id"] == dan["id"]
    theirs = problem_of(challenge(world, ladder_id, cat, bob), 409, "too_many_challenges")
    assert theirs["player_id"] == bob["id"]
    assert challenge(world, ladder_id, cat, ann).status == 201


def test_a_pair_has_one_open_challenge(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org)
    ann, bob = joined(world, ladder_id, "Ann", "Bob")
    challenged(world, ladder_id, bob, ann)
    problem_of(challenge(world, ladder_id, bob, ann), 409, "already_challenged")


def test_challenge_is_idempotent(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org)
    ann, bob = joined(world, ladder_id, "Ann", "Bob")
    first = world.post(f"/v1/ladders/{ladder_id}/challenges", {"player_id": ann["id"]}, key=bob["api_key"],
                       headers={"Idempotency-Key": "k1"})
    again = world.post(f"/v1/ladders/{ladder_id}/challenges", {"player_id": ann["id"]}, key=bob["api_key"],
                       headers={"Idempotency-Key": "k1"})
    assert first.status == again.status == 201 and again.body == first.body
    assert len(ladder_of(world, ladder_id)["challenges"]) == 1


# ---------------------------------------------------------------- results

def rung_keys(store, ladder_id):
    """The ladder's rung items as stored: sort key -> player."""
    items = store.client.query(TableName=store.table, KeyConditionExpression="PK = :pk AND begins_with(SK, :r)",
                               ExpressionAttributeValues={":pk": {"S": keys.ladder_pk(ladder_id)},
                                                          ":r": {"S": keys.RUNG_PREFIX}}, ConsistentRead=True)["Items"]
    return {item["SK"]["S"]: item["player_id"]["S"] for item in items}


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_winner_takes_the_losers_place_and_everyone_between_moves_down_one_rung_item_changed(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org, max_places_above=3)
    ann, bob, cat, dan, eve = joined(world, ladder_id, "Ann", "Bob", "Cat", "Dan", "Eve")
    before = rung_keys(world.services.store, ladder_id)
    game_id = challenged(world, ladder_id, eve, bob)
    world.post(f"/v1/games/{game_id}/accept", key=bob["api_key"])
    resign(world, bob, game_id)
    settle(world)
    assert order(world, ladder_id) == ["Ann", "Eve", "Bob", "Cat", "Dan"]
    after = rung_keys(world.services.store, ladder_id)
    assert {k: p for k, p in after.items() if p != eve["id"]} == {k: p for k, p in before.items() if p != eve["id"]}
    shown = ladder_of(world, ladder_id)
    assert shown["challenges"] == [] and all(p["open_challenges"] == 0 for p in shown["players"])
    settle(world)
    world.services.ladders.settle(world.services.moves.find(game_id))  # a repeated message moves nothing
    assert order(world, ladder_id) == ["Ann", "Eve", "Bob", "Cat", "Dan"]


def ladder_items(store, ladder_id):
    return store.client.query(TableName=store.table, KeyConditionExpression="PK = :pk", ConsistentRead=True,
                              ExpressionAttributeValues={":pk": {"S": keys.ladder_pk(ladder_id)}})["Items"]


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_a_move_never_writes_a_ladder_item(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org, options={"first_seat": 2})
    ann, bob = joined(world, ladder_id, "Ann", "Bob")
    game_id = challenged(world, ladder_id, bob, ann)
    before = ladder_items(world.services.store, ladder_id)
    world.post(f"/v1/games/{game_id}/accept", key=ann["api_key"])
    view = world.view(bob, game_id)
    play = next(s for s in view["legal_steps"] if s["type"] == "play")
    assert world.act(bob, game_id, view["version"], play).status == 200
    settle(world)  # the consumer too: heads, lists, notifications
    assert ladder_items(world.services.store, ladder_id) == before


def test_challenger_who_loses_moves_nothing(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org)
    ann, bob, cat = joined(world, ladder_id, "Ann", "Bob", "Cat")
    game_id = challenged(world, ladder_id, cat, ann)
    world.post(f"/v1/games/{game_id}/accept", key=ann["api_key"])
    resign(world, cat, game_id)
    settle(world)
    assert order(world, ladder_id) == ["Ann", "Bob", "Cat"]
    assert ladder_of(world, ladder_id)["challenges"] == []
    assert challenge(world, ladder_id, cat, ann).status == 201  # the pair may meet again


def test_declining_a_challenge_counts_as_a_loss(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org)
    ann, bob, cat = joined(world, ladder_id, "Ann", "Bob", "Cat")
    game_id = challenged(world, ladder_id, cat, ann)
    assert world.post(f"/v1/games/{game_id}/decline", key=ann["api_key"]).status == 200
    settle(world)
    assert order(world, ladder_id) == ["Cat", "Ann", "Bob"]
    assert all(p["open_challenges"] == 0 for p in ladder_of(world, ladder_id)["players"])


def test_not_answering_within_response_days_counts_as_a_loss(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org, response_days=3)
    ann, bob = joined(world, ladder_id, "Ann", "Bob")
    game_id = challenged(world, ladder_id, bob, ann)
    world.clock.advance(3 * DAY - timedelta(minutes=1))
    assert world.services.ladders.sweep() == {"lapsed": 0, "left": 0}
    world.clock.advance(timedelta(minutes=2))
    assert world.services.ladders.sweep()["lapsed"] == 1
    settle(world)
    ended = world.view(bob, game_id)
    assert ended["status"] == "finished" and ended["result"]["reason"] == "declined" and ended["result"]["lapsed"]
    assert order(world, ladder_id) == ["Bob", "Ann"]
    told = [m for m in world.mail.sent if m["To"] == "bob@example.org" and "_finished_" in m["X-Battleline-Message"]]
    assert told[-1].get_body(("plain",)).get_content().startswith(
        "Ann did not answer in time: the game counts as declined.")


def test_an_accepted_challenge_does_not_lapse(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org, response_days=1)
    ann, bob = joined(world, ladder_id, "Ann", "Bob")
    game_id = challenged(world, ladder_id, bob, ann)
    world.post(f"/v1/games/{game_id}/accept", key=ann["api_key"])
    world.clock.advance(2 * DAY)
    assert world.services.ladders.sweep()["lapsed"] == 0
    assert world.view(ann, game_id)["status"] == "active"


def test_challenger_calling_the_game_off_counts_for_nothing(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org)
    ann, bob = joined(world, ladder_id, "Ann", "Bob")
    game_id = challenged(world, ladder_id, bob, ann)
    assert world.post(f"/v1/games/{game_id}/abort", key=bob["api_key"]).status == 200
    settle(world)
    assert order(world, ladder_id) == ["Ann", "Bob"]
    assert ladder_of(world, ladder_id)["challenges"] == []


def test_challenged_calling_the_game_off_counts_as_a_loss(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org)
    ann, bob = joined(world, ladder_id, "Ann", "Bob")
    game_id = challenged(world, ladder_id, bob, ann)
    world.post(f"/v1/games/{game_id}/accept", key=ann["api_key"])
    assert world.post(f"/v1/games/{game_id}/abort", key=ann["api_key"]).status == 200
    settle(world)
    assert order(world, ladder_id) == ["Bob", "Ann"]


# ---------------------------------------------------------------- idle players

def test_idle_player_leaves_the_ladder(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org, idle_days=10, options={})  # no clock: the game waits for its moves
    ann, bob, cat, dan = joined(world, ladder_id, "Ann", "Bob", "Cat", "Dan")
    world.clock.advance(6 * DAY)
    game_id = challenged(world, ladder_id, dan, cat)  # Cat and Dan played since
    world.post(f"/v1/games/{game_id}/accept", key=cat["api_key"])
    world.clock.advance(4 * DAY - timedelta(minutes=1))
    assert world.services.ladders.sweep()["left"] == 0
    world.clock.advance(timedelta(minutes=2))
    assert world.services.ladders.sweep()["left"] == 2
    assert order(world, ladder_id) == ["Cat", "Dan"]
    world.clock.advance(20 * DAY)  # both idle, but their challenge is open: they stay until it ends
    world.services.ladders.sweep()
    assert order(world, ladder_id) == ["Cat", "Dan"]
    resign(world, dan, game_id)
    settle(world)
    world.clock.advance(10 * DAY + timedelta(minutes=1))
    world.services.ladders.sweep()
    assert order(world, ladder_id) == []


# ---------------------------------------------------------------- notifications

def test_challenge_and_rank_change_are_told_by_email_and_webhook(world, monkeypatch):
    monkeypatch.setenv("ALLOW_PRIVATE_WEBHOOKS", "1")  # the posts are caught before they leave (world.posts)
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org)
    ann, bob = joined(world, ladder_id, "Ann", "Bob")
    for player in (ann, bob):
        hook = world.post("/v1/webhooks", {"url": "http://127.0.0.1:9/hook"}, key=player["api_key"])
        assert hook.status == 201, hook.body
    game_id = challenged(world, ladder_id, bob, ann)
    settle(world)
    invited = [m for m in world.mail.sent if m["To"] == "ann@example.org"]
    text = invited[-1].get_body(("plain",)).get_content()
    assert "Bob challenges you on the Club ladder: a game of Battle Line." in text
    assert "Accept by 2026-05-07 09:00 UTC; declining or not answering counts as a loss." in text
    posted = [p for p in world.posts if p["type"] == "game.invited" and p["data"]["seat"] == 1]
    assert posted[-1]["data"]["ladder"] == {"id": ladder_id, "name": "Club ladder",
                                            "respond_by": "2026-05-07T09:00:00.000Z"}

    world.post(f"/v1/games/{game_id}/decline", key=ann["api_key"])
    settle(world)
    told = {p["data"]["seat"]: p["data"] for p in world.posts if p["type"] == "ladder.rank_changed"}
    assert (told[2]["rank_before"], told[2]["rank"]) == (2, 1) and (told[1]["rank_before"], told[1]["rank"]) == (1, 2)
    assert told[1]["ladder"] == {"id": ladder_id, "name": "Club ladder"}
    rank_mail = [m for m in world.mail.sent if m["X-Battleline-Message"] == f"msg_{game_id}_ladder_1"]
    assert "Club ladder: you are now number 2 (you were number 1)." in rank_mail[0].get_body(("plain",)).get_content()


# ---------------------------------------------------------------- races (DynamoDB Local)

def race_world(store):
    services = build_services(store, clock=FakeClock(START), outlets=Outlets(links=LINKS))
    return services


def players(services, ladder_id, *names):
    made = []
    for name in names:
        player = services.players.authenticate(services.players.create_player(
            CreatePlayerRequest(name=name), None).body["api_key"])
        services.ladders.join(services.store.get_player(player.id), ladder_id)
        made.append(player)
    return made


def attempt(call):
    try:
        return call()
    except Exception as error:  # noqa: BLE001 - the refusal's code is what the race test counts
        return getattr(error, "code", repr(error))


def test_concurrent_challenges_never_exceed_k_or_repeat_a_pair(store, concurrent):
    services = race_world(store)
    ladder_id = "battleline"
    top = players(services, ladder_id, "Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    fay = services.store.get_player(top[-1].id)
    with ThreadPoolExecutor(max_workers=5) as pool:
        results = list(pool.map(lambda target: attempt(lambda: services.ladders.challenge(
            fay, ladder_id, ChallengeRequest(player_id=target.id), None)), top[:-1]))
    assert sum(not isinstance(r, str) for r in results) == 3  # K = 3 on the standing ladder
    assert all(r == "too_many_challenges" for r in results if isinstance(r, str))
    board = services.store.load_ladder(ladder_id)
    assert board.rung_of(fay.id).open_challenges == 3 and len(board.challenges) == 3

    eve = services.store.get_player(top[4].id)
    dan = top[3]
    barrier = threading.Barrier(4)

    def same_pair():
        barrier.wait()
        return attempt(lambda: services.ladders.challenge(eve, ladder_id, ChallengeRequest(player_id=dan.id), None))

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _n: same_pair(), range(4)))
    assert sum(not isinstance(r, str) for r in results) == 1
    assert {r for r in results if isinstance(r, str)} <= {"already_challenged", "too_many_challenges"}


def test_concurrent_results_never_duplicate_or_lose_a_rung(store, concurrent):
    services = race_world(store)
    ladder_id = "battleline"
    everyone = players(services, ladder_id, *[f"P{n}" for n in range(8)])
    records = [services.store.get_player(p.id) for p in everyone]
    # P4 challenges P1, P5 P2, P6 P3, P7 P4: four results settle at once; all challengers win.
    games = []
    for low, high in ((4, 1), (5, 2), (6, 3), (7, 4)):
        games.append((services.ladders.challenge(records[low], ladder_id, ChallengeRequest(
            player_id=records[high].id), None).body["game_id"], high))
    for game_id, high in games:
        services.lobby.decline(records[high], game_id)
    finished = [services.moves.find(game_id) for game_id, _high in games]
    barrier = threading.Barrier(len(finished))

    def settle_one(game):
        barrier.wait()
        return attempt(lambda: services.ladders.settle(game))

    with ThreadPoolExecutor(max_workers=len(finished)) as pool:
        assert list(pool.map(settle_one, finished)) == [None] * len(finished)
    with ThreadPoolExecutor(max_workers=len(finished)) as pool:  # and again: nothing moves twice
        barrier = threading.Barrier(len(finished))
        list(pool.map(settle_one, finished))
    board = services.store.load_ladder(ladder_id)
    ranked = [r.player_id for r in board.rungs]
    assert sorted(ranked) == sorted(p.id for p in everyone)  # every player once
    assert len(rung_keys(store, ladder_id)) == 8 and board.challenges == []
    names = [r.name for r in board.rungs]
    assert names.index("P4") < names.index("P1") and names.index("P5") < names.index("P2")
    assert names.index("P6") < names.index("P3") and names[0] == "P0"


def test_concurrent_joins_give_each_player_one_rung(store, concurrent):
    services = race_world(store)
    made = [services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=f"J{n}"), None).body["api_key"]) for n in range(6)]
    entrants = [services.store.get_player(p.id) for p in made] + [services.store.get_player(made[0].id)] * 2
    barrier = threading.Barrier(len(entrants))

    def join(player):
        barrier.wait()
        return attempt(lambda: services.ladders.join(player, "khan"))

    with ThreadPoolExecutor(max_workers=len(entrants)) as pool:
        results = list(pool.map(join, entrants))
    assert [r for r in results if isinstance(r, str)] == ["already_on_ladder"] * 2
    board = services.store.load_ladder("khan")
    assert sorted(r.player_id for r in board.rungs) == sorted(p.id for p in made)
    assert len(rung_keys(store, "khan")) == 6


def test_a_player_who_accepts_every_game_starts_a_challenge_at_once(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org, response_days=1)
    ann, bob = joined(world, ladder_id, "Ann", "Bob")
    world.accepting(ann)
    reply = challenge(world, ladder_id, bob, ann)
    assert reply.status == 201 and reply.body["game"]["status"] == "active"
    world.clock.advance(2 * DAY)
    assert world.services.ladders.sweep()["lapsed"] == 0
    assert len(ladder_of(world, ladder_id)["challenges"]) == 1


def test_issue36_item5_a_declined_ladder_challenge_sends_short_emails_without_a_board(world):
    org = signup(world, "Org")
    ladder_id = make_ladder(world, org)
    ann, bob = joined(world, ladder_id, "Ann", "Bob")
    game_id = challenged(world, ladder_id, bob, ann)
    settle(world)
    world.post(f"/v1/games/{game_id}/decline", key=ann["api_key"])
    settle(world)
    ids = {f"msg_{game_id}_ladder_1", f"msg_{game_id}_ladder_2"}
    about = [m for m in world.mail.sent if m["X-Battleline-Message"] in ids or "_finished_" in
             (m["X-Battleline-Message"] or "")]
    assert len(about) == 4  # each: the game declined, the rank changed
    for mail in about:
        text = mail.get_body(("plain",)).get_content()
        html = mail.get_body(("html",)).get_content()
        assert "Your hand" not in text + html and "Flag 1:" not in text and "(empty)" not in text, text
        assert "/board?seat=" in text  # the board page is a link away
    rank = next(m for m in about if m["X-Battleline-Message"] == f"msg_{game_id}_ladder_2")
    assert rank.get_body(("plain",)).get_content().startswith("Club ladder: you are now number 1 (you were number 2).")
