"""How each game is shown to people and read from their text commands (emails, pages, the
command line), by the name clients use in ``createGame``."""

from __future__ import annotations

from .base import Presenter
from .battleline import commands as battleline_commands
from .battleline import render as battleline_render
from .khan import commands as khan_commands
from .khan import render as khan_render

PRESENTERS: dict[str, Presenter] = {
    "battleline": Presenter(
        title="Battle Line", help=battleline_commands.HELP, example='"play 7R 3", "claim none", "draw troop"',
        text_board=battleline_render.text_board, html_board=battleline_render.html_board,
        hand_html=battleline_render.hand_html, describe_step=battleline_render.describe_step,
        write_step=battleline_commands.write_step, parse_commands=battleline_commands.parse_commands),
    "khan": Presenter(
        title="Khan & General", help=khan_commands.HELP, example='"deploy light_cavalry -1 0 N", "end action"',
        text_board=khan_render.text_board, html_board=khan_render.html_board, hand_html=khan_render.hand_html,
        describe_step=khan_render.describe_step, write_step=khan_commands.write_step,
        parse_commands=khan_commands.parse_commands, bulky_steps=("deploy", "move", "pay", "turn")),
}
