"""Maintenance and action-phase steps: flipping units, discarding defence commands, deploying
units, commanding units from the command zone, and paying a cost.

Each ``check_*`` raises IllegalStep with the reason a step is not allowed now; each
``apply_*`` changes the state (after its check) and returns the events; each ``*_candidates``
lists the seat's candidate steps of a type. Where in the turn a step may come is the phases'
business (``turns.PHASES``).
"""

from __future__ import annotations

from ...kernel.i18n import N_
from ..base import Event, IllegalStep, Quoted, Words, State, Step, event, seat_key
from .cardset import CardSet, Command
from .grid import FACINGS, Square, adjacent, around
from .setup import limit
from .table import (
    as_json,
    card_id,
    card_set,
    command_on,
    hand_ids,
    occupied,
    other,
    own_unit,
    square_of,
    take_from_hand,
    to_square,
    unit_at,
    unit_key,
    unit_type,
    units_of,
)

STAGES = ("deploy", "command", "pay")


def _known_card(cards: CardSet, card: str, kind: str) -> None:
    if kind == "unit" and card not in cards.units:
        raise IllegalStep(N_('{card} is not a unit card of card set {card_set}'), card=Quoted(card), card_set=cards.id, code="invalid_card")
    if kind == "command" and card not in cards.commands:
        raise IllegalStep(N_('{card} is not a command card of card set {card_set}'), card=Quoted(card), card_set=cards.id, code="invalid_card")


def _in_hand(state: State, seat: int, card: str) -> None:
    if card not in hand_ids(state, seat):
        raise IllegalStep(N_('you hold no {card}'), card=card)


def _room(state: State, seat: int) -> None:
    allowed = limit(state, seat)
    if state["turn"]["played"] >= allowed:
        raise IllegalStep(N_('you may play {allowed} cards this turn and have played them all'), allowed=allowed)


def _stage(state: State, wanted: str) -> None:
    """Deploy, then command, then pay: a step of an earlier stage is too late once a later one began."""
    stage = state["turn"]["stage"]
    if STAGES.index(stage) > STAGES.index(wanted):
        raise IllegalStep({"deploy": N_("units are deployed before any command or payment this turn"),
                           "command": N_("commands are played before the cost is paid this turn")}[wanted])
    if wanted == "pay" and state["turn"].get("paid"):
        raise IllegalStep(N_("you may pay only one cost a turn"))


# ---------------------------------------------------------------- maintenance

def check_flip(state: State, seat: int, step: Step) -> dict:
    unit = own_unit(state, seat, step["at"])
    if unit["up"]:
        raise IllegalStep(N_("that unit is face up already"))
    return unit


def apply_flip(state: State, seat: int, step: Step) -> list[Event]:
    unit = check_flip(state, seat, step)
    unit["up"] = True
    return [event("flip", seat, {"at": as_json((unit["x"], unit["y"])), "unit": card_id(state, seat, unit["card"])})]


def check_discard_defence(state: State, seat: int, step: Step) -> dict:
    unit = own_unit(state, seat, step["at"])
    command = command_on(state, unit)
    if command is None or command.kind != "defend":
        raise IllegalStep(N_("that unit carries no defence command"))
    return unit


def apply_discard_defence(state: State, seat: int, step: Step) -> list[Event]:
    unit = check_discard_defence(state, seat, step)
    card = card_id(state, seat, unit["command"])
    state["discards"][seat_key(seat)].append(unit["command"])
    unit["command"] = None
    return [event("defence_discarded", seat, {"at": as_json((unit["x"], unit["y"])), "card": card})]


def flip_candidates(state: State, seat: int) -> list[Step]:
    return [{"type": "flip", "at": as_json(square_of(u))} for u in units_of(state, seat) if not u["up"]]


def discard_defence_candidates(state: State, seat: int) -> list[Step]:
    cards = card_set(state)
    return [{"type": "discard_defence", "at": as_json(square_of(u))} for u in units_of(state, seat)
            if (c := command_on(state, u, cards)) is not None and c.kind == "defend"]


# ---------------------------------------------------------------- deploying

def deploy_squares(state: State, seat: int) -> list[Square]:
    """Empty squares around one of the seat's face-up units and not adjacent to any enemy unit."""
    taken = occupied(state)
    enemy_next = {sq for u in units_of(state, other(seat)) for sq in adjacent((u["x"], u["y"]))}
    found = {sq for u in units_of(state, seat) if u["up"] for sq in around((u["x"], u["y"]))}
    return sorted(sq for sq in found if sq not in taken and sq not in enemy_next)


