"""Issue 36 item 4 (the cards): a tactics card in emails and on the command line says what it stands for,
as the board page does ("Companion Cavalry (an 8 of any colour)"), in each of the four languages: one
function, Battle Line's ``story.described``, used by the email's hand and table text and the CLI's hand."""

from __future__ import annotations

import copy

import pytest

from battleline_cli import screens
from chalicelib.kernel import i18n
from chalicelib.games.battleline.story import described
from chalicelib.presenting import show
from chalicelib.presenting.links import Links

from .games import positions

SAID = {
    "en": ("Companion Cavalry (an 8 of any colour)",
           "Fog (the higher total wins the flag, formations do not count)"),
    "zh-Hans": ("攻击卡（任意颜色的8）", "迷雾卡（数字总和大者赢得该地区，阵型不计）"),
    "ja": ("コンパニオン騎兵（任意の色の8）", "霧（合計値の大きい方がフラッグを獲得し、フォーメーションは無効）"),
    "vi": ("Companion Cavalry (một lá 8 màu bất kỳ)",
           "Fog (tổng số lớn hơn thắng chốt, các kết hợp đội quân không được tính)"),
}


@pytest.mark.parametrize("language", sorted(SAID))
def test_item_4_a_tactics_card_says_what_it_stands_for_in_each_language(language):
    with i18n.speaking(language):
        assert (described("COMPANION"), described("FOG")) == SAID[language]
        assert described("8G") == "8G"  # a troop is its notation


def _with_tactics() -> tuple[dict, list]:
    """Ann to move, holding COMPANION, with a SHIELD of hers on flag 2."""
    view, events = next(positions("battleline", 3, 40))
    view = copy.deepcopy(view)
    view["state"]["hand"] = view["state"]["hand"][:6] + ["COMPANION"]
    flag = view["state"]["flags"][1]
    flag["cards"][flag["seats"].index(view["you"])] = ["SHIELD"]
    return view, events


@pytest.mark.parametrize("language", sorted(SAID))
def test_item_4_the_emails_hand_and_table_text_say_what_a_tactic_stands_for(language):
    view, _events = _with_tactics()
    with i18n.speaking(language):
        letter = show.letter(view, Links("k" * 32, "https://play.example"))
        assert described("COMPANION") in letter["hand_text"]
        assert any(described("SHIELD") in line for line in letter["table_text"])
        assert SAID[language][0] in letter["hand_text"]


@pytest.mark.parametrize("language", sorted(SAID))
def test_item_4_the_command_lines_hand_says_what_a_tactic_stands_for(language):
    view, events = _with_tactics()
    with i18n.speaking(language):
        shown = screens.screen(view, events)
        at = next(i for i, line in enumerate(shown) if "COMPANION" in line)  # the hand, before the moves
        assert shown[at + 1].strip().startswith("COMPANION") and shown[at + 1].endswith(SAID[language][0])


@pytest.mark.parametrize("language", sorted(SAID))
def test_item_4_the_html_emails_hand_shows_what_a_tactic_stands_for_in_words(language):
    """Not only as a hover title: a reader of the HTML part sees it under the hand's cards."""
    import re

    from chalicelib.presenting.templates import render

    view, _events = _with_tactics()
    with i18n.speaking(language):
        letter = show.letter(view, Links("k" * 32, "https://play.example"))
        html = render("notification.html", **letter, unsubscribe_url="https://play.example/u")
        shown = re.sub(r'title="[^"]*"', "", html)  # the words on the page, hover titles left out
        assert SAID[language][0] in shown
