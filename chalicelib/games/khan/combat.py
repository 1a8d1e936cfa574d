"""Engagements: who may attack whom, actual power, wounds and destruction, and the keywords
that act in combat (flank, coordinate, activate, trigger, grapple, counter).

An engagement is one enemy unit (the defender) and one or more of the active seat's units
carrying attack commands that have it in range and an activation left. The attackers' sum
of actual power beats the defender's: more than it wounds (a wounded defender is destroyed),
more than twice it destroys outright.
"""

from __future__ import annotations

from itertools import combinations

from ...kernel.i18n import N_
from ..base import Event, IllegalStep, Words, State, Step, event, seat_key
from .cardset import CardSet
from .grid import Square, area
from .table import (
    as_json,
    card_id,
    card_set,
    command_on,
    front_of,
    other,
    square_of,
    to_square,
    unit_at,
    unit_by_key,
    unit_key,
    unit_type,
    units_of,
)

MELEE, RANGED = "melee", "ranged"


# ---------------------------------------------------------------- reach

def attack_mode(state: State, cards: CardSet, attacker: dict, target: Square) -> str | None:
    """How the attacker reaches the target with its attack command now: melee, ranged, or not at all."""
    command = command_on(state, attacker, cards)
    if command is None or command.kind != "attack":
        return None
    kind = unit_type(state, attacker, cards)
    if command.has("melee") and kind.melee and front_of(attacker) == target:
        return MELEE
    if command.has("ranged") and kind.ranged is not None and \
            target in area(square_of(attacker), attacker["facing"], kind.ranged.offsets()):
        return RANGED
    return None


def activations(state: State, cards: CardSet, unit: dict) -> int:
    """Engagements the unit may still take part in this turn (1 a turn, N with ``activate N``)."""
    command = command_on(state, unit, cards)
    if command is None or command.kind != "attack":
        return 0
    allowed = command.value("activate") or 1
    return max(0, allowed - state["turn"]["activations"].get(unit_key(unit), 0))


def why_not_attacker(state: State, cards: CardSet, attacker: dict, defender: dict) -> Words | None:
    x, y = attacker["x"], attacker["y"]
    command = command_on(state, attacker, cards)
    if command is None or command.kind != "attack":
        return Words(N_("the unit at ({x}, {y}) carries no attack command"), x=x, y=y)
    if activations(state, cards, attacker) == 0:
        return Words(N_("the unit at ({x}, {y}) has no activation left this turn"), x=x, y=y)
    mode = attack_mode(state, cards, attacker, square_of(defender))
    if mode is None:
        return Words(N_("the target is not in range of the unit at ({x}, {y})"), x=x, y=y)
    if attacker["grappled_by"]:
        if unit_key(defender) not in attacker["grappled_by"]:
            return Words(N_("the unit at ({x}, {y}) is grappled: it may attack only the unit grappling it"), x=x, y=y)
        if mode != MELEE:
            return Words(N_("the unit at ({x}, {y}) is grappled: it may attack only in melee"), x=x, y=y)
    return None


def able_attacker(state: State, cards: CardSet, attacker: dict, defender: dict) -> bool:
    """``why_not_attacker`` is None: the same rules, asked without making the sentence (listings)."""
    command = command_on(state, attacker, cards)
    if command is None or command.kind != "attack" or activations(state, cards, attacker) == 0:
        return False
    mode = attack_mode(state, cards, attacker, square_of(defender))
    if mode is None:
        return False
    return not attacker["grappled_by"] or (unit_key(defender) in attacker["grappled_by"] and mode == MELEE)


def check_engage(state: State, seat: int, step: Step) -> tuple[dict, list[dict]]:
    cards = card_set(state)
    target = to_square(step["target"])
    defender = unit_at(state, target)
    if defender is None or defender["seat"] == seat:
        raise IllegalStep(N_('there is no enemy unit at ({x}, {y})'), x=target[0], y=target[1])
    squares = [to_square(a) for a in step["attackers"]]
    if len(set(squares)) != len(squares):
        raise IllegalStep(N_("each attacker is named once"))
    attackers = []
    for square in squares:
        unit = unit_at(state, square)
        if unit is None or unit["seat"] != seat:
            raise IllegalStep(N_('you have no unit at ({x}, {y})'), x=square[0], y=square[1])
        reason = why_not_attacker(state, cards, unit, defender)
        if reason:
            raise IllegalStep(reason)
        attackers.append(unit)
    if len(attackers) == 1 and command_on(state, attackers[0], cards).has("grapple"):
        raise IllegalStep(N_("a unit attacking with grapple cannot be the only attacker of an engagement"))
    return defender, attackers


def engage_candidates(state: State, seat: int) -> list[Step]:
    cards = card_set(state)
    steps = []
    mine = sorted(units_of(state, seat), key=square_of)
    for defender in sorted(units_of(state, other(seat)), key=square_of):
        able = [u for u in mine if able_attacker(state, cards, u, defender)]
        for size in range(1, len(able) + 1):
            for group in combinations(able, size):
                if size == 1 and command_on(state, group[0], cards).has("grapple"):
                    continue
                steps.append({"type": "engage", "target": as_json(square_of(defender)),
                              "attackers": [as_json(square_of(u)) for u in group]})
    return steps


def can_still_engage(state: State, seat: int, unit: dict) -> bool:
    """Is there a legal engagement that the unit could take part in now?"""
    uid = unit_key(unit)
    for step in engage_candidates(state, seat):
        if any(unit_at(state, to_square(a)) is not None and unit_key(unit_at(state, to_square(a))) == uid
               for a in step["attackers"]):
            return True
    return False


