"""Lists in pages (listGames, listEvents, listWebhookDeliveries): a documented limit, an opaque
cursor, next_cursor null on the last page, and a cursor a client changed refused with 400."""

import base64
import json

import pytest

from chalicelib.store.records import Delivery
from .test_contract import problem_of


def walk(api, path, key, field, limit):
    """Every item of a list, a page at a time; and how many pages it took."""
    items, pages, cursor = [], 0, None
    while True:
        sep = "&" if "?" in path else "?"
        url = f"{path}{sep}limit={limit}" + (f"&cursor={cursor}" if cursor else "")
        reply = api.get(url, key=key)
        assert reply.status == 200, reply.body
        assert len(reply.body[field]) <= limit
        items += reply.body[field]
        pages += 1
        cursor = reply.body["next_cursor"]
        if cursor is None:
            return items, pages


def play(api, ann, bob, game_id, steps):
    """A few steps, each the first legal one: events to page through."""
    for _ in range(steps):
        view = api.view(ann, game_id)
        mover = ann if view["you"] == view["to_move"] else bob
        view = api.view(mover, game_id)
        assert api.act(mover, game_id, view["version"], view["legal_steps"][0]).status == 200


def test_games_come_in_pages_latest_first_each_once(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    made = [api.new_game(ann, [ann, bob], seed=n)["game_id"] for n in range(5)]
    whole = api.get("/v1/games", key=ann["api_key"]).body
    assert whole["next_cursor"] is None and len(whole["games"]) == 5
    games, pages = walk(api, "/v1/games", ann["api_key"], "games", 2)
    assert pages == 3
    assert [g["game_id"] for g in games] == [g["game_id"] for g in whole["games"]]
    assert sorted(g["game_id"] for g in games) == sorted(made)
    waiting, _ = walk(api, "/v1/games?to_move=me", ann["api_key"], "games", 1)
    assert [g["your_turn"] for g in waiting] == [True] * len(waiting)


def test_events_come_in_pages_and_a_poller_may_go_on_with_after(api, two):
    ann, bob, game = two
    play(api, ann, bob, game["game_id"], 3)
    path = f"/v1/games/{game['game_id']}/events"
    everything = api.get(path, key=ann["api_key"]).body
    assert everything["next_cursor"] is None
    events, pages = walk(api, path, ann["api_key"], "events", 1)
    assert events == everything["events"] and pages == len(events) > 1
    first = api.get(f"{path}?limit=1", key=ann["api_key"]).body
    rest = api.get(f"{path}?after={first['events'][0]['seq']}", key=ann["api_key"]).body
    assert first["events"] + rest["events"] == everything["events"]


def test_deliveries_come_in_pages_newest_first(api, services, monkeypatch):
    monkeypatch.setenv("ALLOW_PRIVATE_WEBHOOKS", "1")
    ann = api.signup("Ann")
    hook = api.post("/v1/webhooks", {"url": "http://127.0.0.1:9/hook"}, key=ann["api_key"]).body["id"]
    for n in range(5):
        services.store.create_delivery(Delivery(hook, f"msg_{n}", ann["id"], "game.action", "{}", "delivered", [],
                                                None, f"2026-01-0{n + 1}T00:00:00.000Z"))
    path = f"/v1/webhooks/{hook}/deliveries"
    deliveries, pages = walk(api, path, ann["api_key"], "deliveries", 2)
    assert [d["id"] if "id" in d else d["msg_id"] for d in deliveries] == [f"msg_{n}" for n in (4, 3, 2, 1, 0)]
    assert pages == 3


def forged(cursor: str, **change) -> str:
    data = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    data.update(change)
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


@pytest.mark.parametrize("cursor", ["garbage", "%00%01", "e30", "x" * 1025, "x" * 2000])
def test_a_cursor_that_is_not_one_is_a_400(api, two, cursor, monkeypatch):
    """Longer than any cursor (1,024 characters) too: it is no cursor of this list, not a malformed request."""
    monkeypatch.setenv("ALLOW_PRIVATE_WEBHOOKS", "1")
    ann, _, game = two
    hook = api.post("/v1/webhooks", {"url": "http://127.0.0.1:9/hook"}, key=ann["api_key"]).body["id"]
    for path in ("/v1/games", f"/v1/games/{game['game_id']}/events", "/v1/players?name=Ann", "/v1/tournaments",
                 "/v1/ladders", "/v1/players/me/records", f"/v1/webhooks/{hook}/deliveries"):
        sep = "&" if "?" in path else "?"
        problem_of(api.get(f"{path}{sep}cursor={cursor}", key=ann["api_key"]), 400, "invalid_cursor")


def test_an_events_cursor_is_for_its_after_too(api, two):
    """A cursor holds the place of the query it came from: the same game's events asked after another
    seq are another query (as listGames' cursor is refused with another filter)."""
    ann, bob, game = two
    play(api, ann, bob, game["game_id"], 2)
    path = f"/v1/games/{game['game_id']}/events"
    cursor = api.get(f"{path}?limit=1", key=ann["api_key"]).body["next_cursor"]
    assert cursor is not None
    problem_of(api.get(f"{path}?after=100&cursor={cursor}", key=ann["api_key"]), 400, "invalid_cursor")
    problem_of(api.get(f"{path}?after=1&cursor={cursor}", key=ann["api_key"]), 400, "invalid_cursor")
    assert api.get(f"{path}?after=0&cursor={cursor}", key=ann["api_key"]).status == 200
    later = api.get(f"{path}?after=1&limit=1", key=ann["api_key"]).body["next_cursor"]
    assert api.get(f"{path}?after=1&cursor={later}", key=ann["api_key"]).status == 200
    problem_of(api.get(f"{path}?cursor={later}", key=ann["api_key"]), 400, "invalid_cursor")


def test_a_cursor_changed_or_used_on_another_list_is_a_400(api, two):
    ann, bob, game = two
    other = api.new_game(ann, [ann, bob], seed=8)
    play(api, ann, bob, game["game_id"], 1)
    path = f"/v1/games/{game['game_id']}/events"
    cursor = api.get(f"{path}?limit=1", key=ann["api_key"]).body["next_cursor"]
    problem_of(api.get(f"/v1/games/{other['game_id']}/events?cursor={cursor}", key=ann["api_key"]), 400,
               "invalid_cursor")
    problem_of(api.get(f"/v1/games?cursor={cursor}", key=ann["api_key"]), 400, "invalid_cursor")
    problem_of(api.get(f"{path}?cursor={forged(cursor, a='3')}", key=ann["api_key"]), 400, "invalid_cursor")
    games_cursor = api.get("/v1/games?limit=1", key=ann["api_key"]).body["next_cursor"]
    problem_of(api.get(f"/v1/games?status=finished&cursor={games_cursor}", key=ann["api_key"]), 400,
               "invalid_cursor")
    problem_of(api.get(f"/v1/games?cursor={forged(games_cursor, a=[1, 2])}", key=ann["api_key"]), 400,
               "invalid_cursor")


def test_limits_are_bounded(api, two):
    ann, _, game = two
    problem_of(api.get("/v1/games?limit=0", key=ann["api_key"]), 422, "invalid_request")
    problem_of(api.get("/v1/games?limit=201", key=ann["api_key"]), 422, "invalid_request")
    problem_of(api.get(f"/v1/games/{game['game_id']}/events?limit=1001", key=ann["api_key"]), 422,
               "invalid_request")


def test_the_command_line_pages_events_with_its_after(api, two):
    """battleline's history after a seq, a page at a time (pages of one here), sends its ``after`` with
    each cursor: the events after it, each once, never refused."""
    from battleline_cli.client import Client

    ann, bob, game = two
    play(api, ann, bob, game["game_id"], 3)

    def call(method, path, body=None, **_):
        reply = api.get(f"{path}&limit=1", key=ann["api_key"])
        assert reply.status == 200, reply.body
        return reply.body

    client = Client("http://unused", ann["api_key"])
    client.call = call
    everything = api.get(f"/v1/games/{game['game_id']}/events", key=ann["api_key"]).body["events"]
    assert client.events(game["game_id"], after=1) == [e for e in everything if e["seq"] > 1]
