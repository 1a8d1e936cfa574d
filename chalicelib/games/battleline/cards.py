"""Card notation of the public protocol: troops are value+colour letter (``7R``), tactics by name.

Cards travel as their notation strings everywhere (state, steps, views, events), so state
stays plain JSON. This module is the only place that knows how to read one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated

from pydantic import Field

COLOURS = ("R", "O", "Y", "G", "B", "P")
VALUES = tuple(range(1, 11))

LEADERS = ("ALEXANDER", "DARIUS")
MORALE_TACTICS = (*LEADERS, "COMPANION", "SHIELD")
ENVIRONMENT_TACTICS = ("FOG", "MUD")
GUILE_TACTICS = ("SCOUT", "REDEPLOY", "DESERTER", "TRAITOR")
TACTICS = (*MORALE_TACTICS, *ENVIRONMENT_TACTICS, *GUILE_TACTICS)

TROOPS = tuple(f"{value}{colour}" for colour in COLOURS for value in VALUES)

CARD_PATTERN = rf"^((10|[1-9])[{''.join(COLOURS)}]|{'|'.join(TACTICS)})$"
Card = Annotated[str, Field(pattern=CARD_PATTERN, examples=["7R", "10P", "ALEXANDER"],
                            description="A troop (value + colour letter R O Y G B P) or a tactics card by name.")]


@dataclass(frozen=True, slots=True)
class Troop:
    value: int
    colour: str

    def __str__(self) -> str:
        return f"{self.value}{self.colour}"


@lru_cache(maxsize=None)
def parse_troop(card: str) -> Troop | None:
    """The troop a notation names, or None when it names no troop (``10P`` yes, ``07R`` no)."""
    if not isinstance(card, str) or len(card) < 2:
        return None
    digits, colour = card[:-1], card[-1]
    if colour not in COLOURS or not digits.isdigit() or digits.startswith("0"):
        return None
    value = int(digits)
    return Troop(value, colour) if value in VALUES else None


def is_troop(card: str) -> bool:
    return parse_troop(card) is not None


def is_tactic(card: str) -> bool:
    return card in TACTICS


def is_card(card: str) -> bool:
    return is_troop(card) or is_tactic(card)


# Troops by colour then value, then tactics in rule-book order: how a hand is shown.
HAND_ORDER = {card: index for index, card in enumerate([*TROOPS, *TACTICS])}


def sort_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=HAND_ORDER.__getitem__)
