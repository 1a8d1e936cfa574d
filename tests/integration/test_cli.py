"""The `battleline` command against the running app: sign up, start games (against a player and
a bot), show the board and hand as text, play moves by command or by number; errors are one
line, never a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from devtools.dynamodb_local import free_port

pytestmark = pytest.mark.integration

COMMAND = str(Path(sys.executable).with_name("battleline"))


def run(live_server, *args: str, key: str | None = None, server: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BATTLELINE_")}
    env["BATTLELINE_SERVER"] = server or live_server.url
    if key:
        env["BATTLELINE_KEY"] = key
    done = subprocess.run([COMMAND, *args], env=env, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stdout + done.stderr
    return done


def signup(live_server, name: str) -> tuple[str, str]:
    done = run(live_server, "signup", name)
    assert done.returncode == 0, done.stderr
    player = re.search(r"player (p_\w+)", done.stdout).group(1)
    key = re.search(r"export BATTLELINE_KEY=(\S+)", done.stdout).group(1)
    return player, key


def test_two_players_play_a_turn_each_from_the_terminal(live_server):
    ann, ann_key = signup(live_server, "Ann")
    bob, bob_key = signup(live_server, "Bob")
    started = run(live_server, "new", "battleline", "--against", bob, "--seed", "42", "-o", "first_seat=1",
                  key=ann_key)
    assert started.returncode == 0, started.stderr
    game = re.search(r"game (g_\w+)", started.stdout).group(1)
    assert "flag 1" in started.stdout and "Your hand:" in started.stdout and "Your move" in started.stdout
    hand = re.search(r"Your hand: (.+)", started.stdout).group(1).split()
    played = run(live_server, "play", game, f"play {hand[0]} 5", "claim none", "draw troop", key=ann_key)
    assert played.returncode == 0, played.stderr
    assert f"played: play {hand[0]} 5; claim none; draw troop" in played.stdout
    assert "Seat 2 is to move" in played.stdout
    shown = run(live_server, "show", game, key=bob_key)
    assert shown.returncode == 0 and f"them {hand[0]}" in shown.stdout.replace("  ", " ")
    moves = re.findall(r"^\s+(\d+)\. (play \S+ 5)$", shown.stdout, re.M)
    assert moves, shown.stdout
    by_number = run(live_server, "play", game, moves[0][0], key=bob_key)
    assert by_number.returncode == 0 and f"played: {moves[0][1]}" in by_number.stdout
    listed = run(live_server, "games", key=bob_key)
    assert game in listed.stdout
    assert run(live_server, "resign", game, key=bob_key).returncode == 0
    assert "The game is over: you won (resign)" in run(live_server, "show", game, key=ann_key).stdout


def test_a_game_against_a_bot_and_a_khan_game_from_the_terminal(live_server):
    _, key = signup(live_server, "Cat")
    started = run(live_server, "new", "khan", "--bot", "greedy", "-o", "first_seat=1", key=key)
    assert started.returncode == 0, started.stderr
    game = re.search(r"game (g_\w+)", started.stdout).group(1)
    assert "place heavy_cavalry" in started.stdout
    played = run(live_server, "play", game, "place heavy_cavalry", key=key)
    assert played.returncode == 0 and "played: place heavy_cavalry" in played.stdout
    link = run(live_server, "board", game, key=key)
    assert link.stdout.startswith(f"{live_server.url}/v1/games/{game}/board?seat=")


@pytest.mark.parametrize("args, message", [
    (("play", "g_nothing", "play 7R 3"), "there is no game 'g_nothing' (game_not_found)"),
    (("new", "battleline"), "name one opponent"),
    (("new", "chess", "--bot", "random"), "(invalid_request)"),
])
def test_errors_are_one_clear_line(live_server, args, message):
    _, key = signup(live_server, "Dan")
    done = run(live_server, *args, key=key)
    assert done.returncode == 1 and message in done.stderr and done.stderr.count("\n") == 1


def test_an_unreadable_move_explains_the_commands(live_server):
    ann, ann_key = signup(live_server, "Eve")
    bob, _ = signup(live_server, "Fay")
    game = re.search(r"game (g_\w+)", run(live_server, "new", "--against", bob, key=ann_key).stdout).group(1)
    done = run(live_server, "play", game, "charge!", key=ann_key)
    assert done.returncode == 1 and "cannot read 'charge!'" in done.stderr and "claim 3 5" in done.stderr
    refused = run(live_server, "play", game, "99", key=ann_key)
    assert refused.returncode == 1 and "there is no move 99 now" in refused.stderr


def test_a_missing_key_a_wrong_key_and_no_server_are_explained(live_server):
    assert "no API key" in run(live_server, "games").stderr
    wrong = run(live_server, "games", key="bl_live_wrong")
    assert wrong.returncode == 1 and "(unauthorized)" in wrong.stderr
    away = run(live_server, "games", key="bl_live_wrong", server=f"http://127.0.0.1:{free_port()}")
    assert away.returncode == 2 and "cannot reach the server" in away.stderr
