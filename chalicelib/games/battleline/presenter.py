"""How Battle Line is shown to people and read from their text commands."""

from __future__ import annotations

from ...i18n import N_
from ..presenters import Presenter
from . import render, story
from .steps import HELP, HELP_STEPS, STEPS

PRESENTER = Presenter(
    title=N_("Battle Line"), help=HELP, example='"play 7R 3", "claim none", "draw troop"', steps=STEPS,
    text_board=render.text_board, html_board=render.html_board, svg_board=render.svg_board,
    hand_html=render.hand_html, tell=story.tell, counts=story.counts, result_line=story.result_line,
    options_told=story.options_told, turn_label=story.turn_label, card_names=story.card_names,
    help_steps=HELP_STEPS, card_face=render.card, table_rows=render.table, on_a_spot=render.on_a_flag,
    grid_intro=lambda: render.grid_intro(STEPS.say))
