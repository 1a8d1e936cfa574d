"""The Khan & General table on the board page, besides the field's picture (the game's own SVG,
``PRESENTERS["khan"].svg_board``, drawn wherever the game draws it): the card economy a player
follows (round, card limit, each side's command zone with the cost each sequence pays, discards,
units left), a legend (the labels of the units and of the commands lying on them, each
with its name and words, as the drawings' legend gives them; the marks on the field), the cards
and the cards by the card set's names (each legal step is said by its step table, as everywhere).

From a seat's view only: the cards named here are those the seat may see."""

from __future__ import annotations

from ..games.khan import render
from ..games.khan.cardset import REGISTRY, CardSet, UnknownCardSet
from ..games.khan.story import FACINGS, faction_name, full_name
from ..games.presenters import names as names_of
from ..kernel import i18n
from ..kernel.i18n import N_, _, listed, ngettext, series

KINDS = {"move": N_("move command"), "attack": N_("attack command"), "defend": N_("defence command")}

GAME = __name__.rpartition(".board_")[2]  # the game whose table this is, by its module's name (pages/board.py)


def card_set(view: dict) -> CardSet | None:
    found = view["state"].get("card_set") or {}
    try:
        return REGISTRY.get(found["id"], found["version"])
    except (KeyError, UnknownCardSet):
        return None


def _title(card_id: str) -> str:
    return card_id.replace("_", " ").capitalize()


def describe(cards: CardSet | None, card_id: str) -> dict:
    """A card as the page shows it: its name, and a unit's power and reach or a command's kind,
    cost, keywords and the units that may carry it."""
    if cards is not None and card_id in cards.units:
        unit = cards.units[card_id]
        reach = [_("melee")] if unit.melee else []
        if unit.ranged is not None:
            near, far = unit.ranged.forward
            reach.append(_("ranged {near}-{far} ahead, {side} to each side").format(near=near, far=far,
                                                                                  side=unit.ranged.side))
        return {"unit": True, "name": full_name(unit), "abbr": render.abbreviation(card_id, cards), "power": unit.base,
                "reach": series(reach)}
    if cards is not None and card_id in cards.commands:
        command = cards.commands[card_id]
        units = (_("any unit") if command.units == "all" else
                 listed([full_name(cards.units[u]) if u in cards.units else _title(u) for u in command.units]))
        return {"unit": False, "name": full_name(command), "kind": command.kind,
                "kind_name": _(KINDS.get(command.kind, command.kind)), "cost": command.cost,
                "keywords": [i18n.say(k.words()) for k in command.keywords], "units": units}
    return {"unit": False, "name": _title(card_id), "kind": "", "kind_name": "", "cost": 0, "keywords": [],
            "units": ""}


def _visible_cards(state: dict) -> set[str]:
    seen = set(state.get("hand") or []) | set(state.get("deck") or [])
    for unit in state["field"]:
        seen.update(c for c in (unit["unit"], unit["command"]) if c)
    for piles in state["sequences"].values():
        for pile in piles:
            seen.update(pile["cards"] or [])
    for pile in state["discards"].values():
        seen.update(pile["cards"] or [])
    for lost in state["destroyed"].values():
        seen.update(lost)
    return seen


