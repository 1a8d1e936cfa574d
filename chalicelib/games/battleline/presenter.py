"""How Battle Line is shown to people and read from their text commands."""

from __future__ import annotations

from typing import Any

from ...kernel.i18n import N_
from ..presenters import Presenter
from . import render, story
from .steps import HELP, HELP_STEPS, STEPS


def then(seen: dict, phase: str, choices: Any) -> tuple[dict, dict] | None:
    """What follows a play in the same turn, on its link's page: the claim (the flags it can prove,
    or those ``choices.claims`` picks among them), then the draw (``choices.deck`` if it has cards,
    else a troop card, else the deck that has some). None in any other phase."""
    if phase == "claim":
        provable = list(seen.get("claimable") or [])
        wanted = provable if choices is None or choices.claims is None else \
            [flag for flag in provable if flag in choices.claims]
        return {"type": "claim", "flags": provable}, {"type": "claim", "flags": wanted}
    if phase == "draw":
        decks = {deck: size for deck, size in seen["decks"].items() if size}
        chosen = choices.deck if choices is not None and choices.deck in decks else None
        return {"type": "draw", "decks": decks}, {"type": "draw", "deck": chosen or ("troop" if "troop" in decks
                                                                                     else next(iter(decks)))}
    return None


PRESENTER = Presenter(
    title=N_("Battle Line"), help=HELP, example='"play 7R 3", "claim none", "draw troop"', steps=STEPS,
    text_board=render.text_board, html_board=render.html_board, svg_board=render.svg_board,
    hand_html=render.hand_html, tell=story.tell, counts=story.counts, result_line=story.result_line,
    options_told=story.options_told, turn_label=story.turn_label, card_names=story.card_names,
    help_steps=HELP_STEPS, card_face=render.card, table_rows=render.table, on_a_spot=render.on_a_flag,
    grid_intro=lambda: render.grid_intro(STEPS.say), then=then)
