"""Bot accounts (issue 23): a player made with ``bot: true`` is shown as a bot everywhere, and may
declare what it accepts (``bot_policy``); a game made for it outside the policy is refused with
422 ``bot_refuses``, saying why."""

from urllib.parse import urlsplit

import pytest
from chalice.test import Client

import app as app_module
from chalicelib.config import build_services
from chalicelib.notify.dispatcher import Outlets
from chalicelib.store.records import RatingRecord
from chalicelib.store import keys
from chalicelib.store.items import typed_key
from tests.conftest import LINKS, ApiClient
from tests.notify.helpers import Outbox, text_of

from .test_contract import problem_of


def signup_bot(api, name="Robo", policy=None):
    body = {"name": name, "bot": True, **({"bot_policy": policy} if policy is not None else {})}
    reply = api.post("/v1/players", body)
    assert reply.status == 201, reply.body
    assert reply.body["bot"] is True
    api.accepting(reply.body)
    return reply.body


def challenge(api, creator, bot, **extra):
    return api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": creator["id"]},
                                                                   {"player_id": bot["id"]}], **extra},
                    key=creator["api_key"])


def test_a_bot_account_is_shown_as_a_bot_everywhere(api):
    ann, robo = api.signup("Ann"), signup_bot(api)
    assert "bot" not in ann  # a person's profile reads as before
    assert api.get("/v1/players/me", key=robo["api_key"]).body["bot"] is True
    assert api.get(f"/v1/players/{robo['id']}", key=ann["api_key"]).body["bot"] is True
    assert "bot" not in api.get(f"/v1/players/{ann['id']}", key=robo["api_key"]).body
    game = challenge(api, ann, robo)
    assert game.status == 201, game.body
    assert [s.get("bot_account", False) for s in game.body["seats"]] == [False, True]
    assert [s.get("bot_account", False) for s in api.view(robo, game.body["game_id"])["seats"]] == [False, True]


def test_a_bot_account_taking_an_open_seat_is_shown_as_a_bot_in_the_lobby(api):
    ann, robo = api.signup("Ann"), signup_bot(api)
    made = api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": ann["id"]}, {"open": True}]},
                    key=ann["api_key"])
    joined = api.post(f"/v1/games/{made.body['game_id']}/join", key=robo["api_key"])
    assert joined.status == 200, joined.body
    assert [s.get("bot_account", False) for s in joined.body["seats"]] == [False, True]


def test_bot_policy_refuses_a_game_type_it_does_not_play(api):
    ann = api.signup("Ann")
    robo = signup_bot(api, policy={"games": ["khan"]})
    refused = problem_of(challenge(api, ann, robo), 422, "bot_refuses")
    assert refused["detail"] == "seat 2: this bot plays only khan"


@pytest.mark.parametrize("rated, policy, reason", [
    (True, "unrated", "this bot plays only unrated games"),
    (False, "rated", "this bot plays only rated games"),
])
def test_bot_policy_refuses_rated_or_unrated_games(api, rated, policy, reason):
    ann = api.signup("Ann")
    robo = signup_bot(api, policy={"rated": policy})
    refused = problem_of(challenge(api, ann, robo, rated=rated), 422, "bot_refuses")
    assert refused["detail"] == f"seat 2: {reason}"
    assert challenge(api, ann, robo, rated=not rated).status == 201


def test_bot_policy_refuses_time_controls_it_does_not_play(api):
    ann = api.signup("Ann")
    robo = signup_bot(api, policy={"time_controls": ["per_move"], "max_turn_days": 3})
    refused = problem_of(challenge(api, ann, robo), 422, "bot_refuses")
    assert "per_move" in refused["detail"] and "none" in refused["detail"]
    slow = {"time_control": {"per_move_days": 7}}
    refused = problem_of(challenge(api, ann, robo, options=slow), 422, "bot_refuses")
    assert refused["detail"] == "seat 2: this bot plays only games whose turns last at most 3 days"
    assert challenge(api, ann, robo, options={"time_control": {"per_move_days": 2}}).status == 201


def test_bot_policy_is_changed_through_preferences(api):
    ann, robo = api.signup("Ann"), signup_bot(api)
    assert challenge(api, ann, robo, rated=False).status == 201
    changed = api.request("PUT", "/v1/players/me/preferences", {"bot_policy": {"rated": "rated"}},
                          key=robo["api_key"])
    assert changed.status == 200, changed.body
    assert changed.body["bot_policy"]["rated"] == "rated"
    assert api.get("/v1/players/me/preferences", key=robo["api_key"]).body["bot_policy"]["rated"] == "rated"
    problem_of(challenge(api, ann, robo, rated=False), 422, "bot_refuses")


