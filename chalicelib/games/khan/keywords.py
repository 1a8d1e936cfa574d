"""The keywords that move units: ``mobility N`` and ``turn``, used when their card says.

Keywords before ``power`` happen when the command is played; those after ``power`` on an
attack card happen after all engagements. Each is optional: a pending keyword is used
(``move`` names the end square and facing, the engine finds a path; ``turn`` names the
facing) or skipped (``skip``), in the card's order.

* ``mobility N``: up to N orthogonal steps through empty squares, facing chosen freely. A
  grappled unit may not move (it may still change facing). On an attack card it may be
  used only if the unit attacks this turn: before ``power``, the move must end with an
  enemy in the unit's attack range, and the unit must then attack while it can; after
  ``power``, only a unit that took part in an engagement gets it.
* ``turn``: change facing only.
"""

from __future__ import annotations

from ...kernel.i18n import N_
from ..base import Event, IllegalStep, State, Step, event
from .cardset import keyword_words
from .combat import attack_mode
from .grid import FACINGS, Square, area, front, path, reachable
from .steps import facing_told
from .table import (
    as_json, card_set, command_on, occupied, other, square_of, to_square, unit_at, unit_by_key, unit_key, unit_type,
    units_of,
)


def pending_for(state: State, seat: int, at: dict | None = None) -> dict:
    """The pending keyword entry of the unit at ``at`` (the first entry when None)."""
    entries = [e for e in state["turn"]["pending"] if e["seat"] == seat]
    if not entries:
        raise IllegalStep(N_("no keyword of yours is waiting to be used"))
    if at is None:
        return entries[0]
    square = to_square(at)
    unit = unit_at(state, square)
    for entry in entries:
        if unit is not None and entry["unit"] == unit_key(unit):
            if state["phase"] != "after" and entry is not entries[0]:
                break
            return entry
    raise IllegalStep(N_('no keyword is waiting for the unit at ({x}, {y})'), x=square[0], y=square[1])


def _next(entry: dict, wanted: str) -> int | None:
    name, value = entry["keywords"][0]
    if name != wanted:
        raise IllegalStep(N_("the unit's next keyword is {keyword}, not {wanted}"),
                          keyword=keyword_words(name, value), wanted=keyword_words(wanted))
    return value


def _done(state: State, entry: dict) -> None:
    entry["keywords"].pop(0)
    if not entry["keywords"]:
        state["turn"]["pending"].remove(entry)


def enemy_in_reach(state: State, unit: dict) -> bool:
    cards = card_set(state)
    return any(attack_mode(state, cards, unit, square_of(enemy)) is not None for enemy in units_of(state, other(unit["seat"])))


def check_move(state: State, seat: int, step: Step) -> tuple[dict, dict]:
    entry = pending_for(state, seat, step["at"])
    steps = _next(entry, "mobility")
    unit = unit_by_key(state, entry["unit"])
    start, goal = square_of(unit), to_square(step["to"])
    if goal == start and step["facing"] == unit["facing"]:
        raise IllegalStep(N_("that changes nothing; skip the keyword instead"))
    if goal != start:
        if unit["grappled_by"]:
            raise IllegalStep(N_("a grappled unit cannot move (it may change facing)"))
        if path(start, goal, steps, occupied(state) - {start}) is None:
            raise IllegalStep(N_('({x}, {y}) cannot be reached in {steps} steps through empty squares'), x=goal[0], y=goal[1], steps=steps)
    if entry["attack"] and state["phase"] != "after":
        moved = {**unit, "x": goal[0], "y": goal[1], "facing": step["facing"]}
        if not enemy_in_reach(state, moved):
            raise IllegalStep(N_("an attack card's mobility is used only to attack: end the move with an enemy in range"))
    return entry, unit


def apply_move(state: State, seat: int, step: Step) -> list[Event]:
    entry, unit = check_move(state, seat, step)
    start = square_of(unit)
    unit["x"], unit["y"] = to_square(step["to"])
    unit["facing"] = step["facing"]
    if entry["attack"] and state["phase"] != "after" and entry["unit"] not in state["turn"]["committed"]:
        state["turn"]["committed"].append(entry["unit"])
    _done(state, entry)
    return [event("move", seat, {"from": as_json(start), "to": as_json(square_of(unit)), "facing": unit["facing"]})]


