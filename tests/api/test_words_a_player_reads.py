"""Issue 36, item 4: the words a player reads, in the four languages. The board's text table names
the opponent (not "Seat 1"); a resignation's confirmation says the result once; the finished
board does not give your own resignation as the opponent's last move; Japanese emails name Battle
Line and the server's bots in Japanese; Chinese counts Battle Line's turns and a replay's moves in
手 (not 回合, which reads as a round of both players, nor 版, a version); a refusal names the steps
in the reader's language (tests/test_refusals.py says the whole sentence in each)."""

from __future__ import annotations

from email.message import EmailMessage
from urllib.parse import urlsplit

import pytest

from chalicelib.kernel import i18n
from chalicelib.games.battleline import render
from chalicelib.games.battleline.story import turn_label
from tests.mailplay.test_languages_by_mail import LINKS, game_in, text_of

LANGUAGES = ["en", "zh-Hans", "ja", "vi"]


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


@pytest.mark.parametrize("language", LANGUAGES)
def test_item_4_the_boards_text_table_names_the_opponent_not_seat_1(language):
    flag = {"flag": 1, "seats": [1, 2], "cards": [["3R"], ["5B"]], "environment": [], "claimed_by": 2}
    view = {"flags": [flag]}
    with i18n.speaking(language):
        text = render.text_board(view, 1, {1: "Ann", 2: "Bob"})
        seat = i18n._("Seat {seat}").format(seat=2)
    assert "Bob" in text and seat not in text, text
    assert text.count("Bob") == 2  # the side and the flag Bob won


def test_item_4_the_board_pages_text_table_names_the_opponent(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    link = api.get(f"/v1/games/{game['game_id']}/board-link", key=ann["api_key"]).body["url"]
    view = api.get(path_of(link).replace("/board?", "/board/view?")).body
    assert "Bob" in view["text"] and "Seat" not in view["text"]


def resign_by_reply(language: str, monkeypatch):
    from chalicelib.store.memory.store import MemoryStore
    from chalicelib.games.commandwords import BATTLELINE
    from tests.mailplay import test_languages_by_mail

    monkeypatch.setitem(test_languages_by_mail.NAMES, "en", ("Ann", "Bob"))

    services, inbound, outbox, people, game_id = game_in(MemoryStore(), language, seed=5)
    version = services.games.view_for_seat(game_id, 1)["version"]
    sent = len(outbox.sent)
    message = EmailMessage()
    message["From"], message["To"] = "p1@example.org", LINKS.reply_address(game_id, 1, version)
    message["Subject"], message["Message-ID"] = "Re", "<resign@example.org>"
    message.set_content(BATTLELINE[language].commands["resign"][-1] if language in BATTLELINE else "resign")
    assert inbound.handle(bytes(message)).outcome == "applied"
    services.dispatcher.drain_outbox()  # the confirmation goes with the game's last email (issue 36 item 1)
    return services, game_id, [m for m in outbox.sent[sent:] if m["To"] == "p1@example.org"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_item_4_a_resignations_confirmation_says_the_result_once(language, monkeypatch):
    services, game_id, sent = resign_by_reply(language, monkeypatch)
    view = services.games.view_for_seat(game_id, 1)
    with i18n.speaking(language):
        from chalicelib.presenting.show import result_line

        result = result_line(view)
    confirmation = text_of(sent[0])
    assert confirmation.count(result) == 1, confirmation[:400]


@pytest.mark.parametrize("language", LANGUAGES)
def test_item_4_the_finished_boards_recap_after_your_resignation(api, language):
    ann, bob = (api.post("/v1/players", {"name": name, "language": language}).body for name in ("Ann", "Bob"))
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    gid = game["game_id"]
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    assert api.act(ann, gid, 0, step, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}).status == 200
    bobs = api.view(bob, gid)
    assert api.act(bob, gid, 1, next(s for s in bobs["legal_steps"] if s["type"] == "play"),
                   {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}).status == 200
    assert api.act(ann, gid, 2, {"type": "resign"}).status == 200
    link = api.get(f"/v1/games/{gid}/board-link", key=ann["api_key"]).body["url"]
    board = api.get(path_of(link).replace("/board?", "/board/view?")).body
    with i18n.speaking(language):
        from chalicelib.presenting.show import result_line

        result = result_line(api.view(ann, gid))
    assert board["recap"] and all("Bob" in line for line in board["recap"]), board  # Bob's last turn
    assert not any(result in line for line in board["recap"]), (result, board["recap"])


def test_item_4_japanese_emails_name_battle_line_and_the_greedy_bot_in_japanese(monkeypatch):
    from chalicelib.games.presenters import seat_name

    with i18n.speaking("ja"):
        assert seat_name({"seat": 2, "player_id": None, "name": "greedy bot", "bot": "greedy"}) == "貪欲ボット"
        assert i18n._("Battle Line") == "バトルライン"
    services, game_id, sent = resign_by_reply("ja", monkeypatch)
    for mail in sent:
        assert "Battle Line" not in str(mail["Subject"]) and "バトルライン" in str(mail["Subject"])
        assert "Battle Line" not in text_of(mail)
    names = {"en": "greedy bot", "zh-Hans": "贪心机器人", "ja": "貪欲ボット", "vi": "bot tham lam"}
    for language, name in names.items():
        with i18n.speaking(language):
            assert seat_name({"seat": 2, "player_id": None, "name": "greedy bot", "bot": "greedy"}) == name
    # A player's own name is never taken for a bot's.
    assert seat_name({"seat": 1, "player_id": "p_1", "name": "greedy bot", "bot": None}) == "greedy bot"


@pytest.mark.parametrize(("language", "turn", "replay"), [
    ("en", "turn 5", "Version 1 of 9"), ("zh-Hans", "第5手", "第1手（共9手）"),
    ("ja", "5手目", "1手目（全9手）"), ("vi", "lượt 5", "Nước 1/9")])
def test_item_4_turns_and_a_replays_moves_are_counted_as_players_count_them(language, turn, replay):
    with i18n.speaking(language):
        assert turn_label({"turn": 5}) == turn
        assert i18n._("Version {version} of {latest}").format(version=1, latest=9) == replay
        assert "回合" not in turn_label({"turn": 5}) and "版" not in replay


@pytest.mark.parametrize("language, sentence", [("en", "Greedy bot passed"), ("vi", "Bot tham lam đã bỏ lượt")])
def test_a_story_sentence_that_begins_with_a_bots_name_begins_with_a_capital(language, sentence):
    """The bots' names are lower-case messages ("greedy bot", "bot tham lam"): a sentence of the game's
    story they begin starts with a capital all the same; a player's own lower-case name is kept."""
    from chalicelib.games.presenters import PRESENTERS

    seats = [{"seat": 1, "player_id": "p_1", "name": "ann", "bot": None},
             {"seat": 2, "player_id": None, "name": "greedy bot", "bot": "greedy"}]
    view = {"game": "battleline", "you": None, "seats": seats}
    with i18n.speaking(language):
        told = PRESENTERS["battleline"].told(view, [{"type": "pass", "seat": 2, "data": {}},
                                                     {"type": "pass", "seat": 1, "data": {}}])
    assert told[0] == sentence and told[1].startswith("ann ")
