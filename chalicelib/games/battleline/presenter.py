"""How Battle Line is shown to people and read from their text commands."""

from __future__ import annotations

from typing import Any

from ...kernel.i18n import N_
from ..base import Step, Words
from ..presenters import Presenter
from . import render, story, tactics
from .cards import is_troop
from .setup import PHASE_ORDER
from .steps import HELP, HELP_STEPS, STEPS
from .table import open_flags


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


def example_turn(view: dict, step: Step, numbered: bool = False) -> list[str]:
    """A turn as reply or command-line commands, from ``step`` (a step the seat may take now), then the
    rest of the turn (a claim, a draw) as the claim timing orders it: only steps the seat could take (a
    deck that has cards, a troop it holds into a free slot). The emails' example and the command line's."""
    written = [STEPS.write(step)]
    if view["phase"] in ("play", "claim"):
        state = view["state"]
        order = PHASE_ORDER.get(state.get("claim_timing"), PHASE_ORDER["basic"])
        for phase in order[order.index(view["phase"]) + 1:]:
            if phase == "claim":
                written.append("claim none")
            elif phase == "draw" and any(state["decks"].values()):
                written.append("draw troop" if state["decks"].get("troop") else "draw tactics")
            elif phase == "play" and (play := _a_play(view)) is not None:
                written.append(play)
    return written


def _a_play(view: dict) -> str | None:
    """A play the seat could make next: one it is offered now, else a troop it holds into a free slot
    of its side (the turn's play after a claim made first, claim_timing "start")."""
    offered = next((s for s in view["legal_steps"] if s["type"] == "play"), None)
    if offered is not None:
        return STEPS.write(offered)
    state = view["state"]
    troop = next((card for card in state.get("hand") or [] if is_troop(card)), None)
    flag = next((flag["flag"] for flag in open_flags(state, view["you"])), None)
    return STEPS.write({"type": "play", "card": troop, "flag": flag}) if troop is not None and flag is not None else None


def held_back(view: dict) -> list[tuple[list[str], Words]]:
    """The cards the seat holds but has no play of at its play decision, in hand order, grouped by the
    reason that keeps them in hand (``tactics.held_back``): "ALEXANDER, SCOUT: you have played 1 tactics
    card and your opponent 0 …". None outside the seat's own play decision."""
    if view.get("status") != "active" or view["to_move"] != view["you"] or view["phase"] != "play":
        return []
    offered = {step["card"] for step in view["legal_steps"] if step["type"] == "play"}
    kept: dict[str, tuple[list[str], Words]] = {}
    for card in dict.fromkeys(view["state"].get("hand") or []):
        if card not in offered:
            reason = tactics.held_back(view["state"], view["you"], card)
            kept.setdefault(reason, ([], reason))[0].append(card)
    return list(kept.values())


PRESENTER = Presenter(
    title=N_("Battle Line"), help=HELP, example='"play 7R 3", "claim none", "draw troop"', steps=STEPS,
    text_board=render.text_board, html_board=render.html_board, svg_board=render.svg_board,
    hand_html=render.hand_html, tell=story.tell, counts=story.counts, result_line=story.result_line,
    options_told=story.options_told, turn_label=story.turn_label, card_names=story.card_names,
    help_steps=HELP_STEPS, card_face=render.card, table_rows=render.table, on_a_spot=render.on_a_flag,
    grid_intro=lambda: render.grid_intro(STEPS.say), then=then,
    example_turn=example_turn, held_back=held_back, turn_of=lambda view: view["state"].get("turn_seat"),
    scoring=N_("Points: the winner of a game scores 5, the loser the flags it held (a match adds up its games)."))
