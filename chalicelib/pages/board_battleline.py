"""The Battle Line table on the board page: what the page draws (the flags with each side's cards,
Fog and Mud, who won each flag), the cards as faces (colour and value, tactics by their full
names), and for each play the flags its seat could claim after it
(so that a whole turn, play, claim and draw, is chosen at once and sent as one action).

From a seat's view only: nothing here looks at another seat's hand."""

from __future__ import annotations

import copy

from ..games.battleline import claims, render, turns
from ..games.battleline.cards import ENVIRONMENT_TACTICS, GUILE_TACTICS, LEADERS, parse_troop
from ..games.battleline.setup import PHASE_ORDER
from ..games.battleline.presenter import PRESENTER
from ..games.battleline.story import card_name as tactic_or_troop
from ..games.presenters import names as names_of
from ..kernel.i18n import N_, _

COLOURS = render.COLOUR_WORDS
# A shape for each colour besides its hue, so that no two colours are told apart by hue alone.
GAME = __name__.rpartition(".board_")[2]  # the game whose table this is, by its module's name (pages/board.py)
SYMBOLS = {colour: face[2] for colour, face in render.CARD_FACES.items()}
TACTIC_RULES = {
    "ALEXANDER": N_("Leader: any colour, any value. One Leader a player."),
    "DARIUS": N_("Leader: any colour, any value. One Leader a player."),
    "COMPANION": N_("Morale: any colour, value 8."),
    "SHIELD": N_("Morale: any colour, value 1, 2 or 3."),
    "FOG": N_("Environment: at this flag only the sum of values counts."),
    "MUD": N_("Environment: each side needs four cards at this flag."),
    "SCOUT": N_("Guile: draw three cards, then put two back."),
    "REDEPLOY": N_("Guile: move one of your cards to another flag, or discard it."),
    "DESERTER": N_("Guile: discard one of your opponent's cards."),
    "TRAITOR": N_("Guile: take an opponent's troop to one of your flags."),
}


def face(card: str) -> dict:
    """A card as the page draws it: a troop's value and colour (a word and a shape too), a tactic's
    full name, kind and rule."""
    troop = parse_troop(card)
    if troop:
        colour = _(COLOURS[troop.colour])
        return {"tactic": False, "value": str(troop.value), "colour": troop.colour, "colour_name": colour,
                "symbol": SYMBOLS[troop.colour],
                "name": _("{value} {colour}").format(value=troop.value, colour=colour)}
    kind = ("environment" if card in ENVIRONMENT_TACTICS else "guile" if card in GUILE_TACTICS
            else "leader" if card in LEADERS else "morale")
    return {"tactic": True, "kind": kind, "name": tactic_or_troop(card), "rule": _(TACTIC_RULES.get(card, ""))}


def card_name(card: str) -> str:
    """A card in a sentence: a troop by its value and colour word (``5 orange``, never ``5O``, which
    reads as 50), a tactic by its full name."""
    troop = parse_troop(card)
    if troop:
        return _("{value} {colour}").format(value=troop.value, colour=_(COLOURS[troop.colour]))
    return tactic_or_troop(card)


def sides_of(flag: dict, you: int | None) -> tuple[int, int]:
    """(the seat drawn above the flag, the seat drawn below): the seat's own side below; a spectator
    sees the table from the flag's first seat."""
    first, second = flag["seats"]
    return (first, second) if you == second else (second, first)


def table(view: dict, steps: list[dict]) -> dict:
    """What the page draws and chooses from (see the module's docstring); each legal step of
    ``steps`` gains ``claimable_after`` where the page may plan the claim that follows it."""
    state, you, names = view["state"], view["you"], names_of(view)
    seen: set[str] = set(state["hand"])
    flags = []
    for flag in state["flags"]:
        top, bottom = sides_of(flag, you)
        cards = dict(zip(flag["seats"], flag["cards"]))
        seen.update(cards[top], cards[bottom], flag["environment"])
        claimed = flag["claimed_by"]
        flags.append({"flag": flag["flag"], "top": {"seat": top, "cards": cards[top]},
                      "bottom": {"seat": bottom, "cards": cards[bottom]},
                      "environment": [{"card": card, "seat": flag["environment_seats"].get(card)}
                                      for card in flag["environment"]],
                      "claimed_by": claimed, "claimed_name": names.get(claimed) if claimed else None,
                      "size": claims.side_size(flag)})
    for cards in state["discards"].values():
        seen.update(cards)
    for choice in steps:
        choice["claimable_after"] = claimable_after(view, choice["step"])
    held = sorted(f["flag"] for f in state["flags"] if you is not None and f["claimed_by"] == you)
    three = state["players"] == 3
    order = list(PHASE_ORDER[state["claim_timing"]])
    auto = bool((view.get("options") or {}).get("auto_claim", {}).get(str(you)))
    return {"flags": flags, "cards": {card: face(card) for card in sorted(seen)},
            "decks": dict(state["decks"]), "phase_order": order, "auto_claim": auto,
            "claimable": list(state.get("claimable") or []), "scouted": state["scouted_this_turn"],
            "victory": {"held": held, "adjacent": 3, "flags": 4 if three else 5, "ring": three,
                        "count": len(state["flags"])},
            "discards": [{"seat": int(seat), "name": names.get(int(seat), "?"), "cards": cards}
                         for seat, cards in sorted(state["discards"].items())],
            "hand_sizes": {seat: size for seat, size in state["hand_sizes"].items()},
            "scout": state.get("scout"), "three_players": three,
            "held_back": PRESENTER.not_playable(view)}


