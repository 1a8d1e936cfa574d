"""Optimistic locking on DynamoDB Local through real HTTP: one winner per version."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

pytestmark = pytest.mark.integration


def signup(url, name):
    """A player who accepts every game made for them (so a game starts when made, at version 0)."""
    reply = requests.post(f"{url}/v1/players", json={"name": name}, timeout=10)
    assert reply.status_code == 201
    accepting = requests.put(f"{url}/v1/players/me/preferences", json={"challenges": "accept"}, timeout=10,
                             headers={"Authorization": f"Bearer {reply.json()['api_key']}"})
    assert accepting.status_code == 200
    return reply.json()


def test_twenty_concurrent_posts_at_one_version_make_exactly_one_move(live_server):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    headers = {"Authorization": f"Bearer {ann['api_key']}"}
    game = requests.post(f"{url}/v1/games", headers=headers, timeout=10, json={
        "game": "battleline", "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}],
        "options": {"first_seat": 1}}).json()
    gid = game["game_id"]
    plays = [s for s in game["legal_steps"] if s["type"] == "play"][:20]
    assert len(plays) == 20  # twenty different moves, all legal at version 0

    barrier = threading.Barrier(20)
    replies = [None] * 20

    def post(i):
        session = requests.Session()
        barrier.wait()
        replies[i] = session.post(f"{url}/v1/games/{gid}/actions", headers=headers, timeout=30,
                                  json={"expected_version": 0, "steps": [plays[i]]})

    threads = [threading.Thread(target=post, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    statuses = sorted(r.status_code for r in replies)
    assert statuses == [200] + [409] * 19
    for reply in replies:
        if reply.status_code == 409:
            assert reply.json()["code"] == "version_conflict"
            assert reply.json()["current_version"] == 1
    winner = next(r for r in replies if r.status_code == 200).json()
    events = requests.get(f"{url}/v1/games/{gid}/events?after=1", headers=headers, timeout=10).json()["events"]
    assert len(events) == 1 and events[0]["type"] == "play"
    assert events[0]["data"] == winner["events"][0]["data"]
    view = requests.get(f"{url}/v1/games/{gid}", headers=headers, timeout=10).json()
    assert view["version"] == 1
    placed = [c for f in view["state"]["flags"] for side in f["cards"] for c in side]
    assert placed == [winner["events"][0]["data"]["card"]]


def test_concurrent_retries_with_one_idempotency_key_apply_once(live_server):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    headers = {"Authorization": f"Bearer {ann['api_key']}", "Idempotency-Key": "retry-storm"}
    game = requests.post(f"{url}/v1/games", headers={"Authorization": headers["Authorization"]}, timeout=10, json={
        "game": "battleline", "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}],
        "options": {"first_seat": 1}}).json()
    gid = game["game_id"]
    body = {"expected_version": 0, "steps": [next(s for s in game["legal_steps"] if s["type"] == "play")]}
    barrier = threading.Barrier(10)
    replies = [None] * 10

    def post(i):
        barrier.wait()
        replies[i] = requests.post(f"{url}/v1/games/{gid}/actions", headers=headers, json=body, timeout=30)

    threads = [threading.Thread(target=post, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status_code for r in replies] == [200] * 10
    assert len({r.text for r in replies}) == 1
    assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in replies) == 9
    events = requests.get(f"{url}/v1/games/{gid}/events?after=1", headers=headers, timeout=10).json()["events"]
    assert len(events) == 1


def test_concurrent_requests_are_each_answered_as_their_own_player(live_server):
    """The local server answers requests on threads: each must read its own request's headers (its
    API key), never another's sent at the same moment."""
    players = [signup(live_server.url, f"P{n}") for n in range(8)]

    def me(player: dict) -> tuple[str, str]:
        reply = requests.get(f"{live_server.url}/v1/players/me",
                             headers={"Authorization": f"Bearer {player['api_key']}"}, timeout=30)
        return player["id"], reply.json().get("id")

    with ThreadPoolExecutor(max_workers=16) as pool:
        answered = list(pool.map(me, players * 25))
    assert [(asked, got) for asked, got in answered if asked != got] == []


def test_the_local_server_keeps_each_threads_request_apart():
    """What the test above samples, shown outright: under the local server, a request another
    thread is answering is not this thread's ``current_request``."""
    from chalice import Chalice

    from devtools.local_api import one_request_a_thread

    app = one_request_a_thread(Chalice("apart"))
    app.current_request = "this thread's request"
    seen = []

    def other_thread() -> None:
        try:
            seen.append(app.current_request)
        except AttributeError:
            seen.append(None)  # none of its own yet

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert seen == [None] and app.current_request == "this thread's request"
