"""What one seat (or a spectator) may see of a Khan & General game.

Everyone sees the field (a face-down enemy unit only as an unknown unit with its facing),
every command lying on a unit, the number of face-down cards in each sequence, hand and
discard counts, destroyed units, and the turn's progress. A seat also sees its own hand,
deck, face-down units, sequence cards and discard pile, except that with the ``advanced``
rules it may not look at its own sequence cards nor its own discard pile.
"""

from __future__ import annotations

from pydantic import Field

from ...kernel.shapes import Shape
from ..base import State, seat_key
from .cardset import CardSet
from .combat import activations, card_power
from .setup import limit
from .table import SEATS, card_id, card_set, command_on, unit_by_key, unit_key, unit_type


def _square(unit: dict) -> dict:
    return {"x": unit["x"], "y": unit["y"]}


def _unit(state: State, cards: CardSet, unit: dict, seat: int | None) -> dict:
    known = unit["up"] or unit["seat"] == seat
    command = command_on(state, unit, cards)
    grapplers = [unit_by_key(state, uid) for uid in unit["grappled_by"]]
    attack = command is not None and command.kind == "attack"
    return {
        "x": unit["x"], "y": unit["y"], "seat": unit["seat"], "facing": unit["facing"], "face_up": unit["up"],
        "unit": unit_type(state, unit, cards).id if known else None,
        "power": card_power(state, cards, unit) if known else None,
        "wounded": unit["wounded"],
        "command": command.id if command else None,
        "grappled_by": [_square(g) for g in grapplers if g is not None],
        "activations_left": activations(state, cards, unit) if attack and unit["seat"] == state["active"] else None,
    }


def by_square(units: list[dict]) -> list[dict]:
    """Top row first, then left to right."""
    return sorted(units, key=lambda u: (-u["y"], u["x"]))


def _pile(cards: list[str], shown: bool) -> dict:
    return {"cards": sorted(cards) if shown else None, "size": len(cards)}


def view(state: State, seat: int | None) -> dict:
    cards = card_set(state)
    seated = seat in SEATS
    own_secrets = seated and not state["advanced"]
    turn = state["turn"]
    return {
        "card_set": {"id": state["card_set"]["id"], "version": state["card_set"]["version"]},
        "factions": {seat_key(s): state["seats"][seat_key(s)]["faction"] for s in SEATS},
        "first_seat": state["first"],
        "round": state["round"],
        "max_rounds": state["max_rounds"],
        "advanced": state["advanced"],
        "marker": state["marker"],
        "limits": {seat_key(s): limit(state, s) for s in SEATS},
        "active": state["active"] if state["result"] is None else None,
        "played": turn["played"],
        "stage": turn["stage"],
        "field": [_unit(state, cards, u, seat) for u in by_square(state["field"])],
        "hand": sorted(card_id(state, seat, n) for n in state["hands"][seat_key(seat)]) if seated else [],
        "hand_sizes": {seat_key(s): len(state["hands"][seat_key(s)]) for s in SEATS},
        "deck": list(state["seats"][seat_key(seat)]["deck"]) if seated else [],
        "sequences": {seat_key(s): [_pile([card_id(state, s, n) for n in sequence], own_secrets and s == seat)
                               for sequence in state["sequences"][seat_key(s)]] for s in SEATS},
        "discards": {seat_key(s): _pile([card_id(state, s, n) for n in state["discards"][seat_key(s)]],
                                   own_secrets and s == seat) for s in SEATS},
        "destroyed": {seat_key(s): [card_id(state, s, n) for n in state["destroyed"][seat_key(s)]] for s in SEATS},
        "units_left": {seat_key(s): sum(1 for n in range(len(state["seats"][seat_key(s)]["deck"]))
                                   if cards.is_unit(card_id(state, s, n))) - len(state["destroyed"][seat_key(s)])
                       for s in SEATS},
        "pending": [{"seat": e["seat"], "at": _square(unit_by_key(state, e["unit"])),
                     "keywords": [f"{name} {value}" if value else name for name, value in e["keywords"]]}
                    for e in turn["pending"]],
        "advance": ({"to": {"x": turn["advance"]["to"][0], "y": turn["advance"]["to"][1]},
                     "from": [_square(unit_by_key(state, uid)) for uid in turn["advance"]["units"]]}
                    if turn["advance"] else None),
        # In the field's order: a unit's key holds its deck number, which is no one else's business.
        "must_attack": [_square(u) for u in by_square(state["field"]) if unit_key(u) in turn["committed"]
                        and unit_key(u) not in turn["engaged"]],
        "attacked": [{**_square(u), "times": turn["hits"][unit_key(u)]} for u in by_square(state["field"])
                     if unit_key(u) in turn["hits"]],
        "draw_offer": state["draw_offer"],
    }


# ---------------------------------------------------------------- the documented shape

class SquareView(Shape):
    x: int
    y: int


class UnitView(SquareView):
    seat: int
    facing: str = Field(description="N, E, S or W: the unit's combat face.")
    face_up: bool
    unit: str | None = Field(description="The unit type; null for an enemy unit face down (an unknown unit).")
    power: int | None = Field(description="Base power plus its command's power; null when unknown.")
    wounded: bool
    command: str | None = Field(description="The command card lying on it (always face up).")
    grappled_by: list[SquareView] = Field(description="Units grappling it: it cannot move and may attack only them.")
    activations_left: int | None = Field(description="For the active seat's attack-command units: engagements left.")


class Pile(Shape):
    cards: list[str] | None = Field(description="The card ids, when you may look at them; else null.")
    size: int


class PendingKeywords(Shape):
    seat: int
    at: SquareView
    keywords: list[str] = Field(description="Waiting to be used (move, turn) or skipped, first one first.")


class AdvanceChoice(Shape):
    to: SquareView = Field(description="The destroyed unit's square.")
    from_: list[SquareView] = Field(alias="from", description="The melee attackers that may advance into it.")


class AttackedUnit(SquareView):
    times: int


class KhanStateView(Shape):
    """The Khan & General part of a view."""

    card_set: dict[str, str | int] = Field(description="The card set's id and version, fixed for the game.")
    factions: dict[str, str]
    first_seat: int
    round: int = Field(description="0 during set-up; the game ends after max_rounds.")
    max_rounds: int
    advanced: bool
    marker: int = Field(description="The card-count marker (1 to 5).")
    limits: dict[str, int] = Field(description="Cards each seat may play in its own turn this round.")
    active: int | None = Field(description="Whose turn it is (the other seat may be to move in the reaction window).")
    played: int = Field(description="Cards the active seat has played this turn.")
    stage: str = Field(description="deploy, command or pay: how far the active seat's action phase has come.")
    field: list[UnitView]
    hand: list[str] = Field(description="Your hand (card ids); empty for spectators.")
    hand_sizes: dict[str, int]
    deck: list[str] = Field(description="Your deck (card ids); empty for spectators.")
    sequences: dict[str, list[Pile]] = Field(description="Each seat's command zone, sequence 1 first.")
    discards: dict[str, Pile]
    destroyed: dict[str, list[str]] = Field(description="Each seat's units that left the game.")
    units_left: dict[str, int]
    pending: list[PendingKeywords]
    advance: AdvanceChoice | None
    must_attack: list[SquareView] = Field(
        description="The active seat's units that used their attack card's mobility this turn and have not "
                    "engaged yet: each must attack while it can.")
    attacked: list[AttackedUnit] = Field(
        description="Units engaged this turn, with how often (a defence command with trigger adds power each time).")
    draw_offer: int | None = Field(description="The seat whose draw offer waits for an answer.")