def check_deploy(state: State, seat: int, step: Step) -> None:
    cards = card_set(state)
    _known_card(cards, step["unit"], "unit")
    _stage(state, "deploy")
    _room(state, seat)
    _in_hand(state, seat, step["unit"])
    square = to_square(step["at"])
    if unit_at(state, square) is not None:
        raise IllegalStep(N_('({x}, {y}) is taken'), x=square[0], y=square[1])
    if not any(u["up"] and max(abs(u["x"] - square[0]), abs(u["y"] - square[1])) == 1 for u in units_of(state, seat)):
        raise IllegalStep(N_("a unit is deployed on a square around one of your face-up units"))
    if any(sq in adjacent(square) for sq in ((u["x"], u["y"]) for u in units_of(state, other(seat)))):
        raise IllegalStep(N_("a unit may not be deployed next to an enemy unit"))


def apply_deploy(state: State, seat: int, step: Step) -> list[Event]:
    check_deploy(state, seat, step)
    number = take_from_hand(state, seat, step["unit"])
    square = to_square(step["at"])
    state["field"].append({"seat": seat, "card": number, "x": square[0], "y": square[1], "facing": step["facing"],
                           "up": False, "wounded": False, "command": None, "grappled_by": []})
    state["turn"]["played"] += 1
    return [event("deploy", seat, {"at": as_json(square), "facing": step["facing"]}, private={"unit": step["unit"]})]


def deploy_candidates(state: State, seat: int) -> list[Step]:
    cards = card_set(state)
    units = sorted({c for c in hand_ids(state, seat) if cards.is_unit(c)})
    squares = deploy_squares(state, seat) if units else []  # the same for every unit
    return [{"type": "deploy", "unit": u, "at": as_json(sq), "facing": f}
            for u in units for sq in squares for f in FACINGS]


# ---------------------------------------------------------------- commanding

def sequence_for(state: State, seat: int, cost: int, number: int | None) -> None:
    """Check the payment of a command: cost 0 needs no sequence; cost c a sequence of exactly c cards."""
    sequences = state["sequences"][seat_key(seat)]
    if cost == 0:
        if number is not None:
            raise IllegalStep(N_("a command that costs nothing is played without a sequence"))
        return
    if number is None:
        raise IllegalStep(N_('this command costs {cost}: name a sequence of exactly {cost} face-down cards'), cost=cost)
    if not 1 <= number <= len(sequences):
        raise IllegalStep(N_('you have no sequence {number} (you have {count})'), number=number, count=len(sequences))
    if len(sequences[number - 1]) != cost:
        raise IllegalStep(N_('sequence {number} holds {count} cards; this command costs exactly {cost}'), number=number, count=len(sequences[number - 1]), cost=cost)


def check_command(state: State, seat: int, step: Step, *, reaction: bool = False) -> tuple[dict, Command]:
    cards = card_set(state)
    _known_card(cards, step["card"], "command")
    command = cards.commands[step["card"]]
    if reaction:
        if command.kind != "defend":
            raise IllegalStep(N_("in the reaction window only defence commands may be played"))
    else:
        _stage(state, "command")
        _room(state, seat)
    _in_hand(state, seat, step["card"])
    unit = own_unit(state, seat, step["at"])
    if not unit["up"]:
        raise IllegalStep(N_("a face-down unit cannot take commands"))
    if unit["command"] is not None:
        raise IllegalStep(N_("that unit carries a command already"))
    kind = unit_type(state, unit, cards)
    if not command.executable_by(kind):
        raise IllegalStep(N_('{unit} cannot execute {command}'), unit=kind.id, command=command.id)
    sequence_for(state, seat, command.cost, step.get("sequence"))
    return unit, command


def apply_command(state: State, seat: int, step: Step, *, reaction: bool = False) -> list[Event]:
    unit, command = check_command(state, seat, step, reaction=reaction)
    number = take_from_hand(state, seat, step["card"])
    paid = 0
    if command.cost:
        sequence = state["sequences"][seat_key(seat)].pop(step["sequence"] - 1)
        state["discards"][seat_key(seat)].extend(sequence)
        paid = len(sequence)
    unit["command"] = number
    if not reaction:
        state["turn"]["played"] += 1
        state["turn"]["stage"] = "command"
    before, _ = command.split()
    moves = [[k.name, k.value] for k in before if k.name in ("mobility", "turn")]
    if moves:
        state["turn"]["pending"].append({"unit": unit_key(unit), "seat": seat, "keywords": moves,
                                         "attack": command.kind == "attack"})
    data = {"card": command.id, "at": as_json((unit["x"], unit["y"])), "paid": paid, "reaction": reaction}
    if command.cost:
        data["sequence"] = step["sequence"]  # public: each sequence's size is seen by all
    return [event("command", seat, data)]


