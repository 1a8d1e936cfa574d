"""Long-polls through real HTTP: the threaded local server (make serve's) answers other requests while
one waits, a wait ends as soon as the other player moves, and the sample bot (examples/longpoll_bot.py)
plays a whole game against another copy of itself, by long-polls, ETags and Idempotency-Keys alone.

The server here waits up to 20 s, as under make serve (the rest of the suite lowers the maximum to
1 s), and runs make serve's worker, which keeps the "my move" lists. Both look more often than under
make serve (a long-poll at most 0.1 s between looks instead of 1 s, the worker every 0.1 s instead of
0.25 s), so that the bots' whole game, some seventy turns each seen by a long-poll, takes seconds
less a turn; waits and what ends them are the same."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import threading
import time

import pytest
import requests

from devtools.dynamodb_local import ROOT, free_port, server_environment, wait_for_port
from tests.conftest import fresh_table

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def polled(dynamodb_local):
    table = fresh_table(dynamodb_local.client())
    port = free_port()
    env = {**server_environment(dynamodb_local.endpoint, table), "PUBLIC_URL": f"http://127.0.0.1:{port}",
           "LONG_POLL_MAX_SECONDS": "20", "MAIL_TRANSPORT": "none",
           "LONG_POLL_GAP_SECONDS": "0.1", "WORKER_INTERVAL_SECONDS": "0.1"}
    api = subprocess.Popen([sys.executable, "-m", "devtools.local_api", "--port", str(port)], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([sys.executable, "-m", "devtools.worker"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, process=api)
        yield f"http://127.0.0.1:{port}"
    finally:
        for process in (worker, api):
            process.terminate()
            process.wait(timeout=10)


def signup(url: str, name: str) -> dict:
    reply = requests.post(f"{url}/v1/players", json={"name": name}, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def auth(player: dict) -> dict:
    return {"Authorization": f"Bearer {player['api_key']}"}


def new_game(url: str, ann: dict, bob: dict) -> dict:
    reply = requests.post(f"{url}/v1/games", headers=auth(ann), timeout=10, json={
        "game": "battleline", "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}],
        "options": {"first_seat": 1}})
    assert reply.status_code == 201, reply.text
    game = reply.json()
    if game["status"] == "waiting":  # consent: Bob accepts the game Ann seated him in
        requests.post(f"{url}/v1/games/{game['game_id']}/accept", headers=auth(bob), json={}, timeout=10)
    return requests.get(f"{url}/v1/games/{game['game_id']}", headers=auth(ann), timeout=10).json()


def play_turn(url: str, player: dict, view: dict) -> dict:
    while view["to_move"] == view["you"] and view["status"] == "active":
        step = next(s for s in view["legal_steps"] if s["type"] not in ("resign", "offer_draw"))
        reply = requests.post(f"{url}/v1/games/{view['game_id']}/actions", headers=auth(player), timeout=10,
                              json={"expected_version": view["version"], "steps": [step]})
        assert reply.status_code == 200, reply.text
        view = reply.json()["view"]
    return view


def in_background(call) -> tuple[threading.Thread, dict]:
    found: dict = {}

    def run() -> None:
        started = time.monotonic()
        found["reply"] = call()
        found["seconds"] = time.monotonic() - started

    thread = threading.Thread(target=run)
    thread.start()
    return thread, found


def test_a_waiting_request_blocks_no_other_and_returns_at_once_with_the_move(polled):
    ann, bob = signup(polled, "Ann"), signup(polled, "Bob")
    view = new_game(polled, ann, bob)
    count = len(requests.get(f"{polled}/v1/games/{view['game_id']}/events", headers=auth(bob), timeout=10).json()["events"])
    thread, found = in_background(lambda: requests.get(
        f"{polled}/v1/games/{view['game_id']}/events?after={count}&wait=20", headers=auth(bob), timeout=30))
    time.sleep(1)
    assert thread.is_alive()  # Bob waits ...
    started = time.monotonic()
    play_turn(polled, ann, view)  # ... while Ann's requests are answered at once
    assert time.monotonic() - started < 5
    thread.join(timeout=25)
    reply = found["reply"]
    assert reply.status_code == 200 and reply.json()["events"][0]["seq"] == count + 1
    assert found["seconds"] < 1 + 5 + 2  # the move came about a second in: nowhere near the 20 s wait


def test_a_wait_for_my_move_returns_once_the_other_player_has_played_their_turn(polled):
    ann, bob = signup(polled, "Ann"), signup(polled, "Bob")
    view = new_game(polled, ann, bob)
    thread, found = in_background(lambda: requests.get(f"{polled}/v1/games?to_move=me&wait=20", headers=auth(bob),
                                                       timeout=30))
    time.sleep(1)
    assert thread.is_alive()
    play_turn(polled, ann, view)
    thread.join(timeout=25)
    games = found["reply"].json()["games"]
    assert [g["game_id"] for g in games] == [view["game_id"]] and found["seconds"] < 10


def load_example():
    spec = importlib.util.spec_from_file_location("longpoll_bot", ROOT / "examples" / "longpoll_bot.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_sample_bot_plays_a_whole_game_against_another_copy_of_itself(polled):
    bot = load_example()
    bot.LAG = 0.1  # its pause for a stale "your move" entry: the worker here follows a move within 0.1 s
    one, two = bot.sign_up(polled, "Bot one"), bot.sign_up(polled, "Bot two")
    first, second = bot.Client(polled, one["api_key"]), bot.Client(polled, two["api_key"])
    game = bot.new_game(first, one["id"], two["id"])["game_id"]
    bots = [bot.Bot(first, random.Random(1), wait=5), bot.Bot(second, random.Random(2), wait=5)]
    errors: list[BaseException] = []

    def run(player) -> None:
        try:
            player.run(until_finished={game}, deadline=time.monotonic() + 240)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(b,)) for b in bots]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    final = requests.get(f"{polled}/v1/games/{game}", headers=auth(one), timeout=10).json()
    assert final["status"] == "finished" and final["result"]["reason"] != "resigned"
    assert all(game in b.finished for b in bots) and bots[0].moved[game] > 20


def test_a_304_over_real_http_has_no_body_and_the_connection_goes_on(polled):
    ann, bob = signup(polled, "Ann"), signup(polled, "Bob")
    view = new_game(polled, ann, bob)
    with requests.Session() as session:  # one kept-alive connection
        first = session.get(f"{polled}/v1/games/{view['game_id']}", headers=auth(bob), timeout=10)
        again = session.get(f"{polled}/v1/games/{view['game_id']}", timeout=10,
                            headers={**auth(bob), "If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304 and again.content == b"" and again.headers["ETag"] == first.headers["ETag"]
        after = session.get(f"{polled}/v1/games/{view['game_id']}", headers=auth(bob), timeout=10)
        assert after.status_code == 200 and after.json()["version"] == view["version"]
