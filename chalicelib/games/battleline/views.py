"""What one seat (or a spectator) may see of a game: the Battle Line part of the view."""

from __future__ import annotations

from ..base import State, seat_key
from .cards import sort_hand
from .table import seats
from .turns import provable_flags


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
        "environment_seats": dict(flag["environment_seats"]),
        "claimed_by": flag["claimed_by"],
        "first_complete": first_complete(flag),
    }


def view(state: State, seat: int | None) -> dict:
    """Own hand only; the decks only as counts; never another seat's hand or the deck order."""
    seated = seat in seats(state)
    return {
        "flags": [public_flag(flag) for flag in state["flags"]],
        "hand": sort_hand(state["hands"][seat_key(seat)]) if seated else [],
        # What the seat could prove now from the table alone (public: no hand is looked at).
        "claimable": provable_flags(state, seat) if seated and state["result"] is None else [],
        "hand_sizes": {key: len(cards) for key, cards in state["hands"].items()},
        "decks": {deck: len(cards) for deck, cards in state["decks"].items()},
        "discards": {key: list(cards) for key, cards in state["discards"].items()},
        "tactics_played": dict(state["tactics_played"]),
        "leaders_played": dict(state["leaders_played"]),
        "players": state["players"],
        "tactics": state["tactics"],
        "claim_timing": state["claim_timing"],
        "turn": state["turn"],
        "turn_seat": state["turn_seat"],
        "first_seat_of_game": state["first_seat_of_game"],
        "passed_this_turn": state["passed_this_turn"],
        "scouted_this_turn": state["scouted_this_turn"],
        "passes_in_a_row": state["passes_in_a_row"],
        "scout": dict(state["scout"]) if state["scout"] else None,
        "pending": [dict(p) for p in state["pending"]],
        "resigned": list(state["resigned"]),
        # The match's seed stays out: it would tell the deals of the games to come.
        "match": {k: v for k, v in state["match"].items() if k != "seed"} if state["match"] else None,
    }


# ---------------------------------------------------------------- the documented shape

from pydantic import Field  # noqa: E402

from ...kernel.shapes import Shape  # noqa: E402

from .cards import Card  # noqa: E402


class ScoutProgress(Shape):
    drawn: int
    to_return: int


class PendingDecision(Shape):
    type: str
    seat: int
    flag: int


class MatchProgress(Shape):
    games: int = Field(description="Games in the match.")
    number: int = Field(description="The game being played.")
    scores: dict[str, int]
    results: list[dict] = Field(description="Each finished game's result.")


class FlagView(Shape):
    flag: int = Field(ge=1, le=9)
    seats: list[int] = Field(description="The two seats facing this flag, in the order of `cards`.")
    cards: list[list[Card]] = Field(description="Cards on each side, in the order of `seats`.")
    environment: list[str] = Field(description="FOG and/or MUD lying at the flag.")
    environment_seats: dict[str, int] = Field(description="Who played each environment card.")
    claimed_by: int | None
    first_complete: int | None = Field(description="The seat whose side was completed first.")


class BattleLineStateView(Shape):
    """The Battle Line part of a view: the table, your own hand, and counts of the rest."""

    flags: list[FlagView]
    hand: list[Card] = Field(description="Your own hand; empty for spectators.")
    claimable: list[int] = Field(description="The flags you could claim now, provable from the table alone "
                                             "(whether or not this is your claim step); empty for spectators.")
    hand_sizes: dict[str, int]
    decks: dict[str, int] = Field(description="Cards left in the troop and tactics decks.")
    discards: dict[str, list[Card]]
    tactics_played: dict[str, int]
    leaders_played: dict[str, int]
    players: int
    tactics: bool
    claim_timing: str
    turn: int
    turn_seat: int | None = Field(description="Whose turn it is; `to_move` may differ while a Mud discard is owed.")
    first_seat_of_game: int = Field(description="The seat that started this game (of a match).")
    passed_this_turn: bool
    scouted_this_turn: bool = Field(description="A SCOUT was played this turn (its draws replace the draw).")
    passes_in_a_row: int = Field(description="Seats that passed in succession with no claim: when every seat has, "
                                             "the game ends (the stall rule).")
    scout: ScoutProgress | None = Field(description="A SCOUT being resolved: cards drawn, cards to return.")
    pending: list[PendingDecision] = Field(description="Decisions owed before play goes on (Mud discards).")
    resigned: list[int] = Field(description="Seats out of a three-player game.")
    match: MatchProgress | None