def svg(view: dict) -> str:
    """The table as SVG, with the players' names (for browsers without the script)."""
    return render.svg_board(view["state"], view["you"], names=names_of(view))


def claimable_after(view: dict, step: dict) -> list[int] | None:
    """The flags the seat could claim after ``step`` (a play into a slot or at a flag, or a pass),
    proved from the table as it would then be; None for steps whose table the page does not work
    out (guile tactics, Scout): the page then sends them alone, and the claim is chosen after."""
    state, seat = view["state"], view["you"]
    if seat is None or step["type"] not in ("play", "pass"):
        return None
    if step["type"] == "pass":
        return list(state.get("claimable") or [])
    card, number = step.get("card"), step.get("flag")
    if number is None or "target" in step:
        return None
    table = {"flags": copy.deepcopy(state["flags"]), "discards": state["discards"]}
    for flag in table["flags"]:
        _stamp(flag, completing=None)
    flag = table["flags"][number - 1]
    if card in ENVIRONMENT_TACTICS:
        flag["environment"].append(card)
        flag["environment_seats"][card] = seat
        _stamp(flag, completing=None)
    else:
        flag["cards"][flag["seats"].index(seat)].append(card)
        _stamp(flag, completing=seat)
    return turns.provable_flags(table, seat)


def _stamp(flag: dict, completing: int | None) -> None:
    """The completion order the claim proof reads (``completed``), rebuilt from what a view shows
    (``first_complete``): the side completed first, then the other; a side the play completes
    comes last."""
    size = claims.side_size(flag)
    stamps: list[int | None] = []
    for seat, cards in zip(flag["seats"], flag["cards"]):
        if len(cards) < size:
            stamps.append(None)
        elif seat == completing and len(cards) == size and flag.get("first_complete") != seat:
            stamps.append(2)
        else:
            stamps.append(0 if flag.get("first_complete") == seat else 1)
    flag["completed"] = stamps


# ---------------------------------------------------------------- the replay (pages/board_replay.py)


def hand_names(view: dict, cards: list[str]) -> list[str]:
    """A hand's cards by their names (a troop's value and colour, a tactic's full name)."""
    return [card_name(card) for card in cards]


def everything(view: dict) -> dict:
    """The view the table is drawn from (Battle Line's: the view itself)."""
    return view


def flag_rows(view: dict) -> dict | None:
    """Battle Line's table as rows (a flag a row, each side's cards as small faces): what a phone
    shows instead of the drawing, whose words would be too small there."""
    def chip(card: str) -> dict:
        troop = parse_troop(card)
        if troop is None:
            return {"text": card_name(card), "title": card_name(card), "fill": "#ffffff", "ink": "#3b2a12"}
        fill, ink, shape = render.CARD_FACES[troop.colour]
        return {"text": f"{troop.value}{shape}", "title": card_name(card), "fill": fill, "ink": ink}

    people, you = names_of(view), view["you"]
    label = {seat: _("You") if seat == you else people.get(seat, "?") for seat in people}
    rows, sides = [], None
    for flag in view["state"]["flags"]:
        top, bottom = sides = sides_of(flag, you)
        cards = dict(zip(flag["seats"], flag["cards"]))
        claimed = flag["claimed_by"]
        rows.append({"flag": flag["flag"], "top": [chip(c) for c in cards[top]], "bottom": [chip(c) for c in cards[bottom]],
                     "environment": [card_name(c) for c in flag["environment"]],
                     "won_by": _("won by {name}").format(name=label.get(claimed, "?")) if claimed else None})
    if sides is None:
        return None
    return {"top": label.get(sides[0], "?"), "bottom": label.get(sides[1], "?"), "rows": rows}
