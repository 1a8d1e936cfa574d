"""How Battle Line is shown to people and read from their text commands."""

from __future__ import annotations

from ..base import Presenter
from . import commands as battleline_commands
from . import render as battleline_render

PRESENTER = Presenter(
    title="Battle Line", help=battleline_commands.HELP, example='"play 7R 3", "claim none", "draw troop"',
    text_board=battleline_render.text_board, html_board=battleline_render.html_board, svg_board=battleline_render.svg_board,
    hand_html=battleline_render.hand_html, describe_step=battleline_render.describe_step,
    write_step=battleline_commands.write_step, parse_commands=battleline_commands.parse_commands)
