"""Game options and the deal."""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .cards import TROOPS

HAND_SIZE = 7
FLAG_COUNT = 9

ClaimTiming = Literal["basic", "start", "end"]

PHASE_ORDER: dict[str, tuple[str, ...]] = {
    "basic": ("play", "claim", "draw"),
    "start": ("claim", "play", "draw"),
    "end": ("play", "draw", "claim"),
}


class BattleLineOptions(BaseModel):
    """Options of a Battle Line game (``createGame`` ``options``)."""

    model_config = ConfigDict(extra="forbid")

    claim_timing: ClaimTiming = Field(
        "basic",
        description="basic: play, claim, draw. start: claim, play, draw. end: play, draw, claim.",
    )
    auto_claim: dict[Literal["1", "2"], bool] = Field(
        default_factory=dict,
        description="Per seat: claim every provable flag automatically at the claim step.",
    )
    first_seat: Literal[1, 2] | None = Field(
        None, description="The seat that starts; a random seat when left out."
    )

    @model_validator(mode="after")
    def _complete(self) -> "BattleLineOptions":
        self.auto_claim = {seat: self.auto_claim.get(seat, False) for seat in ("1", "2")}
        return self


def new_flag(number: int, seats: tuple[int, int]) -> dict:
    return {
        "flag": number,
        "seats": list(seats),
        "cards": [[], []],
        "environment": [],
        "claimed_by": None,
        # Completion stamps per side from the game's completion counter: smaller = earlier.
        "completed": [None, None],
    }


def new_game(options: dict, rng: random.Random) -> dict:
    opts = BattleLineOptions.model_validate(options)
    seats = (1, 2)
    troops = list(TROOPS)
    rng.shuffle(troops)
    hands = {str(seat): [troops.pop() for _ in range(HAND_SIZE)] for seat in seats}
    first = opts.first_seat or rng.choice(seats)
    return {
        "players": len(seats),
        "claim_timing": opts.claim_timing,
        "auto_claim": opts.auto_claim,
        "decks": {"troop": troops, "tactics": []},  # the top of a deck is its last card
        "hands": hands,
        "flags": [new_flag(n, seats) for n in range(1, FLAG_COUNT + 1)],
        "discards": {str(seat): [] for seat in seats},
        "tactics_played": {str(seat): 0 for seat in seats},
        "completions": 0,
        "to_move": first,
        "phase": PHASE_ORDER[opts.claim_timing][0],
        "turn": 1,
        "passed_this_turn": False,
        "passes_in_a_row": 0,
        "result": None,
    }
