"""The shape of a Battle Line step, as clients post it (``api.md`` fixes these names).

Shape only: whether a step is legal now is the turn flow's business (``turns.py``).
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, TypeAdapter, model_validator
from pydantic_core import PydanticCustomError

from ...shapes import DEFERRED, STRICT, Shape
from .cards import Card

FlagNumber = Annotated[int, Field(ge=1, le=9)]
Deck = Literal["troop", "tactics"]


class _Step(Shape):
    model_config = STRICT


class CardOnFlag(_Step):
    flag: FlagNumber
    card: Card


class PlayStep(_Step):
    """Play a card: a troop or morale tactic into a slot (``flag``), FOG/MUD at a flag, or a
    guile tactic (``target``/``to_flag`` for DESERTER, TRAITOR, REDEPLOY; nothing for SCOUT).
    REDEPLOY discards its target with ``"discard": true`` instead of ``to_flag`` (a null or
    absent ``to_flag`` discards too). A field sent as null is the same as one left out."""

    type: Literal["play"]
    card: Card
    flag: FlagNumber | None = None
    target: CardOnFlag | None = None
    to_flag: FlagNumber | None = None
    # A boolean in the schema (a generator reads an enum of [true] as the string "true"); only
    # true means anything, and false is refused below.
    discard: bool | None = Field(
        None, description="REDEPLOY only: true discards the target card instead of moving it (not with to_flag). "
                          "Only true: to move the card, give to_flag and leave discard out.")

    @model_validator(mode="after")
    def _moves_or_discards(self) -> "PlayStep":
        """A card moved (``to_flag``) is not discarded: a step naming both says two things; and
        ``discard: false`` asks for nothing."""
        if self.discard is False:
            raise PydanticCustomError("discard_false", "discard is only ever true: to move the card, give to_flag")
        if self.discard and self.to_flag is not None:
            raise PydanticCustomError("move_or_discard",
                                      "give to_flag (move the card) or discard: true (discard it), not both")
        return self


class ClaimStep(_Step):
    """Claim these flags; an empty list claims nothing."""

    type: Literal["claim"]
    flags: list[FlagNumber] = Field(max_length=9)


class DrawStep(_Step):
    type: Literal["draw"]
    deck: Deck


class PassStep(_Step):
    """Play nothing: allowed only when no troop can be played."""

    type: Literal["pass"]


class ResignStep(_Step):
    type: Literal["resign"]


class ScoutDrawStep(_Step):
    type: Literal["scout_draw"]
    deck: Deck


class ScoutReturnStep(_Step):
    """Put cards back on top of their decks; the last one named ends on top."""

    type: Literal["scout_return"]
    cards: list[Card] = Field(min_length=1, max_length=2)


class MudDiscardStep(_Step):
    type: Literal["mud_discard"]
    flag: FlagNumber
    card: Card


BattleLineStep = Annotated[
    Union[PlayStep, ClaimStep, DrawStep, PassStep, ResignStep, ScoutDrawStep, ScoutReturnStep, MudDiscardStep],
    Field(discriminator="type"),
]

STEP_ADAPTER: TypeAdapter = TypeAdapter(BattleLineStep, config=DEFERRED)


def parse_step(raw: object) -> dict:
    """Validate a step's shape and return it as plain data (raises pydantic.ValidationError).
    An optional field sent as null is left out, as if it had not been sent: ``"to_flag": null``
    and no ``to_flag`` are one step (for REDEPLOY, a discard)."""
    return STEP_ADAPTER.validate_python(raw).model_dump(exclude_none=True)


def discards(step: dict) -> bool:
    """Does this play discard a card REDEPLOY takes? ``"discard": true`` says so, and so does
    a REDEPLOY with no (or a null) ``to_flag``."""
    return step.get("card") == "REDEPLOY" and step.get("to_flag") is None


# ---------------------------------------------------------------- the step an event records

def step_of(event: dict) -> dict | None:
    """The step an event records (``data`` with the private parts merged in), or None for an
    event a step caused: a claim made for the seat (``auto``: auto-claim, or a stall), a game
    of a match or the game finished."""
    kind, data = event["type"], event["data"]
    if kind == "play":
        return {"type": "play", **{k: data[k] for k in ("card", "flag", "target", "to_flag", "discard") if k in data}}
    if kind in ("pass", "resign"):
        return {"type": kind}
    if kind == "claim":
        return None if data.get("auto") else {"type": "claim", "flags": data["flags"]}
    if kind in ("draw", "scout_draw"):
        return {"type": kind, "deck": data["deck"]}
    if kind == "scout_return":
        return {"type": kind, "cards": data["cards"]}
    if kind == "mud_discard":
        return {"type": kind, "flag": data["flag"], "card": data["card"]}
    return None
