"""A Khan & General game told to people: what each event was, with the players' names and the
card set's own card names (``tell``), and the card economy a player follows (``counts``). From a
seat's view and the events as that seat sees them: nothing hidden from it can be told."""

from __future__ import annotations

from ...i18n import N_, _, ngettext
from ..presenters import names as names_of
from .cardset import REGISTRY, UnknownCardSet


def card_names(view: dict) -> dict[str, str]:
    """Each card id of the game's card set, as the set names it (an id the set lacks: itself)."""
    found = view["state"].get("card_set") or {}
    try:
        cards = REGISTRY.get(found["id"], found["version"])
    except (KeyError, UnknownCardSet):
        return {}
    return {card_id: entry.name for card_id, entry in {**cards.units, **cards.commands}.items() if entry.name}


def _square(at: dict | None) -> str:
    return f"({at['x']}, {at['y']})" if at else "?"


FACINGS = {"N": N_("north"), "E": N_("east"), "S": N_("south"), "W": N_("west")}
OUTCOMES = {"held": N_("the defence held"), "wounded": N_("the defender was wounded"),
            "destroyed": N_("the defender was destroyed"), "routed": N_("the defender was routed")}
REASONS = {"annihilation": N_("every unit destroyed"), "routed": N_("no unit left on the field"),
           "max_rounds": N_("the last round ended"), "draw_agreed": N_("a draw agreed"),
           "resign": N_("resignation"), "timeout": N_("time ran out"), "withdrawn": N_("withdrawal")}


def result_line(result: dict, names: dict[int, str], you: int | None) -> str:
    why = _(REASONS[result["reason"]]) if result["reason"] in REASONS else result["reason"].replace("_", " ")
    if result.get("winner") is None:
        return _("A draw ({reason})").format(reason=why)
    if result["winner"] == you:
        return _("You won ({reason})").format(reason=why)
    return _("{name} won ({reason})").format(name=names.get(result["winner"], "?"), reason=why)


def tell(event: dict, view: dict) -> str | None:
    """One event in a sentence, or None for one nobody needs told (a window opening or closing)."""
    kind, data, seat = event["type"], event["data"], event["seat"]
    names, you, named = names_of(view), view["you"], card_names(view)
    who = _("You") if seat is not None and seat == you else names.get(seat, "?")

    def card(card_id: str | None) -> str:
        return named.get(card_id, card_id.replace("_", " ")) if card_id else _("a face-down unit")

    def facing(code: str) -> str:
        return _(FACINGS.get(code, code))

    if kind == "place":
        return _("{who} placed {unit} at {at}").format(who=who, unit=card(data["unit"]), at=_square(data["at"]))
    if kind == "deploy":
        return _("{who} deployed {unit} at {at}, facing {facing}").format(
            who=who, unit=card(data.get("unit")), at=_square(data["at"]), facing=facing(data["facing"]))
    if kind == "command":
        return _("{who} played {card} on the unit at {at}").format(who=who, card=card(data["card"]),
                                                                   at=_square(data["at"]))
    if kind == "pay":
        return ngettext("{who} paid a card into sequence {sequence}", "{who} paid cards into sequence {sequence}",
                        data.get("size", 1)).format(who=who, sequence=data["sequence"])
    if kind == "move":
        return _("{who} moved the unit at {start} to {end}").format(who=who, start=_square(data["from"]),
                                                                   end=_square(data["to"]))
    if kind == "turn":
        return _("{who} turned the unit at {at} to face {facing}").format(who=who, at=_square(data["at"]),
                                                                         facing=facing(data["facing"]))
    if kind == "advance":
        return _("{who} advanced from {start} to {end}").format(who=who, start=_square(data["from"]),
                                                               end=_square(data["to"]))
    if kind == "engagement":
        outcome = _(OUTCOMES[data["outcome"]]) if data.get("outcome") in OUTCOMES else data.get("outcome", "")
        return _("{who} attacked {target}: {attack} against {defence}, {outcome}").format(
            who=who, target=_square(data["target"]), attack=data["attack"], defence=data["defence"], outcome=outcome)
    if kind == "revealed":
        return _("The unit at {at} is {unit}").format(at=_square(data["at"]), unit=card(data["unit"]))
    if kind == "destroyed":
        return _("{unit} at {at} was destroyed").format(unit=card(data["unit"]), at=_square(data["at"]))
    if kind == "flip":
        return _("{who} turned {unit} at {at} face up").format(who=who, unit=card(data["unit"]), at=_square(data["at"]))
    if kind == "defence_discarded":
        return _("{who} discarded {card} from the unit at {at}").format(who=who, card=card(data["card"]),
                                                                       at=_square(data["at"]))
    if kind == "turn_started":
        return _("Round {round}: {who}'s turn ({cards} cards)").format(round=data["round"], who=who,
                                                                      cards=data["cards"])
    if kind == "draw_offered":
        return _("{who} offered a draw").format(who=who)
    if kind == "draw_declined":
        return _("{who} declined the draw").format(who=who)
    if kind == "draw_accepted":
        return _("{who} accepted the draw").format(who=who)
    if kind == "resign":
        return _("{who} resigned").format(who=who)
    if kind == "timeout":
        return _("{who} ran out of time").format(who=who)
    if kind == "withdrawn":
        return _("{who} withdrew from the tournament").format(who=who)
    if kind == "game_finished":
        return result_line(data["result"], names, you)
    return None


def counts(view: dict) -> list[str]:
    """The round and card limit, and for each side its hand, command zone, discards and units."""
    state, names, you = view["state"], names_of(view), view["you"]
    lines = [_("Round {round} of {rounds}").format(round=state["round"], rounds=state["max_rounds"])]
    for seat in sorted(state["hand_sizes"]):
        who = _("You") if you is not None and int(seat) == you else names.get(int(seat), "?")
        sequences = state["sequences"][seat]
        zone = ", ".join(str(pile["size"]) for pile in sequences) or _("empty")
        lines.append(_("{who}: {hand} in hand, limit {limit}; command zone {zone}; {discards} discarded; "
                       "{units} units left").format(
            who=who, hand=state["hand_sizes"][seat], limit=state["limits"][seat], zone=zone,
            discards=state["discards"][seat]["size"], units=state["units_left"][seat]))
    return lines
