"""The `battleline` command against the running app, as a correspondence player uses it: sign up,
start games (against a player and a bot) with a short summary, `show` telling the opponent's last
moves in names before the board (sides named), the hand, the counts, the claimable flags and the
moves grouped (card → flags; never 64 numbered lines), play a turn typed as an email reply, `log`
the whole game, the result in names and why; errors are one line, never a traceback.

Each command runs in-process, as the console script's ``run()`` runs it (its argv, environment, stdin,
stdout, stderr and exit status; the server is real, over HTTP): a new Python process importing the
whole command line costs a second or two a call, some seventy calls here. One test runs the
installed ``battleline`` program itself (``in_process=False``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from battleline_cli import main
from chalicelib.kernel import i18n
from devtools.dynamodb_local import free_port

pytestmark = pytest.mark.integration

COMMAND = str(Path(sys.executable).with_name("battleline"))
CONFIG = Path(tempfile.mkdtemp(prefix="battleline-cli-"))


def run(live_server, *args: str, key: str | None = None, server: str | None = None,
        stdin: str = "", config: Path = CONFIG, in_process: bool = True) -> subprocess.CompletedProcess:
    env = {k: None for k in os.environ if k.startswith("BATTLELINE_")}
    env["BATTLELINE_SERVER"] = server or live_server.url
    env["BATTLELINE_CONFIG"] = str(config / "config.json")  # the languages and key it keeps: not the user's own
    if key:
        env["BATTLELINE_KEY"] = key
    if in_process:
        done = run_in_process(list(args), env, stdin)
    else:
        done = subprocess.run([COMMAND, *args], capture_output=True, text=True, timeout=120, input=stdin,
                              env={k: v for k, v in {**os.environ, **env}.items() if v is not None})
    assert "Traceback" not in done.stdout + done.stderr
    return done


def run_in_process(args: list[str], env: dict[str, str | None], stdin: str) -> subprocess.CompletedProcess:
    """``battleline ARGS`` as the console script runs it (battleline_cli.main.run), in this process:
    click's isolation gives it the environment, stdin, stdout and stderr a process would have."""
    argv = sys.argv
    with CliRunner().isolation(input=stdin, env=env) as (stdout, stderr, _output):
        sys.argv = ["battleline", *args]
        try:
            main.run()
            status = 0
        except SystemExit as done:
            status = done.code or 0
        finally:
            sys.argv = argv
            sys.stdout.flush()
            sys.stderr.flush()
        out, err = stdout.getvalue().decode(), stderr.getvalue().decode()
    assert i18n.language() == i18n.DEFAULT  # the command's language ended with it
    return subprocess.CompletedProcess(["battleline", *args], status, out, err)


def signup(live_server, name: str) -> tuple[str, str]:
    done = run(live_server, "signup", name)
    assert done.returncode == 0, done.stderr
    player = re.search(r"player (p_\w+)", done.stdout).group(1)
    key = re.search(r"(bl_\S+)", done.stdout).group(1)
    return player, key


def ok(live_server, *args: str, key: str) -> str:
    done = run(live_server, *args, key=key)
    assert done.returncode == 0, done.stderr
    return done.stdout


def hand_of(shown: str) -> list[str]:
    return re.search(r"^Your hand: (.+)$", shown, re.M).group(1).split()


def numbered(shown: str) -> list[str]:
    return re.findall(r"^\s+\d+\. (.+)$", shown, re.M)


def third_card(hand: list[str], chosen: list[str]) -> str:
    """A card that keeps Bob's three at flag 1 below Ann's three 8s: never three of one colour (a
    wedge), never three of one value."""
    colours, values = {c[-1] for c in chosen}, {c[:-1] for c in chosen}
    return next(c for c in hand if len(chosen) < 2 or (colours | {c[-1]}) != {c[-1]} or (values | {c[:-1]}) != {c[:-1]})


