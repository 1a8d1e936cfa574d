"""How Khan & General is shown to people and read from their text commands."""

from __future__ import annotations

from ..base import Presenter
from . import commands as khan_commands
from . import render as khan_render

PRESENTER = Presenter(
    title="Khan & General", help=khan_commands.HELP, example='"deploy light_cavalry -1 0 N", "end action"',
    text_board=khan_render.text_board, html_board=khan_render.html_board, svg_board=khan_render.svg_board, hand_html=khan_render.hand_html,
    describe_step=khan_render.describe_step, write_step=khan_commands.write_step,
    parse_commands=khan_commands.parse_commands, bulky_steps=("deploy", "move", "pay", "turn"))
