"""The command line names a game in the language spoken (issue 19), and lists of games stay
lined up when a title is written in wide characters."""

from __future__ import annotations

from battleline_cli import screens
from chalicelib.kernel.i18n import speaking


def test_the_titles_follow_the_language_and_pad_by_terminal_columns():
    with speaking("zh-Hans"):
        rows = [f"g_1  {screens.TITLES.get(game, game):<15} 轮到你了" for game in ("battleline", "khan")]
    assert rows == ["g_1  战线            轮到你了", "g_1  汗王与大将军    轮到你了"]
    assert len({screens.columns(row) for row in rows}) == 1  # the next column starts at the same place
    with speaking("ja"):
        assert screens.TITLES["khan"] == "Khan & General"  # Latin, as 002 writes Battle Line
    assert f"{screens.TITLES['battleline']:<15}|" == "Battle Line    |"
    assert screens.TITLES.get("chess", "chess") == "chess"  # a game this client does not know: its code


def test_the_screen_title_names_the_game_in_the_language_spoken():
    view = {"game": "khan", "game_id": "g_1", "you": 1,
            "seats": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bob"}]}
    with speaking("zh-Hans"):
        assert screens.title(view).startswith("汗王与大将军")
    assert screens.title(view).startswith("Khan & General, game g_1")
