"""A command line whose first word is a slip of the keyboard ("paly") is refused with the command it
most likely meant, in the reader's language; one that is no near miss lists the commands, as a choice
("…, return, or mud", not "and mud")."""

from __future__ import annotations

import pytest

from chalicelib.games.battleline.steps import STEPS as BATTLELINE
from chalicelib.games.khan.steps import STEPS as KHAN
from chalicelib.games.steptypes import CommandError
from chalicelib.kernel import i18n


def refusal(table, line: str, language: str = "en") -> str:
    with i18n.speaking(language):
        with pytest.raises(CommandError) as refused:
            table.read_line(line)
        return i18n.say(refused.value.reason)


@pytest.mark.parametrize("table, line, meant", [(BATTLELINE, "paly 4R 3", "play"), (BATTLELINE, "calim none", "claim"),
                                                (BATTLELINE, "darw troop", "draw"),
                                                (KHAN, "deplyo heavy_cavalry 0 0 N", "deploy")])
def test_a_misspelt_command_is_answered_with_the_one_it_most_likely_meant(table, line, meant):
    assert refusal(table, line).startswith(f"cannot read '{line}': did you mean '{meant}'? A command begins with")


def test_the_command_it_meant_is_said_in_the_readers_language():
    assert refusal(BATTLELINE, "paly 4R 3", "ja").startswith("「paly 4R 3」を読み取れません。「play」のことですか？")


def test_a_line_that_is_no_near_miss_lists_the_commands_as_a_choice():
    said = refusal(BATTLELINE, "hello there")
    assert "did you mean" not in said
    assert said.endswith("a command begins with one of play, claim, draw, pass, resign, scout, return, or mud")
