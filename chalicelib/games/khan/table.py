"""The table: where each seat's 15 cards are, and the units on the field.

A seat's cards are numbered by their place in its deck (0-14); ``deck[n]`` is the card id.
Every card is in exactly one place: the hand, the field (a unit), on a unit (its command),
a sequence of the command zone, the discard pile, or out of the game (a destroyed unit).
A unit on the field is known by its key ``"<seat>:<card number>"``.
"""

from __future__ import annotations

from ...kernel.i18n import N_
from ..base import IllegalStep, State, seat_key
from .cardset import REGISTRY, CardSet, Command, UnitType
from .grid import Square, front

SEATS = (1, 2)


def other(seat: int) -> int:
    return 3 - seat


def card_set(state: State) -> CardSet:
    ref = state["card_set"]
    return REGISTRY.get(ref["id"], ref["version"], ref["digest"])


def card_id(state: State, seat: int, number: int) -> str:
    return state["seats"][str(seat)]["deck"][number]  # str(seat): seat_key's, on the engine's hottest path


def hand_ids(state: State, seat: int) -> list[str]:
    deck = state["seats"][str(seat)]["deck"]
    return [deck[n] for n in state["hands"][str(seat)]]


def take_from_hand(state: State, seat: int, card: str) -> int:
    """Remove a card with this id from the seat's hand; its number."""
    for number in state["hands"][seat_key(seat)]:
        if card_id(state, seat, number) == card:
            state["hands"][seat_key(seat)].remove(number)
            return number
    raise IllegalStep(N_('you hold no {card}'), card=card)


# ---------------------------------------------------------------- units on the field

def unit_key(unit: dict) -> str:
    return f"{unit['seat']}:{unit['card']}"


def square_of(unit: dict) -> Square:
    return unit["x"], unit["y"]


def unit_at(state: State, square: Square) -> dict | None:
    return next((u for u in state["field"] if (u["x"], u["y"]) == tuple(square)), None)


def unit_by_key(state: State, uid: str) -> dict | None:
    return next((u for u in state["field"] if unit_key(u) == uid), None)


def units_of(state: State, seat: int) -> list[dict]:
    return [u for u in state["field"] if u["seat"] == seat]


def occupied(state: State) -> set[Square]:
    return {square_of(u) for u in state["field"]}


def unit_type(state: State, unit: dict, cards: CardSet | None = None) -> UnitType:
    return (cards or card_set(state)).units[card_id(state, unit["seat"], unit["card"])]


def command_on(state: State, unit: dict, cards: CardSet | None = None) -> Command | None:
    if unit["command"] is None:
        return None
    return (cards or card_set(state)).commands[card_id(state, unit["seat"], unit["command"])]


def front_of(unit: dict) -> Square:
    return front(square_of(unit), unit["facing"])


def grappled(unit: dict) -> bool:
    return bool(unit["grappled_by"])


def to_square(value: dict | tuple | list) -> Square:
    if isinstance(value, dict):
        return int(value["x"]), int(value["y"])
    return int(value[0]), int(value[1])


def as_json(square: Square) -> dict:
    return {"x": square[0], "y": square[1]}


def own_unit(state: State, seat: int, at: dict, what: str = "unit") -> dict:
    """The seat's unit on a square, or an IllegalStep saying why not."""
    square = to_square(at)
    unit = unit_at(state, square)
    if unit is None:
        raise IllegalStep(N_('there is no unit at ({x}, {y})'), x=square[0], y=square[1])
    if unit["seat"] != seat:
        raise IllegalStep(N_('the unit at ({x}, {y}) is not yours'), x=square[0], y=square[1])
    return unit


def places(state: State, seat: int) -> dict[str, list[int]]:
    """Where each of the seat's cards is (for the invariant: each card in exactly one place)."""
    k = seat_key(seat)
    on_field = [u["card"] for u in units_of(state, seat)]
    commands = [u["command"] for u in units_of(state, seat) if u["command"] is not None]
    return {
        "hand": list(state["hands"][k]),
        "field": on_field,
        "commands": commands,
        "sequences": [n for sequence in state["sequences"][k] for n in sequence],
        "discard": list(state["discards"][k]),
        "destroyed": list(state["destroyed"][k]),
    }
