"""How Khan & General is shown to people and read from their text commands."""

from __future__ import annotations

import re

from ...kernel.i18n import N_
from ..base import Step
from ..presenters import Presenter
from . import render, story
from .steps import HELP, HELP_ASIDES, STEPS


# One of each command, as the help of a reply that could not be read says them in a reader's own command
# words with what each does (English readers get the step table's HELP as written): HELP's own commands,
# read from its columns (two spaces or " / " apart; its bracketed asides left out).
HELP_STEPS = tuple(STEPS.read_line(command) for line in HELP.splitlines()
                   for command in re.split(r"\s{2,}|\s/\s", line.strip()) if command and not command.startswith("("))


def example_turn(view: dict, step: Step, numbered: bool = False) -> list[str]:
    """An action phase to type at once: a deployment and a card paid if the turn's card limit allows,
    then the end of the actions (the reaction window is the opponent's); else ``step`` alone (and
    alone when the command line numbers its choices). The emails' example and the command line's."""
    if numbered or not any(s["type"] == "end_action" for s in view["legal_steps"]):
        return [STEPS.write(step)]
    state = view["state"]
    room = state["limits"].get(str(view["you"]), 0) - state.get("played", 0)
    written = []
    for kind in ("deploy", "pay"):
        found = next((s for s in view["legal_steps"] if s["type"] == kind), None)
        if found and len(written) < room:
            written.append(STEPS.write(found))
    return written + ["end action"]

PRESENTER = Presenter(
    title=N_("Khan & General"), help=HELP, example='"deploy light_cavalry -1 0 N", "end action"', steps=STEPS,
    text_board=render.text_board, html_board=render.html_board, svg_board=render.svg_board,
    hand_html=render.hand_html, tell=story.tell, counts=story.counts, result_line=story.result_line,
    options_told=story.options_told, turn_label=story.turn_label, bulky_steps=("deploy", "move", "pay", "turn"),
    card_names=story.card_names, help_steps=HELP_STEPS, help_asides=HELP_ASIDES, example_turn=example_turn,
    turn_of=lambda view: view["state"].get("active"),
    scoring=N_("Points: 1 for a win, ½ for a draw, 0 for a loss."))