def test_a_battle_line_game_followed_and_played_from_the_terminal(live_server):
    ann, ann_key = signup(live_server, "Ann")
    bob, bob_key = signup(live_server, "Bob")
    asked = ok(live_server, "new", "battleline", "--against", bob, "--seed", "42", "-o", "first_seat=1", key=ann_key)
    game = re.search(r"game (g_\w+)", asked).group(1)
    assert asked.splitlines()[1] == "Waiting for Bob to accept."
    assert ok(live_server, "show", game, key=bob_key).count(f"battleline accept {game}") == 1
    started = ok(live_server, "accept", game, key=bob_key)
    # a short summary: who plays, whose move, how to see it; not the move list
    assert started.splitlines() == [f"Battle Line, game {game}: Ann against Bob (you)", "Ann is to move.",
                                    f"See it with: battleline show {game} (the board in a browser: battleline board {game})"]

    shown = ok(live_server, "show", game, key=ann_key)
    assert hand_of(shown) == ["2R", "8R", "5O", "6O", "8O", "1B", "8B"]
    assert re.search(r"^\s+Bob\s+Ann \(you\)$", shown, re.M)  # the sides, named
    assert "Hands: you 7 cards, Bob 7 cards" in shown and "Decks: 46 troop cards, 10 tactics cards" in shown
    assert "No clock: no time limit." in shown and "You cannot claim a flag now." in shown
    assert "  play CARD FLAG:\n" in shown and "    8R → flags 1 2 3 4 5 6 7 8 9\n" in shown
    assert not numbered(shown) and shown.count("\n") < 40  # 63 plays, grouped: a line a card

    # Ann's whole turn as an email reply's lines, unquoted; what she drew is told to her
    played = ok(live_server, "play", game, "play", "8R", "1", "/", "claim", "none", "/", "draw", "troop", key=ann_key)
    drawn = re.match(r"You played 8R at flag 1\. You drew (\w+) from the troop deck\.\n", played).group(1)
    assert "Your last turn:" not in played and "\nBob is to move.\n" in played and drawn in hand_of(played)

    # Bob reads what Ann did first, in her name; her card stays hidden from him
    shown = ok(live_server, "show", game, key=bob_key)
    assert shown.startswith(f"Battle Line, game {game}: Ann against Bob (you)\n\nSince your last move:\n"
                            "  Ann played 8R at flag 1\n  Ann drew from the troop deck\n\nYour move.\n")
    assert re.search(r"^flag 1\s+8R\s+\| -$", shown, re.M) and drawn not in shown.split("Your hand:")[0]
    assert "Hands: Ann 7 cards, you 7 cards" in shown

    ann_cards, bob_cards = ["8R", "8O", "8B"], []
    for turn in range(3):
        if turn:  # Ann completes three 8s at flag 1
            ok(live_server, "play", game, f"play {ann_cards[turn]} 1", "claim none", "draw troop", key=ann_key)
        hand = hand_of(ok(live_server, "show", game, key=bob_key))
        bob_cards.append(third_card(hand, bob_cards))
        if turn < 2:
            ok(live_server, "play", game, f"play {bob_cards[-1]} 1", "claim none", "draw troop", key=bob_key)
    # Bob's third card in steps: the claim and the draw are short decisions, numbered
    ok(live_server, "play", game, f"play {bob_cards[-1]} 1", key=bob_key)
    shown = ok(live_server, "show", game, key=bob_key)
    assert "Your move: claim flags, then draw a card.\n  1. claim none\n" in shown
    shown = ok(live_server, "play", game, "1", key=bob_key)
    assert numbered(shown) == ["draw troop", "draw tactics"]
    ok(live_server, "play", game, "1", key=bob_key)

    # Ann may claim flag 1 now: said in the counts and on the flag
    shown = ok(live_server, "show", game, key=ann_key)
    assert "Since your last move:\n  Bob played " in shown and "You can claim flag 1" in shown
    assert re.search(r"^flag 1\s+(\w+ ){3}\s*\| 8R 8O 8B\s+you can claim it$", shown, re.M)
    claimed = ok(live_server, "play", game, f"play {hand_of(shown)[0]} 2; claim 1; draw troop", key=ann_key)
    assert "You claimed flag 1." in claimed and re.search(r"^flag 1 .* won by you$", claimed, re.M)
    shown = ok(live_server, "show", game, key=bob_key)
    assert "  Ann claimed flag 1\n" in shown and re.search(r"^flag 1 .* won by Ann$", shown, re.M)

    # the whole game, told; then the result in names and why
    log = ok(live_server, "log", game, key=bob_key)
    assert "   1. You accepted the game.\n   2. Ann played 8R at flag 1. Ann drew from the troop deck.\n" in log
    assert re.search(r"^\s+\d+\. Ann played \S+ at flag 2\. Ann claimed flag 1\. Ann drew from the troop deck\.$",
                     log, re.M)
    assert ok(live_server, "resign", game, "--yes", key=bob_key) == f"You resigned game {game}.\n"
    assert "The game is over: You won (resignation)." in ok(live_server, "show", game, key=ann_key)
    shown = ok(live_server, "show", game, key=bob_key)
    assert "How it ended:\n" in shown and "The game is over: Ann won (resignation)." in shown
    assert "Your move" not in shown
    assert game in ok(live_server, "games", key=bob_key)


