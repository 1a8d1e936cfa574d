"""The shape of a Khan & General step, as clients post it. Shape only: whether a step is
legal now is the turn flow's business (``turns.py``). Squares are ``{"x": 0, "y": 1}``
(north is +y); facings are N, E, S, W; cards are card ids of the game's card set."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, TypeAdapter

from ...shapes import DEFERRED, STRICT, Shape

CARD_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"
Card = Annotated[str, Field(pattern=CARD_PATTERN, examples=["heavy_cavalry", "charge"],
                            description="A card id of the game's card set.")]
Facing = Literal["N", "E", "S", "W"]
Coordinate = Annotated[int, Field(ge=-1000, le=1000)]


class _Step(Shape):
    model_config = STRICT


class Square(_Step):
    x: Coordinate
    y: Coordinate


class PlaceStep(_Step):
    """Set-up: place your first unit face up (the first seat at (0, 0) facing N, the second at (0, 1) facing S)."""

    type: Literal["place"]
    unit: Card


class FlipStep(_Step):
    """Maintenance: turn one of your face-down units face up (facing kept)."""

    type: Literal["flip"]
    at: Square


class DiscardDefenceStep(_Step):
    """Maintenance or recovery: the defence command on your unit goes to your discard pile."""

    type: Literal["discard_defence"]
    at: Square


class DeployStep(_Step):
    """Action: a unit from your hand, face down, on an empty square around one of your face-up units
    and not next to an enemy unit."""

    type: Literal["deploy"]
    unit: Card
    at: Square
    facing: Facing


class CommandStep(_Step):
    """A command card face up onto your face-up unit that carries none, paid by ``sequence`` (the
    number, from 1, of a sequence holding exactly the card's cost in face-down cards; left out
    for cost 0). Move and attack commands in your action phase; defence commands then or in the
    reaction window."""

    type: Literal["command"]
    card: Card
    at: Square
    sequence: int | None = Field(None, ge=1, le=30)


class PayStep(_Step):
    """Action: a command card face down at the end of sequence ``sequence``, or as a new sequence
    when left out. One a turn."""

    type: Literal["pay"]
    card: Card
    sequence: int | None = Field(None, ge=1, le=30)


class MoveStep(_Step):
    """Use the unit's waiting ``mobility``: move it to ``to`` (the engine finds a path of empty
    squares) and face ``facing``."""

    type: Literal["move"]
    at: Square
    to: Square
    facing: Facing


class TurnStep(_Step):
    """Use the unit's waiting ``turn``: face ``facing``."""

    type: Literal["turn"]
    at: Square
    facing: Facing


class SkipStep(_Step):
    """Do not use the unit's waiting keyword."""

    type: Literal["skip"]
    at: Square


class EngageStep(_Step):
    """One engagement: your attackers (units carrying attack commands, with the target in range and
    an activation left) against the enemy unit at ``target``."""

    type: Literal["engage"]
    target: Square
    attackers: list[Square] = Field(min_length=1, max_length=5)


class AdvanceStep(_Step):
    """After a unit is destroyed: move a melee attacker of that engagement into its square (facing kept)."""

    type: Literal["advance"]
    at: Square


class StayStep(_Step):
    """After a unit is destroyed: leave its square empty."""

    type: Literal["stay"]


class EndActionStep(_Step):
    """End your action phase: the reaction window, then the engagements."""

    type: Literal["end_action"]


class EndReactionStep(_Step):
    """Play no more defence commands in this reaction window."""

    type: Literal["end_reaction"]


class EndEngagementsStep(_Step):
    """No more engagements: the after-combat keywords, then recovery."""

    type: Literal["end_engagements"]


class EndTurnStep(_Step):
    """Recovery: move and attack commands to the discard pile, the pile back to the hand; the turn
    passes. Skips what is left of the engagements and after-combat keywords."""

    type: Literal["end_turn"]


class OfferDrawStep(_Step):
    """Offer a draw; it stands until answered, or until your opponent plays on."""

    type: Literal["offer_draw"]


class AcceptDrawStep(_Step):
    """Accept your opponent's draw offer: the game is drawn."""

    type: Literal["accept_draw"]


class DeclineDrawStep(_Step):
    """Decline your opponent's draw offer."""

    type: Literal["decline_draw"]


class ResignStep(_Step):
    """Lose the game now."""

    type: Literal["resign"]


KhanStep = Annotated[
    Union[PlaceStep, FlipStep, DiscardDefenceStep, DeployStep, CommandStep, PayStep, MoveStep, TurnStep, SkipStep,
          EngageStep, AdvanceStep, StayStep, EndActionStep, EndReactionStep, EndEngagementsStep, EndTurnStep,
          OfferDrawStep, AcceptDrawStep, DeclineDrawStep, ResignStep],
    Field(discriminator="type"),
]

STEP_ADAPTER: TypeAdapter = TypeAdapter(KhanStep, config=DEFERRED)


def parse_step(raw: object) -> dict:
    """Validate a step's shape and return it as plain data (raises pydantic.ValidationError)."""
    return STEP_ADAPTER.validate_python(raw).model_dump(exclude_none=True)


# ---------------------------------------------------------------- the step an event records

# Events that record a step with nothing more to it than its type.
_ENDS = {"action_ended": "end_action", "reaction_ended": "end_reaction", "engagements_ended": "end_engagements",
         "turn_ended": "end_turn", "draw_offered": "offer_draw", "draw_accepted": "accept_draw",
         "draw_declined": "decline_draw", "stay": "stay", "resign": "resign"}


def step_of(event: dict) -> dict | None:
    """The step an event records (``data`` with the private parts merged in), or None for an
    event a step caused (``turn_started``, ``reaction_window``, ``revealed``, ``destroyed``,
    ``game_finished``). A ``draw_declined`` written because the seat played on replays as a
    ``decline_draw`` just before its step: the same events, the same state."""
    kind, data = event["type"], event["data"]
    if kind in _ENDS:
        return {"type": _ENDS[kind]}
    if kind == "place":
        return {"type": "place", "unit": data["unit"]}
    if kind in ("flip", "defence_discarded", "skip"):
        return {"type": "discard_defence" if kind == "defence_discarded" else kind, "at": data["at"]}
    if kind == "deploy":
        return {"type": "deploy", "unit": data["unit"], "at": data["at"], "facing": data["facing"]}
    if kind == "command":
        return {"type": "command", "card": data["card"], "at": data["at"], "sequence": data.get("sequence")}
    if kind == "pay":  # a sequence of one card is a new one
        return {"type": "pay", "card": data["card"], "sequence": data["sequence"] if data["size"] > 1 else None}
    if kind == "move":
        return {"type": "move", "at": data["from"], "to": data["to"], "facing": data["facing"]}
    if kind == "turn":
        return {"type": "turn", "at": data["at"], "facing": data["facing"]}
    if kind == "engagement":
        return {"type": "engage", "target": data["target"], "attackers": data["attackers"]}
    if kind == "advance":
        return {"type": "advance", "at": data["from"]}
    return None
