"""`make serve` as a user meets it: a full game over HTTP, Ctrl-C, and the game survives a restart."""

import os
import random
from email import message_from_bytes, policy
from email.message import EmailMessage
import signal
import subprocess
import sys
import time

import pytest
import requests

from devtools.dynamodb_local import ROOT, free_port, port_is_free, wait_for_port

from ..notify.receiver import Receiver

pytestmark = pytest.mark.integration


def start(port: int, data_dir) -> subprocess.Popen:
    env = {**os.environ, "PORT": str(port), "DATA_DIR": str(data_dir), "ALLOW_PRIVATE_WEBHOOKS": "1"}
    # The output goes to a file: a pipe nobody reads while the game is played would fill up with
    # the servers' log lines and stall them.
    output = open(data_dir / f"serve-{port}-{time.monotonic_ns()}.log", "w+")
    process = subprocess.Popen(["make", "--no-print-directory", "serve"], cwd=ROOT, env=env,
                               stdout=output, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    process.output = output
    wait_for_port(port, timeout=120, process=process)
    return process


def wait_for_mail(folder, kind: str, timeout: float = 30):
    """The first email of a kind (your_turn, invited, finished: the outbox message it was made for)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for path in sorted(folder.glob("*.eml")) if folder.exists() else []:
            message = message_from_bytes(path.read_bytes(), policy=policy.default)
            if f"_{kind}_" in (message["X-Battleline-Message"] or ""):
                return message
        time.sleep(0.2)
    raise AssertionError(f"no {kind} email in {folder}")


def ctrl_c(process: subprocess.Popen, port: int) -> str:
    os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole group
    process.wait(timeout=30)
    process.output.seek(0)
    output = process.output.read()
    process.output.close()
    deadline = time.monotonic() + 10
    while not port_is_free(port) and time.monotonic() < deadline:
        time.sleep(0.1)
    return output


def test_make_serve_plays_a_full_game_and_keeps_it_across_a_restart(tmp_path):
    receiver = Receiver().start()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = start(port, tmp_path)
    try:
        ann = requests.post(f"{url}/v1/players", json={"name": "Ann", "email": "ann@example.org"}, timeout=10).json()
        bob = requests.post(f"{url}/v1/players", json={"name": "Bob"}, timeout=10).json()
        auth = {1: {"Authorization": f"Bearer {ann['api_key']}"}, 2: {"Authorization": f"Bearer {bob['api_key']}"}}
        view = requests.post(f"{url}/v1/games", headers=auth[1], timeout=10, json={
            "game": "battleline", "options": {"first_seat": 1},
            "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]}).json()
        assert view["status"] == "waiting"  # Bob is asked first
        accepted = requests.post(f"{url}/v1/games/{view['game_id']}/accept", headers=auth[2], timeout=10)
        assert accepted.status_code == 200 and accepted.json()["status"] == "active", accepted.text
        view = requests.get(f"{url}/v1/games/{view['game_id']}", headers=auth[1], timeout=10).json()
        hook = requests.post(f"{url}/v1/webhooks", headers=auth[2], timeout=10,
                             json={"url": receiver.url, "events": ["game.your_turn", "game.finished"]}).json()
        gid, choose = view["game_id"], random.Random(1)
        # Ann plays her first turn by email: a reply to her your-move email, through make mail-in.
        your_move = wait_for_mail(tmp_path / "mail", "your_turn")
        reply = EmailMessage()
        reply["From"], reply["To"], reply["Subject"] = "ann@example.org", your_move["Reply-To"], "Re: move"
        card = next(s for s in view["legal_steps"] if s["type"] == "play")["card"]
        reply.set_content(f"play {card} 5\nclaim none\ndraw troop\n")
        env = {**os.environ, "DATA_DIR": str(tmp_path)}
        run = subprocess.run(["make", "--no-print-directory", "mail-in"], cwd=ROOT, env=env, input=bytes(reply),
                             capture_output=True, timeout=120)
        assert run.returncode == 0 and run.stdout.startswith(b"applied"), run.stdout + run.stderr
        view = requests.get(f"{url}/v1/games/{gid}", headers=auth[1], timeout=10).json()
        assert view["version"] == 2 and view["state"]["flags"][4]["cards"][0] == [card]
        for _ in range(800):
            if view["status"] == "finished":
                break
            if view["to_move"] != view["you"]:  # the other seat's turn: its own view (a move's answer is the mover's)
                view = requests.get(f"{url}/v1/games/{gid}", headers=auth[view["to_move"]], timeout=10).json()
            steps = [s for s in view["legal_steps"] if s["type"] != "resign"]
            claims = [s for s in steps if s["type"] == "claim" and s["flags"]]
            reply = requests.post(f"{url}/v1/games/{gid}/actions", headers=auth[view["you"]], timeout=10,
                                  json={"expected_version": view["version"],
                                        "steps": [claims[0] if claims else choose.choice(steps)]})
            assert reply.status_code == 200, reply.text
            view = reply.json()["view"]
        assert view["status"] == "finished" and view["result"]["winner"] in (1, 2)
        # The worker beside the API delivered Bob's notifications, signed.
        deadline = time.monotonic() + 30
        while not any(b["type"] == "game.finished" for b in receiver.seen.values()) and time.monotonic() < deadline:
            time.sleep(0.2)
        kinds = {b["type"] for b in receiver.seen.values()}
        assert kinds == {"game.your_turn", "game.finished"}
        receiver.verify_all(hook["secret"])
    finally:
        output = ctrl_c(server, port)
    assert port_is_free(port), "Ctrl-C left the API running"
    assert "DynamoDB Local" in output
    assert not any("DynamoDBLocal.jar" in line and str(tmp_path) in line
                   for line in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout.splitlines())

    server = start(port, tmp_path)
    try:
        again = requests.get(f"{url}/v1/games/{gid}", headers=auth[1], timeout=10).json()
        assert again["status"] == "finished" and again["version"] == view["version"]
        assert again["result"] == view["result"]
    finally:
        ctrl_c(server, port)
        receiver.stop()


def test_make_serve_refuses_data_of_an_older_storage_layout(tmp_path):
    """A var/ kept from a version before storage layout 2 is refused with what to do, never misread."""
    from devtools.dynamodb_local import DynamoDBLocal
    from chalicelib.store.schema import table_definition

    with DynamoDBLocal(db_path=tmp_path / "dynamodb") as ddb:
        ddb.client().create_table(**table_definition("battleline"))  # as layout 1 made it: no layout mark
    port = free_port()
    done = subprocess.run([sys.executable, "-m", "devtools.serve"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PORT": str(port), "DATA_DIR": str(tmp_path)})
    assert done.returncode == 1
    assert "storage layout 1" in done.stderr and "layout 2" in done.stderr and "mv var" in done.stderr
    assert port_is_free(port)  # nothing was started