# ---------------------------------------------------------------- power

def card_power(state: State, cards: CardSet, unit: dict) -> int:
    """Base power plus the power on the unit's command card."""
    command = command_on(state, unit, cards)
    return unit_type(state, unit, cards).base + (command.power if command else 0)


def attacker_power(state: State, cards: CardSet, attacker: dict, defender: dict, mode: str, count: int) -> int:
    command = command_on(state, attacker, cards)
    power = card_power(state, cards, attacker)
    if mode == MELEE and square_of(attacker) != front_of(defender):
        power += command.value("flank")
    if count > 1:
        power += command.value("coordinate")
    return power


def defender_power(state: State, cards: CardSet, defender: dict, hits: int) -> int:
    """Card power; with ``trigger N``, each engagement against it this turn (``hits``, this one
    included) adds the card power again, at most N times a turn."""
    power = card_power(state, cards, defender)
    command = command_on(state, defender, cards)
    trigger = command.value("trigger") if command is not None else 0
    return power * (1 + min(hits, trigger))


# ---------------------------------------------------------------- resolving

def apply_engage(state: State, seat: int, step: Step) -> list[Event]:
    defender, attackers = check_engage(state, seat, step)
    cards = card_set(state)
    turn = state["turn"]
    events: list[Event] = []
    target = square_of(defender)
    if not defender["up"]:
        defender["up"] = True  # flipped face up, facing kept, before the comparison
        events.append(event("revealed", seat, {"at": as_json(target), "owner": defender["seat"],
                                               "unit": card_id(state, defender["seat"], defender["card"])}))
    duid = unit_key(defender)
    turn["hits"][duid] = turn["hits"].get(duid, 0) + 1
    modes = {unit_key(a): attack_mode(state, cards, a, target) for a in attackers}
    attack = sum(attacker_power(state, cards, a, defender, modes[unit_key(a)], len(attackers)) for a in attackers)
    defence = defender_power(state, cards, defender, turn["hits"][duid])
    for a in attackers:
        turn["activations"][unit_key(a)] = turn["activations"].get(unit_key(a), 0) + 1
        if unit_key(a) not in turn["engaged"]:
            turn["engaged"].append(unit_key(a))
    if attack > 2 * defence or (attack > defence and defender["wounded"]):
        outcome = "destroyed"
    elif attack > defence:
        outcome = "wounded"
        defender["wounded"] = True
    else:
        outcome = "held"
    data = {"target": as_json(target), "attackers": [as_json(square_of(a)) for a in attackers],
            "attack": attack, "defence": defence, "outcome": outcome}
    melee = [a for a in attackers if modes[unit_key(a)] == MELEE]
    on_front = next((a for a in melee if square_of(a) == front_of(defender)), None)
    defence_card = command_on(state, defender, cards)
    if defence_card is not None and defence_card.has("counter") and outcome != "held" and on_front is not None:
        on_front["wounded"] = True  # wounded, never destroyed by a counter
        data["countered"] = as_json(square_of(on_front))
    if outcome != "destroyed":
        grapplers = [a for a in attackers if command_on(state, a, cards).has("grapple")]
        for grappler in grapplers:
            if unit_key(grappler) not in defender["grappled_by"]:
                defender["grappled_by"].append(unit_key(grappler))
        if grapplers:
            data["grappled"] = as_json(target)
        if defence_card is not None and defence_card.has("grapple") and on_front is not None:
            if duid not in on_front["grappled_by"]:
                on_front["grappled_by"].append(duid)
            data["grappled_attacker"] = as_json(square_of(on_front))
    events.append(event("engagement", seat, data))
    if outcome == "destroyed":
        events += destroy(state, seat, defender)
        movers = [a for a in melee if not a["grappled_by"] and unit_by_key(state, unit_key(a)) is not None]
        if movers and state["result"] is None:
            turn["advance"] = {"to": list(target), "units": [unit_key(a) for a in movers]}
    return events


def destroy(state: State, seat: int, unit: dict) -> list[Event]:
    """The unit leaves the game; its command goes to its owner's discard pile; grapples it held end."""
    owner = unit["seat"]
    state["field"].remove(unit)
    if unit["command"] is not None:
        state["discards"][seat_key(owner)].append(unit["command"])
    state["destroyed"][seat_key(owner)].append(unit["card"])
    uid = unit_key(unit)
    for other_unit in state["field"]:
        if uid in other_unit["grappled_by"]:
            other_unit["grappled_by"].remove(uid)
    return [event("destroyed", seat, {"at": as_json(square_of(unit)), "owner": owner,
                                      "unit": card_id(state, owner, unit["card"])})]


# ---------------------------------------------------------------- advancing into the vacated square

def check_advance(state: State, seat: int, step: Step) -> dict:
    pending = state["turn"]["advance"]
    square = to_square(step["at"])
    unit = unit_at(state, square)
    if unit is None or unit_key(unit) not in pending["units"]:
        raise IllegalStep(N_("only a melee attacker of that engagement may advance into the square"))
    return unit


def apply_advance(state: State, seat: int, step: Step) -> list[Event]:
    unit = check_advance(state, seat, step)
    to = state["turn"]["advance"]["to"]
    start = square_of(unit)
    unit["x"], unit["y"] = to
    state["turn"]["advance"] = None
    return [event("advance", seat, {"from": as_json(start), "to": as_json(tuple(to))})]


def advance_candidates(state: State, seat: int) -> list[Step]:
    pending = state["turn"]["advance"]
    return [{"type": "advance", "at": as_json(square_of(unit_by_key(state, uid)))} for uid in pending["units"]] + \
        [{"type": "stay"}]