def check_turn(state: State, seat: int, step: Step) -> tuple[dict, dict]:
    entry = pending_for(state, seat, step["at"])
    _next(entry, "turn")
    unit = unit_by_key(state, entry["unit"])
    if step["facing"] == unit["facing"]:
        raise IllegalStep(N_('the unit faces {facing} already; skip the keyword instead'), facing=facing_told(unit['facing']))
    return entry, unit


def apply_turn(state: State, seat: int, step: Step) -> list[Event]:
    entry, unit = check_turn(state, seat, step)
    unit["facing"] = step["facing"]
    _done(state, entry)
    return [event("turn", seat, {"at": as_json(square_of(unit)), "facing": unit["facing"]})]


def check_skip(state: State, seat: int, step: Step) -> dict:
    return pending_for(state, seat, step["at"])


def apply_skip(state: State, seat: int, step: Step) -> list[Event]:
    entry = check_skip(state, seat, step)
    name, value = entry["keywords"][0]
    _done(state, entry)
    return [event("skip", seat, {"at": as_json(to_square(step["at"])), "keyword": name})]


def keyword_candidates(state: State, seat: int) -> list[Step]:
    entries = [e for e in state["turn"]["pending"] if e["seat"] == seat]
    if state["phase"] != "after":
        entries = entries[:1]
    steps: list[Step] = []
    taken = occupied(state)
    for entry in entries:
        unit = unit_by_key(state, entry["unit"])
        here = square_of(unit)
        name, value = entry["keywords"][0]
        if name == "turn":
            steps += [{"type": "turn", "at": as_json(here), "facing": f} for f in FACINGS if f != unit["facing"]]
        else:
            ends = [here] if unit["grappled_by"] else sorted(reachable(here, value, taken - {here}))
            steps += [{"type": "move", "at": as_json(here), "to": as_json(sq), "facing": f}
                      for sq in ends for f in FACINGS if (sq, f) != (here, unit["facing"])]
        steps.append({"type": "skip", "at": as_json(here)})
    return steps


KEYWORD_CHECKS = {"move": check_move, "turn": check_turn, "skip": check_skip}


def move_allowed(state: State, seat: int, step: Step, reach: dict) -> bool:
    """``check_move``'s answer, with the squares each unit reaches found once for all the moves a
    listing puts (``reach``: a dict the caller keeps for one state) instead of a path a move, and the
    keyword waiting for a square's unit found once."""
    at = step["at"]["x"], step["at"]["y"]
    if at not in reach:  # the keyword waiting for the unit there, and the unit, as the check finds them
        try:
            entry = pending_for(state, seat, step["at"])
            reach[at] = entry, _next(entry, "mobility"), unit_by_key(state, entry["unit"])
        except IllegalStep:
            reach[at] = None
    if reach[at] is None:
        return False
    entry, steps, unit = reach[at]
    start, goal = square_of(unit), to_square(step["to"])
    if goal == start and step["facing"] == unit["facing"]:
        return False
    if goal != start:
        if unit["grappled_by"]:
            return False
        if (start, steps) not in reach:
            reach[start, steps] = reachable(start, steps, occupied(state) - {start})
        if goal not in reach[start, steps]:  # reachable within the steps iff a path of them exists
            return False
    if entry["attack"] and state["phase"] != "after":
        if "enemies" not in reach:
            reach["enemies"] = {square_of(e) for e in units_of(state, other(seat))}
        return _reaches_one(state, unit, goal, step["facing"], reach["enemies"])
    return True


def _reaches_one(state: State, unit: dict, square: Square, facing: str, enemies: set[Square]) -> bool:
    """``enemy_in_reach`` of the unit moved to ``square`` facing ``facing`` (``combat.attack_mode``'s
    rules, asked of the enemies' squares at once)."""
    cards = card_set(state)
    command = command_on(state, unit, cards)
    if command is None or command.kind != "attack":
        return False
    kind = unit_type(state, unit, cards)
    if command.has("melee") and kind.melee and front(square, facing) in enemies:
        return True
    return command.has("ranged") and kind.ranged is not None and \
        not enemies.isdisjoint(area(square, facing, kind.ranged.offsets()))
