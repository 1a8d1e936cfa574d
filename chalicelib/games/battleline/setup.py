"""Game options and the deal."""

from __future__ import annotations

import copy
import random
from typing import Literal

from pydantic import Field, model_validator

from ...kernel.shapes import STRICT, OneOf, Shape

from .cards import TACTICS, TROOPS

HAND_SIZE = 7
FLAG_COUNT = 9

ClaimTiming = Literal["basic", "start", "end"]

PHASE_ORDER: dict[str, tuple[str, ...]] = {
    "basic": ("play", "claim", "draw"),
    "start": ("claim", "play", "draw"),
    "end": ("play", "draw", "claim"),
}

# Three-player ring (battleline.md): flags 1-3 between seats 1 and 2, 4-6 between 2 and 3,
# 7-9 between 3 and 1.
RING_SEATS = {1: (1, 2), 2: (1, 2), 3: (1, 2), 4: (2, 3), 5: (2, 3), 6: (2, 3), 7: (3, 1), 8: (3, 1), 9: (3, 1)}


class BattleLineOptions(Shape):
    """Options of a Battle Line game (``createGame`` ``options``)."""

    model_config = STRICT

    players: OneOf(2, 3) = Field(2, description="3: the three-player ring variant (no tactics; 3 adjacent or any 4 flags).")
    tactics: bool | None = Field(None, description="Play with the 10 tactics cards. Default: yes with 2 players; never with 3.")
    claim_timing: ClaimTiming = Field(
        "basic",
        description="basic: play, claim, draw. start: claim, play, draw. end: play, draw, claim.",
    )
    auto_claim: dict[Literal["1", "2", "3"], bool] = Field(
        default_factory=dict,
        description="Per seat: claim every provable flag automatically at the claim step.",
    )
    first_seat: OneOf(1, 2, 3) | None = Field(None, description="The seat that starts; a random seat when left out.")
    match_games: int = Field(1, ge=1, le=15, description="Play a match of this many games: the winner of a game "
                                                         "scores 5, the loser the flags it held; the winner starts the next.")

    @model_validator(mode="after")
    def _consistent(self) -> "BattleLineOptions":
        seats = [str(s) for s in range(1, self.players + 1)]
        if self.players == 3 and self.tactics:
            raise ValueError("the three-player game is played without tactics cards")
        if self.tactics is None:
            self.tactics = self.players == 2
        if self.first_seat is not None and self.first_seat > self.players:
            raise ValueError(f"first_seat {self.first_seat} does not exist in a {self.players}-player game")
        extra = sorted(set(self.auto_claim) - set(seats))
        if extra:
            raise ValueError(f"auto_claim names seat {extra[0]}, which a {self.players}-player game does not have")
        self.auto_claim = {seat: self.auto_claim.get(seat, False) for seat in seats}  # type: ignore[misc]
        return self


def new_flag(number: int, seats: tuple[int, int]) -> dict:
    return {
        "flag": number,
        "seats": list(seats),
        "cards": [[], []],
        "environment": [],
        "environment_seats": {},  # environment card -> the seat that played it
        "claimed_by": None,
        # Completion stamps per side from the game's completion counter: smaller = earlier.
        "completed": [None, None],
    }


def deal(state: dict, rng: random.Random, first: int) -> None:
    """Shuffle, deal and set up a fresh table (for a new game, or the next game of a match)."""
    players = state["players"]
    seats = list(range(1, players + 1))
    troops = list(TROOPS)
    rng.shuffle(troops)
    tactics = list(TACTICS) if state["tactics"] else []
    rng.shuffle(tactics)
    state["hands"] = {str(seat): [troops.pop() for _ in range(HAND_SIZE)] for seat in seats}
    state["decks"] = {"troop": troops, "tactics": tactics}  # the top of a deck is its last card
    state["flags"] = [new_flag(n, RING_SEATS[n] if players == 3 else (1, 2)) for n in range(1, FLAG_COUNT + 1)]
    state["discards"] = {str(seat): [] for seat in seats}
    state["tactics_played"] = {str(seat): 0 for seat in seats}
    state["leaders_played"] = {str(seat): 0 for seat in seats}
    state["completions"] = 0
    state["turn_seat"] = first
    state["first_seat_of_game"] = first
    state["to_move"] = first
    state["phase"] = PHASE_ORDER[state["claim_timing"]][0]
    state["turn"] = 1
    state["passed_this_turn"] = False
    state["scouted_this_turn"] = False
    state["scout"] = None
    state["pending"] = []
    state["passes_in_a_row"] = 0
    state["resigned"] = []


def new_game(options: dict, rng: random.Random) -> dict:
    opts = BattleLineOptions.model_validate(options)
    state: dict = {
        "players": opts.players,
        "tactics": opts.tactics,
        "claim_timing": opts.claim_timing,
        "auto_claim": opts.auto_claim,
        "match": None,
        "result": None,
    }
    first = opts.first_seat or rng.randint(1, opts.players)
    if opts.match_games > 1:
        state["match"] = {"games": opts.match_games, "number": 1, "seed": rng.getrandbits(64),
                          "scores": {str(s): 0 for s in range(1, opts.players + 1)}, "results": []}
    deal(state, rng, first)
    return state


def next_game_rng(match: dict) -> random.Random:
    """The deal of a match's next game: determined by the match's seed, secret like the rest."""
    return random.Random(f"battleline-match:{match['seed']}:{match['number']}")


def copy_state(state: dict) -> dict:
    """A copy of a game's state sharing nothing mutable with it: ``copy.deepcopy``'s result, built
    from the state's known shape at a fraction of its cost (``games.base.apply_steps``, the bots'
    playouts). A key this function does not know is deep-copied."""
    copied = {}
    for key, value in state.items():
        copier = _COPIERS.get(key)
        copied[key] = copier(value) if copier else (value if value is None or isinstance(value, (int, str, float))
                                                    else copy.deepcopy(value))
    return copied


def _copy_flag(flag: dict) -> dict:
    if flag.keys() != _FLAG_KEYS:  # (not the shape known here: copied the slow way)
        return copy.deepcopy(flag)
    return {**flag, "seats": list(flag["seats"]), "cards": [list(side) for side in flag["cards"]],
            "environment": list(flag["environment"]), "environment_seats": dict(flag["environment_seats"]),
            "completed": list(flag["completed"])}


def _lists(value: dict) -> dict:
    return {key: list(items) for key, items in value.items()}


_FLAG_KEYS = frozenset(new_flag(1, (1, 2)))
_COPIERS = {
    "hands": _lists, "decks": _lists, "discards": _lists,
    "flags": lambda flags: [_copy_flag(flag) for flag in flags],
    "tactics_played": dict, "leaders_played": dict, "resigned": list,
    "scout": lambda scout: dict(scout) if scout is not None else None,
    "pending": lambda pending: [dict(p) for p in pending],
    "auto_claim": dict,
    # a match's results and a finished game's result nest further; they are small and rare
    "match": copy.deepcopy, "result": copy.deepcopy,
}
