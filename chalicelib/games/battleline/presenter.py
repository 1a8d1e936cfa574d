"""How Battle Line is shown to people and read from their text commands."""

from __future__ import annotations

from ...i18n import N_
from ..presenters import Presenter
from . import render, story
from .steps import HELP, STEPS

PRESENTER = Presenter(
    title=N_("Battle Line"), help=HELP, example='"play 7R 3", "claim none", "draw troop"', steps=STEPS,
    text_board=render.text_board, html_board=render.html_board, svg_board=render.svg_board,
    hand_html=render.hand_html, tell=story.tell, counts=story.counts)