def test_a_khan_game_between_two_players_shows_deployments_grouped(live_server):
    cat, cat_key = signup(live_server, "Cat")
    dan, dan_key = signup(live_server, "Dan")
    started = ok(live_server, "new", "khan", "--against", dan, "-o", "first_seat=1", key=cat_key)
    game = re.search(r"game (g_\w+)", started).group(1)
    ok(live_server, "accept", game, key=dan_key)
    shown = ok(live_server, "show", game, key=cat_key)
    assert "Your move: place your first unit.\n  1. place heavy_cavalry\n" in shown
    assert "Seat 1 is Cat (you), Khan (cavalry); seat 2 is Dan, General (infantry)." in shown
    ok(live_server, "play", game, "1", key=cat_key)
    ok(live_server, "play", game, "place spearmen", key=dan_key)
    shown = ok(live_server, "show", game, key=cat_key)
    assert "Since your last move:\n  Dan placed " in shown
    assert re.search(r"^  heavy_cavalry ×2 \(power 4\)|^  units: heavy_cavalry", shown, re.M)
    assert "  deploy UNIT X Y FACING (a unit from your hand, face down):\n" in shown
    assert re.search(r"^    [a-z_, ]+ → (\(-?\d, -?\d\) )+\(-?\d, -?\d\), any facing$", shown, re.M)
    assert not numbered(shown)  # 60 deployments and more: grouped
    played = ok(live_server, "play", game, "deploy", "light_cavalry", "-1", "0", "N", "end", "action", key=cat_key)
    assert played.startswith("You deployed ") and "facing north" in played


def test_a_game_against_a_bot_from_the_terminal(live_server):
    _, key = signup(live_server, "Eve")
    started = ok(live_server, "new", "khan", "--bot", "greedy", "-o", "first_seat=1", key=key)
    game = re.search(r"game (g_\w+)", started).group(1)
    assert "against greedy bot" in started and "Your move." in started
    played = ok(live_server, "play", game, "place heavy_cavalry", "--wait", "0", key=key)
    assert played.startswith("You placed ") and "greedy bot is to move (a bot: it moves by itself" in played
    link = run(live_server, "board", game, key=key)
    assert link.stdout.startswith(f"{live_server.url}/v1/games/{game}/board?seat=")


def test_resigning_asks_first(live_server):
    _, key = signup(live_server, "Fay")
    game = re.search(r"game (g_\w+)", ok(live_server, "new", "--bot", "random", key=key)).group(1)
    refused = run(live_server, "resign", game, key=key, stdin="n\n")
    assert refused.returncode == 1 and "not resigned" in refused.stderr
    assert "The game is over" not in ok(live_server, "show", game, key=key)
    done = run(live_server, "resign", game, key=key, stdin="y\n")
    assert done.returncode == 0 and f"You resigned game {game}." in done.stdout


@pytest.mark.parametrize("args, message", [
    (("play", "g_nothing", "play 7R 3"), "there is no game 'g_nothing' (game_not_found)"),
    (("show", "g_nothing"), "there is no game 'g_nothing' (game_not_found)"),
    (("log", "g_nothing"), "there is no game 'g_nothing' (game_not_found)"),
    (("new", "battleline"), "name one opponent"),
    (("new", "chess", "--bot", "random"), "(invalid_request)"),
])
def test_errors_are_one_clear_line(live_server, args, message):
    _, key = signup(live_server, "Gus")
    done = run(live_server, *args, key=key)
    assert done.returncode == 1 and message in done.stderr and done.stderr.count("\n") == 1


def test_an_unreadable_move_is_one_line_with_an_example(live_server):
    ann, ann_key = signup(live_server, "Hal")
    bob, bob_key = signup(live_server, "Ida")
    game = re.search(r"game (g_\w+)", run(live_server, "new", "--against", bob, key=ann_key).stdout).group(1)
    ok(live_server, "accept", game, key=bob_key)
    done = run(live_server, "play", game, "charge!", key=ann_key)
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "cannot read 'charge!'" in done.stderr and '"play 7R 3", "claim none", "draw troop"' in done.stderr
    refused = run(live_server, "play", game, "99", key=ann_key)
    assert refused.returncode == 1 and "there are no numbered moves now" in refused.stderr
    illegal = run(live_server, "play", game, "play 7R 3", "claim 4", "draw troop", key=ann_key)
    assert illegal.returncode == 1 and illegal.stderr.count("\n") == 1