def command_candidates(state: State, seat: int, *, reaction: bool = False) -> list[Step]:
    cards = card_set(state)
    held = sorted({c for c in hand_ids(state, seat) if c in cards.commands})
    if reaction:
        held = [c for c in held if cards.commands[c].kind == "defend"]
    targets = [(unit_type(state, u, cards), (u["x"], u["y"])) for u in units_of(state, seat)
               if u["up"] and u["command"] is None]
    sequences = state["sequences"][seat_key(seat)]
    steps = []
    for card in held:
        command = cards.commands[card]
        payments = [None] if command.cost == 0 else [i + 1 for i, s in enumerate(sequences) if len(s) == command.cost]
        for kind, square in targets:
            if not command.executable_by(kind):
                continue
            for number in payments:
                step = {"type": "command", "card": card, "at": as_json(square)}
                if number is not None:
                    step["sequence"] = number
                steps.append(step)
    return steps


def check_defence_command(state: State, seat: int, step: Step) -> tuple[dict, Command]:
    """In the reaction window only defence commands may be played; they count against no card
    limit and no stage."""
    return check_command(state, seat, step, reaction=True)


def apply_defence_command(state: State, seat: int, step: Step) -> list[Event]:
    return apply_command(state, seat, step, reaction=True)


def defence_command_candidates(state: State, seat: int) -> list[Step]:
    return command_candidates(state, seat, reaction=True)


# ---------------------------------------------------------------- paying a cost

def check_pay(state: State, seat: int, step: Step) -> None:
    cards = card_set(state)
    _known_card(cards, step["card"], "command")
    _stage(state, "pay")
    _room(state, seat)
    _in_hand(state, seat, step["card"])
    number = step.get("sequence")
    sequences = state["sequences"][seat_key(seat)]
    if number is not None and not 1 <= number <= len(sequences):
        raise IllegalStep(N_('you have no sequence {number}; leave sequence out to start a new one'), number=number)
    longest = highest_cost(state, seat, cards)
    size = 1 if number is None else len(sequences[number - 1]) + 1
    if size > longest:
        where = Words(N_("a new sequence")) if number is None else Words(N_("sequence {number}"), number=number)
        raise IllegalStep(N_('paying into {where} would make it {size} cards long, more than the highest cost of a command in your deck ({longest}): those cards could never be used'), where=where, size=size, longest=longest)


def highest_cost(state: State, seat: int, cards: CardSet | None = None) -> int:
    """Decision (dead payments): a sequence may grow only up to the highest cost of any command
    card in the seat's deck; cards paid beyond it could never pay for anything."""
    cards = cards or card_set(state)
    deck = state["seats"][seat_key(seat)]["deck"]
    return max((cards.commands[c].cost for c in deck if c in cards.commands), default=0)


def apply_pay(state: State, seat: int, step: Step) -> list[Event]:
    check_pay(state, seat, step)
    card = take_from_hand(state, seat, step["card"])
    sequences = state["sequences"][seat_key(seat)]
    number = step.get("sequence")
    if number is None:
        sequences.append([card])
        number = len(sequences)
    else:
        sequences[number - 1].append(card)
    state["turn"]["played"] += 1
    state["turn"]["stage"] = "pay"
    state["turn"]["paid"] = True
    # With the advanced rules the seat may not look at its own face-down cards: no seat is told.
    hidden = {"card": step["card"]}
    data = {"sequence": number, "size": len(sequences[number - 1])}  # size 1: a new sequence
    return [event("pay", seat, data, unseen=hidden) if state["advanced"] else event("pay", seat, data, private=hidden)]


def pay_candidates(state: State, seat: int) -> list[Step]:
    cards = card_set(state)
    held = sorted({c for c in hand_ids(state, seat) if c in cards.commands})
    count = len(state["sequences"][seat_key(seat)])
    return [{"type": "pay", "card": c, **({"sequence": n} if n else {})} for c in held for n in [None, *range(1, count + 1)]]


def payable_candidates(state: State, seat: int) -> list[Step]:
    """The pay candidates whose sequence stays within the highest cost (``check_pay``'s last rule; its
    others are the turn's, asked by the caller)."""
    longest = highest_cost(state, seat)
    sizes = [len(s) for s in state["sequences"][seat_key(seat)]]
    return [step for step in pay_candidates(state, seat)
            if (1 if step.get("sequence") is None else sizes[step["sequence"] - 1] + 1) <= longest]
