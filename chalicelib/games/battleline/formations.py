"""The five formations and how two sides of a flag compare."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from .cards import Troop, parse_troop


class Formation(IntEnum):
    """Strongest first in the rule books; a larger value is stronger here."""

    SUM_ONLY = 0  # under Fog formations do not count: only the sum decides
    HOST = 1
    SKIRMISH_LINE = 2
    BATTALION_ORDER = 3
    PHALANX = 4
    WEDGE = 5


class Strength(NamedTuple):
    """What decides a flag: formation first, then the sum of values."""

    formation: Formation
    total: int


def is_consecutive(values: list[int]) -> bool:
    ordered = sorted(values)
    return all(b - a == 1 for a, b in zip(ordered, ordered[1:]))


def formation_of(troops: list[Troop]) -> Formation:
    values = [t.value for t in troops]
    same_colour = len({t.colour for t in troops}) == 1
    run = is_consecutive(values)
    if same_colour and run:
        return Formation.WEDGE
    if len(set(values)) == 1:
        return Formation.PHALANX
    if same_colour:
        return Formation.BATTALION_ORDER
    if run:
        return Formation.SKIRMISH_LINE
    return Formation.HOST


def strength_of_troops(troops: list[Troop], *, fog: bool = False) -> Strength:
    total = sum(t.value for t in troops)
    return Strength(Formation.SUM_ONLY if fog else formation_of(troops), total)


def strength(cards: list[str], *, fog: bool = False) -> Strength:
    """The strength of a complete side made of troop cards."""
    troops = [parse_troop(card) for card in cards]
    if any(t is None for t in troops):
        raise ValueError(f"not all troops: {cards}")
    return strength_of_troops(troops, fog=fog)  # type: ignore[arg-type]