def test_only_a_bot_account_has_a_bot_policy(api):
    problem_of(api.post("/v1/players", {"name": "Ann", "bot_policy": {"rated": "any"}}), 422, "not_a_bot")
    ann = api.signup("Ann")
    problem_of(api.request("PUT", "/v1/players/me/preferences", {"bot_policy": {"rated": "any"}},
                           key=ann["api_key"]), 422, "not_a_bot")
    assert "bot_policy" not in api.get("/v1/players/me/preferences", key=ann["api_key"]).body


def test_a_bot_accounts_name_says_bot_on_the_board_page_and_in_emails(store, monkeypatch):
    """Issue 23, "shown as a bot everywhere": where people read a seat's name (the board page, the
    game's emails), a bot account's is "Robo (bot)"; a person's reads as before."""
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    monkeypatch.setattr(app_module.api, "services", lambda: services)
    with Client(app_module.app) as client:
        api = ApiClient(client, store)
        ann = api.post("/v1/players", {"name": "Ann", "email": "ann@example.org"}).body
        robo = signup_bot(api)
        game = challenge(api, ann, robo, options={"first_seat": 1})
        assert game.status == 201, game.body
        link = api.get(f"/v1/games/{game.body['game_id']}/board-link", key=ann["api_key"]).body
        page = api.get(urlsplit(link["url"]).path + "?" + urlsplit(link["url"]).query).body
        assert "Robo (bot)" in page and "Ann (bot)" not in page
        services.dispatcher.drain_outbox()
        mail = next(m for m in outbox.sent if m["To"] == "ann@example.org")
        assert "Robo (bot)" in mail["Subject"] and "Robo (bot)" in text_of(mail)
        with_language = api.request("PUT", "/v1/players/me/preferences", {"language": "ja"}, key=ann["api_key"])
        assert with_language.status == 200, with_language.body
        page = api.get(urlsplit(link["url"]).path + "?" + urlsplit(link["url"]).query).body
        assert "Robo（ボット）" in page  # translated


def test_a_bot_account_is_marked_on_the_leaderboard(api, services):
    """The leaderboard reads each listed player's profile for their name already: it says which
    rows are bot accounts (``bot_account: true``, left out for a person), however old the rating."""
    ann, robo = api.signup("Ann"), signup_bot(api)
    for player, rating in ((ann, 1620), (robo, 1810)):
        services.store.save_ratings(f"g-{player['id']}", [RatingRecord(player["id"], "battleline", rating, 70, 0.06,
                                                                       games=30)])
    rows = api.get("/v1/leaderboards/battleline").body["players"]
    assert [(r["name"], r.get("bot_account")) for r in rows] == [("Robo", True), ("Ann", None)]


def test_a_bot_accounts_open_game_is_marked_in_the_lobby(api):
    """listOpenGames: the creator of an open game is marked when a bot account (``created_by``)."""
    ann, robo = api.signup("Ann"), signup_bot(api)
    for maker in (ann, robo):
        made = api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": maker["id"]}, {"open": True}]},
                        key=maker["api_key"])
        assert made.status == 201, made.body
    listed = api.get("/v1/open-games?game=battleline", key=api.signup("Cy")["api_key"])
    assert listed.status == 200, listed.body
    assert sorted((g["created_by"]["name"], g["created_by"].get("bot_account")) for g in listed.body["games"]) == [
        ("Ann", None), ("Robo", True)]


def test_a_bot_account_is_marked_in_a_tournament_its_games_and_standings(api):
    """A bot account enters a tournament as one: its entry, its pairings, its standings and
    crosstable rows (``bot_account: true``), the seats of its tournament games, and the standings
    page ("Robo (bot)")."""
    ann, robo = api.signup("Ann"), signup_bot(api)
    made = api.post("/v1/tournaments", {"name": "Cup", "game": "battleline", "format": "round_robin"},
                    key=ann["api_key"]).body
    for player in (ann, robo):
        assert api.post(f"/v1/tournaments/{made['id']}/join", key=player["api_key"]).status == 200
    t = api.post(f"/v1/tournaments/{made['id']}/start", key=ann["api_key"]).body
    assert {p["name"]: p.get("bot_account") for p in t["players"]} == {"Ann": None, "Robo": True}
    pairing = t["pairings"][0]
    assert {pairing[s]["name"]: pairing[s].get("bot_account") for s in ("first", "second")} == {
        "Ann": None, "Robo": True}
    seats = api.view(ann, pairing["game_ids"][0])["seats"]
    assert {s["name"]: s.get("bot_account", False) for s in seats} == {"Ann": False, "Robo": True}
    standings = api.get(f"/v1/tournaments/{t['id']}/standings").body
    for rows in (standings["standings"], standings["crosstable"]):
        assert {r["name"]: r.get("bot_account") for r in rows} == {"Ann": None, "Robo": True}
    page = api.get(f"/v1/tournaments/{t['id']}/standings/page", headers={"Accept": "text/html"}).body
    assert "Robo (bot)" in page and "Ann (bot)" not in page