def table(view: dict, steps: list[dict]) -> dict:
    """The field's units (for choosing squares), both sides' card economy, the legend and the cards."""
    state, you, names = view["state"], view["you"], names_of(view)
    cards = card_set(view)
    catalog = {card: describe(cards, card) for card in sorted(_visible_cards(state))}
    field = [{**unit, "abbr": render.abbreviation(unit["unit"], cards) if unit["unit"] else "??",
              "name": catalog[unit["unit"]]["name"] if unit["unit"] else _("a face-down unit")}
             for unit in state["field"]]
    sides = []
    for key in sorted(state["hand_sizes"], key=int):
        seat = int(key)
        pile = state["discards"][key]
        sides.append({
            "seat": seat, "name": _("You") if seat == you else names.get(seat, "?"),
            "faction": faction_name(cards, state["factions"].get(key, ""))
            if cards else state["factions"].get(key, ""),
            "colour": render.SEAT_COLOURS.get(seat, "#333333"), "hand": state["hand_sizes"][key],
            "limit": state["limits"][key], "units_left": state["units_left"][key],
            "sequences": [_sequence(number, pile_, catalog)
                          for number, pile_ in enumerate(state["sequences"][key], start=1)],
            "discards": {"size": pile["size"], "cards": pile["cards"]},
            "destroyed": list(state["destroyed"][key])})
    # The drawings' legend (render.entries): the unit types on the field and those the seat sees
    # elsewhere (its hand, the discards), and the command lying on each unit, the badge's name,
    # kind, cost and keywords; the sides and the marks are the page's own text.
    board = render.Board.of(state, you, names)
    legend = [{"what": entry.what, "abbr": entry.label, "name": entry.name, "words": entry.words,
               "colour": entry.colour}
              for entry in render.entries(board, units=[c for c in catalog if catalog[c]["unit"]])
              if entry.what in ("unit", "command")]
    return {"cards": catalog, "field": field, "sides": sides, "round": state["round"],
            "max_rounds": state["max_rounds"], "active": state["active"], "played": state["played"],
            "stage": state["stage"], "legend": legend, "marks": marks(),
            "draw_offer": state.get("draw_offer"), "facings": {f: _(w) for f, w in FACINGS.items()}}


def _sequence(number: int, pile: dict, catalog: dict) -> dict:
    """A sequence of a command zone: its size is the cost it pays (exactly); its cards when seen."""
    size = pile["size"]
    label = ngettext("Sequence {number}: {count} card, pays a cost of {count}",
                     "Sequence {number}: {count} cards, pays a cost of {count}", size).format(number=number, count=size)
    shown = (series([catalog[c]["name"] if c in catalog else _title(c) for c in pile["cards"]])
             if pile["cards"] is not None else ngettext("{count} card face down", "{count} cards face down",
                                                          size).format(count=size))
    return {"number": number, "size": size, "cards": pile["cards"], "label": label, "shown": shown}


def svg(view: dict) -> str:
    """The field as the game draws it (``render.svg_board``), its sides named; the turn, the card
    economy and the legend are the page's own text beside it."""
    return render.svg_board(view["state"], view["you"], names_of(view), field_only=True)


def marks() -> list[dict]:
    """What the marks on the field mean, as ``render.svg_board`` draws them."""
    return [{"mark": "facing", "text": _("The white wedge on an edge points the way the unit faces.")},
            {"mark": "power", "text": _("The number in a white circle: the unit's power (its base and its command's).")},
            {"mark": "wounded", "text": _("An amber corner: the unit is wounded (wounded again, it is destroyed).")},
            {"mark": "face_down", "text": _("A pale tile with a dashed border: your own unit face down; a grey "
                                            "tile with ?: a unit face down you may not see.")},
            {"mark": "command", "text": _("A small badge: the command the unit carries (orange attack, green "
                                          "defence, purple move).")},
            {"mark": "grappled", "text": _("A chain: the unit is grappled.")}]


def square(at: dict) -> str:
    return f"({at['x']}, {at['y']})".replace("-", "\u2212")


# ---------------------------------------------------------------- the replay (pages/board_replay.py)


def hand_names(view: dict, cards: list[str]) -> list[str]:
    """A hand's cards by the card set's full names."""
    found = card_set(view)
    return [describe(found, card)["name"] for card in cards]


def everything(view: dict) -> dict:
    """The view the table is drawn from: once everything is public, the face-down units each as its
    owner sees it (the field lists the units in the same order in every seat's view)."""
    owners = view.get("seat_views")
    if not owners:
        return view
    field = [owners[unit["seat"]]["field"][index] if unit["seat"] in owners else unit
             for index, unit in enumerate(view["state"]["field"])]
    return {**view, "state": {**view["state"], "field": field}}


def flag_rows(view: dict) -> None:
    """No rows of flags: the field is drawn whole, on a phone too."""
    return None
