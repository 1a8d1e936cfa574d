"""The bodies of ``analyzeBattleLine``: a position given as data, and the answer. Apart from the
analysis itself (``analysis.py``), so that the route table is declared without the claim engine."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ...kernel.shapes import STRICT, OneOf, Shape
from .cards import Card


class AnalyzeFlag(Shape):
    model_config = STRICT

    flag: Annotated[int, Field(ge=1, le=9)] | None = Field(None, description="1-9; the list's order when left out.")
    cards: list[list[Card]] = Field(min_length=2, max_length=2, description="Seat 1's side, then seat 2's.")
    environment: list[Literal["FOG", "MUD"]] = Field(default_factory=list, max_length=2)
    claimed_by: OneOf(1, 2) | None = None
    first_complete: OneOf(1, 2) | None = Field(
        None, description="Which side was completed first, when both are; if left out, the seat asking is "
                          "taken to have completed last (a tie then goes against it).")


class AnalyzePosition(Shape):
    model_config = STRICT

    flags: list[AnalyzeFlag] = Field(min_length=9, max_length=9)
    discards: list[Card] = Field(default_factory=list, max_length=70)


class AnalyzeRequest(Shape):
    model_config = STRICT

    position: AnalyzePosition
    seat: OneOf(1, 2)


class FlagAnalysis(Shape):
    flag: int
    claimable: bool
    reason: str
    counterexample: dict | None = Field(description="A completion of the opponent's side that would beat the seat.")


class Analysis(Shape):
    flags: list[FlagAnalysis]
