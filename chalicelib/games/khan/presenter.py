"""How Khan & General is shown to people and read from their text commands."""

from __future__ import annotations

from ...kernel.i18n import N_
from ..presenters import Presenter
from . import render, story
from .steps import HELP, HELP_ASIDES, STEPS

PRESENTER = Presenter(
    title=N_("Khan & General"), help=HELP, example='"deploy light_cavalry -1 0 N", "end action"', steps=STEPS,
    text_board=render.text_board, html_board=render.html_board, svg_board=render.svg_board,
    hand_html=render.hand_html, tell=story.tell, counts=story.counts, result_line=story.result_line,
    options_told=story.options_told, turn_label=story.turn_label, bulky_steps=("deploy", "move", "pay", "turn"),
    card_names=story.card_names, help_asides=HELP_ASIDES)
