"""The command line in the player's language: `show` in Japanese and Chinese with the board's columns
aligned however wide the characters, the resign question in Chinese, `--language` over
BATTLELINE_LANGUAGE over the preference kept in the config (read from the server once, refreshed by
`battleline language`), and the server asked for its refusals in the same language."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from battleline_cli import main, screens
from battleline_cli.client import Client, Failure
from battleline_cli.settings import columns, wrap
from chalicelib.kernel import i18n

from .games import positions
from .test_screens import later_position
from .command import run


def shown(view: dict, events: list[dict], language: str) -> list[str]:
    with i18n.speaking(language):
        return screens.screen(view, events)


def board_rows(lines: list[str], label: str) -> list[str]:
    return [line for line in lines if re.match(label, line)]


def test_show_in_japanese_has_japanese_words_and_aligned_columns():
    view, events = later_position("battleline", 4)
    lines = shown(view, events, "ja")
    text = "\n".join(lines)
    assert "あなたの手番です。" in text and "あなたの手札：" in text and "Your move" not in text
    rows = board_rows(lines, r"フラッグ\d")
    assert len(rows) == 9 and any("霧" in row for row in rows)  # Fog named in Japanese, before the cards
    # the "|" between the sides is in one terminal column on every row: フラッグ takes two columns a
    # character, and the label with Fog's name is the widest
    bars = {columns(row[:row.index("|")]) for row in rows}
    assert len(bars) == 1
    header = lines[lines.index(rows[0]) - 1]
    assert header.strip().startswith("Bob") and columns(header[:header.index("Bob")]) == columns(
        rows[0].split("  ")[0]) + 2  # Bob's name over his cards' column


def test_show_in_chinese_says_the_rule_books_words_and_keeps_the_columns():
    view, events = later_position("battleline", 4)
    lines = shown(view, events, "zh-Hans")
    rows = board_rows(lines, r"地区\d")
    assert len(rows) == 9 and len({columns(row[:row.index("|")]) for row in rows}) == 1
    text = "\n".join(lines)
    assert "轮到你了。" in text and "你的手牌：" in text
    # a tactic's rule in full-width punctuation, not ASCII "(name: rule)"
    assert "（大流士：" in text and "(大流士:" not in text


def test_khan_heading_sentences_join_with_no_ascii_space_in_japanese():
    view, events = later_position("khan", 4)
    text = "\n".join(shown(view, events, "ja"))
    assert re.search(r"あなたの手番：.+。この手番に\d+枚中\d+枚をプレイしました。", text)
    assert re.search(r"\(-?\d+, -?\d+\)、\(-?\d+, -?\d+\)、または\(-?\d+, -?\d+\)", text)  # CLDR's "or" list


def test_the_log_wraps_chinese_by_terminal_columns():
    view, events = next((v, e) for v, e in positions("battleline", 2, steps=80) if len(e) > 60)
    with i18n.speaking("zh-Hans"):
        lines = screens.log(view, events)
    told = [line for line in lines[2:] if line.strip()]
    assert told and all(columns(line) <= 100 for line in told)
    assert any(columns(line) > 80 for line in told)  # filled, not cut at 100 characters' worth of width
    assert all(". " not in line[6:] for line in told)  # sentences end with 。, no ASCII full stop between them
    assert any(line.startswith("  17. ") and columns(line) > 90 for line in told)  # a long turn, wrapped


def test_wrap_breaks_between_chinese_characters_but_not_inside_latin_words():
    lines = wrap("Bob在地区5打出3O。Bob从部队牌堆抓了一张牌。" * 3, 30, "  > ", "  > ")
    assert all(columns(line) <= 30 for line in lines) and len(lines) > 2
    assert all(not line[4:].startswith(("。", "，")) for line in lines)  # no line begins with a closing mark
    assert "".join(line[4:] for line in lines) == "Bob在地区5打出3O。Bob从部队牌堆抓了一张牌。" * 3


# ---------------------------------------------------------------- the command, with a recorded server

VIEW, EVENTS = later_position("battleline", 4)  # Ann to move, in game g_1


@pytest.fixture
def server(monkeypatch):
    """A server that answers getGame, getPreferences and updatePreferences, recording each request
    with the language it was asked in (Accept-Language)."""
    calls: list[tuple] = []
    preference = {"language": "ja"}

    class Recorded(Client):
        def call(self, method, path, body=None, *, auth=True):
            calls.append((method, path, body, self.language))
            if path == "/v1/players/me/preferences":
                if method == "PUT":
                    preference.update(body)
                return dict(preference)
            if path == "/v1/games/g_1" and method == "GET":
                return dict(VIEW)
            if path.startswith("/v1/games/g_1/events") and method == "GET":
                return {"events": EVENTS, "next_cursor": None}
            raise Failure(i18n.in_language(self.language, lambda: i18n._("the game is over")) + " (game_finished)")

    monkeypatch.setattr(main, "Client", Recorded)
    return calls


def test_the_resign_question_and_its_refusal_in_chinese(server, monkeypatch, capsys):
    status, out, err = run(["--key", "k", "--language", "zh-Hans", "resign", "g_1"], monkeypatch, capsys, stdin="\n")
    assert "认输" in out and "[y/N]" in out and "Resign" not in out
    assert status == 1 and err.startswith("错误：") and "battleline resign g_1 --yes" in err
    assert not [c for c in server if c[0] == "POST"]  # not resigned


def test_the_language_option_overrides_the_environment_which_overrides_the_preference(server, monkeypatch, capsys):
    _status, out, _err = run(["--key", "k", "show", "g_1"], monkeypatch, capsys,
                             env={"BATTLELINE_LANGUAGE": "vi"})
    assert "Đến lượt bạn" in out or "Lượt của bạn" in out, out
    assert ("GET", "/v1/players/me/preferences", None, None) not in server  # the environment chose: no request
    _status, out, _err = run(["--key", "k", "--language", "zh", "show", "g_1"], monkeypatch, capsys,
                             env={"BATTLELINE_LANGUAGE": "vi"})
    assert "轮到你了" in out and all(c[3] == "zh-Hans" for c in server[-2:])  # Accept-Language: zh-Hans


def test_the_preference_is_read_once_then_kept_in_the_config(server, monkeypatch, capsys, config):
    _status, out, _err = run(["--key", "k", "show", "g_1"], monkeypatch, capsys)
    assert "あなたの手番です。" in out
    assert [c for c in server if c[1] == "/v1/players/me/preferences"] == [
        ("GET", "/v1/players/me/preferences", None, None)]
    kept = json.loads(config.read_text())
    assert list(kept["languages"].values()) == ["ja"] and "k" not in json.dumps(kept).split('"')  # no key in it
    server.clear()
    _status, out, _err = run(["--key", "k", "show", "g_1"], monkeypatch, capsys)
    assert "あなたの手番です。" in out and [c[1] for c in server] == ["/v1/games/g_1", "/v1/games/g_1/events?after=0"]
    assert all(c[3] == "ja" for c in server)  # no request more, and the server asked for Japanese
    _status, out, _err = run(["--key", "other", "show", "g_1"], monkeypatch, capsys)
    assert ("GET", "/v1/players/me/preferences", None, None) in server  # another key: another player


def test_battleline_language_sets_the_preference_and_the_next_commands_speak_it(server, monkeypatch, capsys):
    _status, out, _err = run(["--key", "k", "language", "vi"], monkeypatch, capsys)
    assert ("PUT", "/v1/players/me/preferences", {"language": "vi"}, "ja") in server
    assert out.strip() == "Ngôn ngữ của bạn giờ là Tiếng Việt (vi)."
    server.clear()
    _status, out, _err = run(["--key", "k", "language"], monkeypatch, capsys)
    assert out.strip() == "Ngôn ngữ của bạn: Tiếng Việt (vi)." and server[0][3] == "vi"


def test_an_unknown_language_is_refused_naming_ours(server, monkeypatch, capsys):
    status, _out, err = run(["--key", "k", "--language", "klingon", "show", "g_1"], monkeypatch, capsys)
    assert status == 1 and "klingon" in err and "zh-Hans" in err and not server
    status, _out, err = run(["--key", "k", "language", "fr"], monkeypatch, capsys)
    assert status == 1 and "'fr'" in err and not [c for c in server if c[0] == "PUT"]


def test_a_refusal_from_the_server_is_told_in_the_language(server, monkeypatch, capsys):
    status, _out, err = run(["--key", "k", "--language", "ja", "accept", "g_1"], monkeypatch, capsys)
    assert status == 1 and err.strip() == "エラー：ゲームは終了しています (game_finished)"


def test_the_help_still_works_without_a_server(monkeypatch, capsys):
    result = CliRunner().invoke(main.app, ["--help"])
    assert result.exit_code == 0 and "--language" in result.output


def test_the_help_is_in_the_language_known_before_any_request(server, monkeypatch, capsys, config):
    status, out, _err = run(["--language", "ja", "resign", "--help"], monkeypatch, capsys)
    assert status == 0 and "今すぐ投了します（先に確認します）。" in out and "確認しません。" in out
    config.write_text(json.dumps({"languages": {}}))
    run(["--key", "k", "--language", "zh-Hans", "language", "zh-Hans"], monkeypatch, capsys)  # kept for key k
    _status, out, _err = run(["--key", "k", "--help"], monkeypatch, capsys)
    assert "在终端里，在通信对局服务器上玩战线和汗王与大将军。" in out
    assert not [c for c in server if c[0] == "GET"]  # the help needed no request


@pytest.mark.parametrize("said, resigned", [("是", True), ("はい", True), ("có", True), ("y", True), ("", False),
                                            ("否", False), ("いいえ", False)])
def test_the_resign_question_takes_yes_as_each_language_says_it(server, monkeypatch, capsys, said, resigned):
    status, _out, _err = run(["--key", "k", "--language", "zh-Hans", "resign", "g_1"], monkeypatch, capsys,
                             stdin=said + "\n")
    posted = [c for c in server if c[0] == "POST"]
    assert bool(posted) is resigned and (status == 1 if not resigned else posted[0][2]["steps"] == [{"type": "resign"}])