def test_a_missing_key_a_wrong_key_and_no_server_are_explained(live_server):
    """The installed ``battleline`` program itself, a process of its own: its exit statuses."""
    assert "no API key" in run(live_server, "games", config=Path(tempfile.mkdtemp(prefix="battleline-cli-")),
                               in_process=False).stderr
    wrong = run(live_server, "games", key="bl_live_wrong", in_process=False)
    assert wrong.returncode == 1 and "(unauthorized)" in wrong.stderr
    away = run(live_server, "games", key="bl_live_wrong", server=f"http://127.0.0.1:{free_port()}", in_process=False)
    assert away.returncode == 2 and "cannot reach the server" in away.stderr


def test_an_open_challenge_made_listed_and_taken_from_the_terminal(live_server):
    ann, ann_key = signup(live_server, "Jo")
    bob, bob_key = signup(live_server, "Kai")
    made = ok(live_server, "new", "battleline", "--open", "-o", "first_seat=1", key=ann_key)
    game = re.search(r"game (g_\w+)", made).group(1)
    assert made.splitlines()[1] == "Waiting for a player to take the open seat."
    listed = ok(live_server, "lobby", key=bob_key)
    assert re.search(rf"^{game}\s+Battle Line\s+by Jo, rated: battleline take {game}$", listed, re.M)
    assert f"{game}" in listed and "not for you" in ok(live_server, "lobby", key=ann_key)
    taken = ok(live_server, "take", game, key=bob_key)
    assert taken.splitlines()[:2] == [f"Battle Line, game {game}: Jo against Kai (you)", "Jo is to move."]
    gone = run(live_server, "take", game, key=ann_key)
    assert gone.returncode == 1 and "seat" in gone.stderr


def test_players_who_chose_chinese_and_japanese_read_the_terminal_and_the_servers_refusals_in_them(live_server):
    """Each in their own language, chosen at sign-up (--language) and kept (no flag afterwards): the
    screens, the board's columns aligned, and the server's refusal of a bad move (Accept-Language)."""
    done = run(live_server, "--language", "zh-Hans", "signup", "安")
    assert done.returncode == 0 and done.stdout.startswith("玩家p_")
    ann_key = re.search(r"(bl_\S+)", done.stdout).group(1)
    done = run(live_server, "--language", "ja", "signup", "花子")
    hanako, hanako_key = re.search(r"(p_\w+)", done.stdout).group(1), re.search(r"(bl_\S+)", done.stdout).group(1)
    assert ok(live_server, "language", key=hanako_key).strip() == "あなたの言語：日本語（ja）。"
    made = ok(live_server, "new", "battleline", "--against", hanako, "--seed", "7", "-o", "first_seat=1", key=ann_key)
    game = re.search(r"(g_\w+)", made).group(1)
    assert made.splitlines()[:2] == [f"战线，对局{game}：安（你）对花子", "正在等待花子接受。"]
    ok(live_server, "accept", game, key=hanako_key)
    shown = ok(live_server, "show", game, key=ann_key)
    assert "轮到你了。" in shown and "你的手牌：" in shown
    rows = [line for line in shown.splitlines() if re.match(r"地区\d", line)]
    assert len(rows) == 9 and len({line.index("|") for line in rows}) == 1
    hand = re.search(r"^你的手牌：(.+)$", shown, re.M).group(1).split()
    ok(live_server, "play", game, f"play {hand[0]} 5", "claim none", "draw troop", key=ann_key)
    refused = run(live_server, "play", game, f"play {hand[1]} 5", key=hanako_key)  # 安's card, not hers
    assert refused.returncode == 1 and refused.stderr.strip() == f"エラー：あなたは{hand[1]}を持っていません（illegal_action）"
    shown = ok(live_server, "show", game, key=hanako_key)
    assert "前回のあなたの手以降：" in shown and f"安が{hand[0]}をフラッグ5にプレイしました" in shown
    header = next(line for line in shown.splitlines() if "花子（あなた）" in line and "安" in line and "対" not in line)
    rows = [line for line in shown.splitlines() if re.match(r"フラッグ\d", line)]
    from battleline_cli.settings import columns  # the same columns on every row, and the names over them
    assert len({columns(line[:line.index("|")]) for line in rows}) == 1
    assert columns(header[:header.index("安")]) == columns(rows[0].split("  ")[0]) + 2  # 安's over her cards
