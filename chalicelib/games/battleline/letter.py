"""Battle Line's cards and table as emails and link pages draw them (presenting.show's templates):
a troop by its value on its colour, a tactic by its full name; each flag with its two sides from a
seat's view. From the seat's view only."""

from __future__ import annotations

from ...i18n import N_, _
from .cards import parse_troop
from .story import card_name

COLOURS = {  # colour letter -> (name, card colour, text colour): readable in mail clients and at a glance
    "R": (N_("red"), "#c62828", "#ffffff"), "O": (N_("orange"), "#e65100", "#ffffff"),
    "Y": (N_("yellow"), "#fdd835", "#212121"), "G": (N_("green"), "#2e7d32", "#ffffff"),
    "B": (N_("blue"), "#1565c0", "#ffffff"), "P": (N_("purple"), "#6a1b9a", "#ffffff"),
}
ENVIRONMENT = {"FOG": N_("Fog"), "MUD": N_("Mud")}


def card(code: str) -> dict:
    """A Battle Line card for the templates: a troop by its value on its colour, a tactic by its
    full name."""
    troop = parse_troop(code)
    if troop is None:
        return {"code": code, "name": card_name(code), "tactic": True, "value": card_name(code),
                "letter": "", "colour": "#ffffff", "ink": "#37474f", "title": card_name(code)}
    colour, fill, ink = COLOURS[troop.colour]
    return {"code": code, "name": code, "tactic": False, "value": str(troop.value), "letter": troop.colour,
            "colour": fill, "ink": ink, "title": _("{value} {colour}").format(value=troop.value, colour=_(colour))}


def table(view: dict, who: dict[int, str]) -> list[dict]:
    """Battle Line's nine flags, each with its two sides (the others' first, the seat's own
    second, each with its player's name in ``who``), Fog and Mud, who won it, and whether the seat
    may claim it now."""
    state, you = view["state"], view["you"]
    claimable = set(state.get("claimable") or [])
    rows = []
    for flag in state["flags"]:
        seats = list(flag["seats"])
        order = [1 - seats.index(you), seats.index(you)] if you in seats else [0, 1]
        sides = [{"seat": seats[i], "name": _("You") if seats[i] == you else who.get(seats[i], "?"),
                  "mine": seats[i] == you, "cards": [card(c) for c in flag["cards"][i]]} for i in order]
        claimed = flag["claimed_by"]
        rows.append({
            "flag": flag["flag"], "label": _("Flag {flag}").format(flag=flag["flag"]), "sides": sides,
            "environment": [_(ENVIRONMENT.get(e, e)) for e in flag["environment"]],
            "claimed": None if claimed is None else (_("you") if claimed == you else who.get(claimed, "?")),
            "claimed_mine": claimed is not None and claimed == you,
            "claimable": flag["flag"] in claimable,
        })
    return rows


def on_a_flag(step: dict) -> bool:
    """A play of a card onto a flag (the email's card x flag grid), not a tactic's move."""
    return step["type"] == "play" and "flag" in step and "target" not in step


def grid_intro(say) -> str:
    """The line above the text part's grid: how its cells are written as commands, in the reader's words."""
    return _("Where each card can go ({play} CARD FLAG; then {claim} FLAGS or {none}; then {troop} or "
             "{tactics}):").format(play=say("play"), claim=say("claim"), none=say("claim none"),
                                   troop=say("draw troop"), tactics=say("draw tactics"))
