"""`battleline play GAME ...` reads the commands an email reply takes, however the shell passed
them: quoted, separated by "/" or ";", or as bare words; and the numbers of a short decision."""

from __future__ import annotations

import pytest

from battleline_cli.typed import lines_of, steps_of
from chalicelib.games.presenters import PRESENTERS
from chalicelib.games.steptypes import CommandError

BATTLELINE, KHAN = PRESENTERS["battleline"], PRESENTERS["khan"]
TURN = ["play 7R 3", "claim none", "draw troop"]


@pytest.mark.parametrize("words", [
    ["play 7R 3", "claim none", "draw troop"],
    ["play", "7R", "3", "/", "claim", "none", "/", "draw", "troop"],
    ["play", "7R", "3;", "claim", "none;", "draw", "troop"],
    ["play 7R 3 / claim none / draw troop"],
    ["play", "7R", "3", "claim", "none", "draw", "troop"],
])
def test_a_battle_line_turn_however_it_is_typed(words):
    assert lines_of(words, BATTLELINE) == TURN


def test_khan_words_are_cut_where_every_command_reads():
    """"advance" begins a command and is a General's card too: "command advance 0 0 seq 1" is one."""
    words = "command advance 0 0 seq 1 end action".split()
    assert lines_of(words, KHAN) == ["command advance 0 0 seq 1", "end action"]
    assert lines_of("deploy light_cavalry -1 0 N pay lance end action end turn".split(), KHAN) == [
        "deploy light_cavalry -1 0 N", "pay lance", "end action", "end turn"]
    assert lines_of(["deploy light_cavalry (-1, 0) N"], KHAN) == ["deploy light_cavalry (-1, 0) N"]


def test_words_that_make_no_command_are_named_in_the_error():
    view = {"game": "battleline", "you": 1, "to_move": 1, "phase": "play", "legal_steps": [], "state": {}}
    with pytest.raises(CommandError, match="cannot read 'play 7R'"):
        steps_of(["play", "7R", "claim", "none"], view, BATTLELINE, "g_1")


def test_numbers_pick_from_a_short_decision_only():
    draws = [{"type": "draw", "deck": "troop"}, {"type": "draw", "deck": "tactics"}, {"type": "resign"}]
    view = {"game": "battleline", "you": 1, "to_move": 1, "phase": "draw", "legal_steps": draws,
            "state": {"claim_timing": "basic", "decks": {"troop": 3, "tactics": 2}}}
    assert steps_of(["2"], view, BATTLELINE, "g_1") == [{"type": "draw", "deck": "tactics"}]
    with pytest.raises(CommandError, match="there is no move 3 now"):  # resign is never a number
        steps_of(["3"], view, BATTLELINE, "g_1")
    plays = {**view, "phase": "play", "legal_steps": [{"type": "play", "card": "7R", "flag": n} for n in range(1, 10)]}
    with pytest.raises(CommandError, match="there are no numbered moves now"):
        steps_of(["1"], plays, BATTLELINE, "g_1")


@pytest.mark.parametrize("language, words, lines", [
    ("ja", ["8Yを4に出す", "宣言なし", "軍隊を引く"], ["8Yを4に出す", "宣言なし", "軍隊を引く"]),
    ("ja", ["プレイ", "8Y", "4", "宣言なし", "軍隊を引く"], ["プレイ 8Y 4", "宣言なし", "軍隊を引く"]),
    ("zh-Hans", ["出 8Y 4", "不声明", "抓部队"], ["出 8Y 4", "不声明", "抓部队"]),
])
def test_a_turn_in_chinese_or_japanese_words_reads_however_the_arguments_are_split(language, words, lines):
    """Chinese and Japanese write a command without spaces: each such argument is a command of its own,
    not a word to join with the next ("宣言なし 軍隊を引く" read as one line was refused)."""
    from chalicelib.kernel import i18n

    with i18n.speaking(language):
        assert lines_of(words, BATTLELINE) == lines
        assert [BATTLELINE.steps.read_line(line) for line in lines][1:] == [
            {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}]