def test_a_bot_account_is_marked_in_its_ladder_games_seats(api):
    """A ladder challenge's game marks a bot account's seat, the challenger's or the challenged's."""
    org, ann, robo, bob = api.signup("Org"), api.signup("Ann"), signup_bot(api), api.signup("Bob")
    made = api.post("/v1/ladders", {"name": "Club ladder", "game": "battleline"}, key=org["api_key"])
    assert made.status == 201, made.body
    for player in (ann, robo, bob):  # rungs 1, 2, 3
        assert api.post(f"/v1/ladders/{made.body['id']}/join", key=player["api_key"]).status == 200
    for challenger, target in ((robo, ann), (bob, robo)):
        reply = api.post(f"/v1/ladders/{made.body['id']}/challenges", {"player_id": target["id"]},
                         key=challenger["api_key"])
        assert reply.status == 201, reply.body
        assert {s["name"]: s.get("bot_account", False) for s in reply.body["game"]["seats"]} == {
            target["name"]: target is robo, challenger["name"]: challenger is robo}


def test_find_players_marks_bot_accounts(api):
    """findPlayers: the ``player_name`` index leaves out ``bot``; the page's profiles, read in one
    batch, mark the bot accounts (``bot: true``, as getPlayer does; left out for a person), on
    every page."""
    ann, robo, bob = api.signup("Robo"), signup_bot(api, "robo"), signup_bot(api, "ROBO")
    first = api.get("/v1/players?name=Robo&limit=2", key=ann["api_key"])
    assert first.status == 200, first.body
    second = api.get(f"/v1/players?name=Robo&limit=2&cursor={first.body['next_cursor']}", key=ann["api_key"])
    assert second.status == 200, second.body
    rows = first.body["players"] + second.body["players"]
    assert sorted((r["id"], r.get("bot")) for r in rows) == sorted(
        [(ann["id"], None), (robo["id"], True), (bob["id"], True)])


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_find_players_reads_the_pages_profiles_in_one_batch(api, services, monkeypatch):
    """The read cost docs/storage.md gives: one BatchGetItem of at most the page's profiles."""
    ann = api.signup("Ann")
    for _ in range(3):
        signup_bot(api, "Ann")
    calls = []
    real = services.store.client.batch_get_item
    monkeypatch.setattr(services.store.client, "batch_get_item",
                        lambda **kw: calls.append(kw) or real(**kw))
    found = api.get("/v1/players?name=ann&limit=3", key=ann["api_key"]).body["players"]
    assert len(found) == 3 and sum(bool(r.get("bot")) for r in found) >= 2
    assert [len(next(iter(c["RequestItems"].values()))["Keys"]) for c in calls] == [3]


def test_a_bot_account_is_marked_on_its_ladder_rung(api):
    """getLadder: a bot account's rung row says ``bot_account: true`` (stored on the rung as it
    joins), and so does its side of a challenge; a person's rows leave it out."""
    org, ann, robo = api.signup("Org"), api.signup("Ann"), signup_bot(api)
    made = api.post("/v1/ladders", {"name": "Club ladder", "game": "battleline"}, key=org["api_key"]).body
    for player in (ann, robo):
        assert api.post(f"/v1/ladders/{made['id']}/join", key=player["api_key"]).status == 200
    reply = api.post(f"/v1/ladders/{made['id']}/challenges", {"player_id": ann["id"]}, key=robo["api_key"])
    assert reply.status == 201, reply.body
    ladder = api.get(f"/v1/ladders/{made['id']}").body
    assert [(r["name"], r.get("bot_account")) for r in ladder["players"]] == [("Ann", None), ("Robo", True)]
    [open_challenge] = ladder["challenges"]
    assert (open_challenge["challenger"].get("bot_account"), open_challenge["challenged"].get("bot_account")) == (
        True, None)


@pytest.mark.dynamodb  # reads or changes DynamoDB's items themselves
def test_a_rung_made_before_bot_marks_shows_no_mark(api, services):
    """The mark is stored on the rung when the player joins: a rung made before (no ``bot`` on its
    item) reads without it, and nothing breaks."""
    org, robo = api.signup("Org"), signup_bot(api)
    made = api.post("/v1/ladders", {"name": "Club ladder", "game": "battleline"}, key=org["api_key"]).body
    assert api.post(f"/v1/ladders/{made['id']}/join", key=robo["api_key"]).status == 200
    store = services.store
    store.client.update_item(TableName=store.table, Key=typed_key(keys.ladder_member(made["id"], robo["id"])),
                             UpdateExpression="REMOVE bot")
    [row] = api.get(f"/v1/ladders/{made['id']}").body["players"]
    assert row["name"] == "Robo" and "bot_account" not in row
