"""What one seat (or a spectator) may see of a game: the Battle Line part of the view."""

from __future__ import annotations

from ..base import State
from .cards import sort_hand
from .turns import seat_key, seats


def first_complete(flag: dict) -> int | None:
    """The seat whose side of the flag was completed first, if any side is complete."""
    stamps = [(stamp, flag["seats"][side]) for side, stamp in enumerate(flag["completed"]) if stamp is not None]
    return min(stamps)[1] if stamps else None


def public_flag(flag: dict) -> dict:
    return {
        "flag": flag["flag"],
        "seats": list(flag["seats"]),
        "cards": [list(side) for side in flag["cards"]],
        "environment": list(flag["environment"]),
        "claimed_by": flag["claimed_by"],
        "first_complete": first_complete(flag),
    }


def view(state: State, seat: int | None) -> dict:
    """Own hand only; the decks only as counts; never another seat's hand or the deck order."""
    seated = seat in seats(state)
    return {
        "flags": [public_flag(flag) for flag in state["flags"]],
        "hand": sort_hand(state["hands"][seat_key(seat)]) if seated else [],
        "hand_sizes": {key: len(cards) for key, cards in state["hands"].items()},
        "decks": {deck: len(cards) for deck, cards in state["decks"].items()},
        "discards": {key: list(cards) for key, cards in state["discards"].items()},
        "tactics_played": dict(state["tactics_played"]),
        "claim_timing": state["claim_timing"],
        "turn": state["turn"],
    }


# ---------------------------------------------------------------- the documented shape

from pydantic import BaseModel, Field  # noqa: E402

from .steps import Card  # noqa: E402


class FlagView(BaseModel):
    flag: int = Field(ge=1, le=9)
    seats: list[int] = Field(description="The two seats facing this flag, in the order of `cards`.")
    cards: list[list[Card]] = Field(description="Cards on each side, in the order of `seats`.")
    environment: list[str] = Field(description="FOG and/or MUD lying at the flag.")
    claimed_by: int | None
    first_complete: int | None = Field(description="The seat whose side was completed first.")


class BattleLineStateView(BaseModel):
    """The Battle Line part of a view: the table, your own hand, and counts of the rest."""

    flags: list[FlagView]
    hand: list[Card] = Field(description="Your own hand; empty for spectators.")
    hand_sizes: dict[str, int]
    decks: dict[str, int] = Field(description="Cards left in the troop and tactics decks.")
    discards: dict[str, list[Card]]
    tactics_played: dict[str, int]
    claim_timing: str
    turn: int
