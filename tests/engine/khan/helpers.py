"""Hand-built Khan & General positions for the rule tests.

``battle()`` gives a game past set-up with an empty field, seat 1 (Khan) to move in its
action phase; ``put`` places a unit from a seat's hand, ``order`` lays a command on it and
``cost`` builds a sequence in the command zone, all straight from the hand, so every card
stays in exactly one place.
"""

from __future__ import annotations

import random

from chalicelib.games.base import IllegalStep, apply_steps, seat_key
from chalicelib.games.khan.engine import ENGINE
from chalicelib.games.khan.setup import new_turn
from chalicelib.games.khan.table import card_id, places, unit_at, unit_key

__all__ = ["ENGINE", "IllegalStep", "apply_steps", "battle", "put", "order", "cost", "act", "refused", "at",
           "legal", "options", "every_card_once", "new_game", "unit", "mid_game"]


def options(**chosen) -> dict:
    return ENGINE.options_model.model_validate({"first_seat": 1, **chosen}).model_dump(mode="json")


def new_game(**chosen) -> dict:
    return ENGINE.new_game(options(**chosen), random.Random(7))


def battle(*, active: int = 1, phase: str = "action", round: int = 3, **chosen) -> dict:
    """Round ``round`` (marker = round + 1), ``active``'s turn, nothing on the field."""
    state = new_game(**chosen)
    state.update(round=round, marker=min(round + 1, 5), active=active, to_move=active, phase=phase, turn=new_turn())
    return state


def _take(state: dict, seat: int, card: str) -> int:
    for number in state["hands"][seat_key(seat)]:
        if card_id(state, seat, number) == card:
            state["hands"][seat_key(seat)].remove(number)
            return number
    raise AssertionError(f"seat {seat} holds no {card}")


def put(state: dict, seat: int, unit: str, x: int, y: int, facing: str = "N", *, up: bool = True,
        wounded: bool = False, command: str | None = None) -> dict:
    found = {"seat": seat, "card": _take(state, seat, unit), "x": x, "y": y, "facing": facing, "up": up,
             "wounded": wounded, "command": None, "grappled_by": []}
    state["field"].append(found)
    if command:
        order(state, x, y, command)
    return found


def order(state: dict, x: int, y: int, command: str) -> None:
    unit = unit_at(state, (x, y))
    unit["command"] = _take(state, unit["seat"], command)


def cost(state: dict, seat: int, *cards: str) -> int:
    """A new sequence of these face-down cards; its number."""
    state["sequences"][seat_key(seat)].append([_take(state, seat, c) for c in cards])
    return len(state["sequences"][seat_key(seat)])


def unit(state: dict, x: int, y: int) -> dict:
    """The unit on a square now (``act`` replaces the state's contents, so look units up again)."""
    found = unit_at(state, (x, y))
    assert found is not None, f"no unit at ({x}, {y})"
    return found


def at(x: int, y: int) -> dict:
    return {"x": x, "y": y}


def act(state: dict, seat: int, *steps: dict) -> list[dict]:
    """Apply steps in place (as the service does, all or nothing); the events."""
    after, events = apply_steps(ENGINE, state, seat, [ENGINE.parse_step(s) for s in steps])
    state.clear()
    state.update(after)
    return events


def refused(state: dict, seat: int, step: dict) -> str:
    """The reason a step is refused (and it is not among the legal steps)."""
    parsed = ENGINE.parse_step(step)
    assert parsed not in ENGINE.legal_steps(state, seat), f"{step} is listed as legal"
    try:
        apply_steps(ENGINE, state, seat, [parsed])
    except IllegalStep as error:
        return error.reason
    raise AssertionError(f"{step} was accepted")


def legal(state: dict, seat: int, kind: str | None = None) -> list[dict]:
    return [s for s in ENGINE.legal_steps(state, seat) if kind is None or s["type"] == kind]


def every_card_once(state: dict) -> bool:
    for seat in (1, 2):
        where = places(state, seat)
        numbers = sorted(n for found in where.values() for n in found)
        if numbers != list(range(len(state["seats"][seat_key(seat)]["deck"]))):
            return False
    return True


def mid_game(**chosen) -> dict:
    """Round 6, Ann's (seat 1's) action phase: wounded units, a face-down unit on each side,
    commands on units, a grapple, sequences on both sides and a discarded card."""
    state = battle(round=6, **chosen)
    put(state, 1, "heavy_cavalry", 0, 0, command="lance", wounded=True)
    put(state, 1, "horse_archers", 1, -1, "W", up=False)
    put(state, 1, "light_cavalry", -1, 0, "E", command="stand_firm")
    put(state, 2, "spearmen", 0, 1, "S", command="pike_wall")
    put(state, 2, "archers", 2, 2, "W", up=False)
    put(state, 2, "swordsmen", -1, 1, "S", command="bind", wounded=True)
    cost(state, 1, "charge", "envelop")
    cost(state, 1, "gallop")
    cost(state, 2, "march")
    state["discards"]["1"].append(state["hands"]["1"].pop())
    unit_at(state, (-1, 0))["grappled_by"].append(unit_key(unit_at(state, (-1, 1))))
    return state


def charged() -> dict:
    """Round 3: heavy cavalry charged from (0, -2) to (0, 0), facing spearmen at (0, 1) (the
    charge's mobility used: it must now attack while it can); the action phase ended."""
    state = battle()
    put(state, 1, "heavy_cavalry", 0, -2)
    put(state, 2, "spearmen", 0, 1, "S")
    one = cost(state, 1, "lance")
    act(state, 1, {"type": "command", "card": "charge", "at": at(0, -2), "sequence": one},
        {"type": "move", "at": at(0, -2), "to": at(0, 0), "facing": "N"}, {"type": "end_action"})
    return state
