"""The shape of a Battle Line step, as clients post it (``api.md`` fixes these names).

Shape only: whether a step is legal now is the turn flow's business (``turns.py``).
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, TypeAdapter

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
    guile tactic (``target``/``to_flag`` for DESERTER, TRAITOR, REDEPLOY; nothing for SCOUT)."""

    type: Literal["play"]
    card: Card
    flag: FlagNumber | None = None
    target: CardOnFlag | None = None
    to_flag: FlagNumber | None = None


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
    """Validate a step's shape and return it as plain data (raises pydantic.ValidationError)."""
    return STEP_ADAPTER.validate_python(raw).model_dump(exclude_unset=True)
