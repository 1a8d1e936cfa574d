"""Game options, deck checks, and the set-up of a new game."""

from __future__ import annotations

import random
from typing import Literal, Union

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from ...kernel.i18n import N_
from ...kernel.shapes import STRICT, OneOf, Shape
from ..base import State, Words, seat_key
from .cardset import DEFAULT_CARD_SET, REGISTRY, CardSet, CardSetChanged, UnknownCardSet
from .table import SEATS

MAX_MARKER = 5
START_SQUARES = {"first": ((0, 0), "N"), "second": ((0, 1), "S")}

SeatKey = Literal["1", "2"]
DeckChoice = Union[Literal["recommended"], list[str]]


class KhanOptions(Shape):
    """Options of a Khan & General game (``createGame`` ``options``)."""

    model_config = STRICT

    card_set: str = Field(DEFAULT_CARD_SET, max_length=40, description="The card set's id.")
    card_set_version: int | None = Field(None, ge=1, description="Its version; the latest when left out. "
                                                                  "The game records the one it used.")
    factions: dict[SeatKey, str] | None = Field(
        None, description='Which faction each seat plays, e.g. {"1": "general", "2": "khan"}. Default: seat 1 '
                          "plays the card set's first faction (khan), seat 2 the second.")
    decks: dict[SeatKey, DeckChoice] = Field(
        default_factory=dict,
        description='Each seat\'s deck: 15 card ids (5 units, at most 3 of a type; 10 commands, at most 2 of a '
                    'card) or "recommended" (the default). Each seat sees only its own deck.')
    first_seat: OneOf(1, 2) | None = Field(None, description="The seat that starts; a random seat when left out.")
    max_rounds: int = Field(40, ge=1, le=500, description="After this many rounds: most enemy units destroyed "
                                                          "wins, then most enemy units wounded, else a draw.")
    advanced: bool = Field(False, description="The advanced rules: you may not look at your own face-down "
                                              "sequence cards nor at your own discard pile.")

    @model_validator(mode="after")
    def _resolve(self) -> "KhanOptions":
        try:
            cards = REGISTRY.get(self.card_set, self.card_set_version)
        except (UnknownCardSet, CardSetChanged) as error:
            raise PydanticCustomError("unknown_card_set", "{reason}", {"reason": error.args[0]}) from None
        self.card_set_version = cards.version
        factions = self.factions or {"1": cards.faction_ids[0], "2": cards.faction_ids[1]}
        if sorted(factions.values()) != sorted(cards.faction_ids) or len(factions) != 2:
            raise ValueError(Words(N_("factions: give seats 1 and 2 one each of {factions}"),
                                   factions=list(cards.faction_ids)))
        self.factions = dict(factions)
        decks: dict[str, list[str]] = {}
        for seat in ("1", "2"):
            choice = self.decks.get(seat, "recommended")
            deck = list(cards.recommended[factions[seat]]) if choice == "recommended" else list(choice)
            problems = cards.deck_problems(deck, factions[seat])
            if problems:
                raise PydanticCustomError("invalid_deck", "{reason}", {"reason": Words(
                    N_("seat {seat}'s deck is not valid: {problems}"), seat=seat, problems=problems)})
            decks[seat] = deck
        self.decks = decks
        return self


def limit(state: State, seat: int) -> int:
    """How many cards the seat may play in its own turn this round (2/3, 3/4, 4/5, 5/5)."""
    extra = 0 if seat == state["first"] else 1
    return min(state["marker"] + extra, MAX_MARKER)


def second(state: State) -> int:
    return 3 - state["first"]


def new_turn() -> dict:
    return {"played": 0, "stage": "deploy", "activations": {}, "hits": {}, "engaged": [], "committed": [],
            "pending": [], "advance": None}


def new_game(options: dict, rng: random.Random, cards: CardSet | None = None) -> State:
    cards = cards or REGISTRY.get(options["card_set"], options["card_set_version"])
    first = options.get("first_seat") or rng.choice(SEATS)
    decks = {seat: list(deck) for seat, deck in options["decks"].items()}
    return {
        "card_set": {"id": cards.id, "version": cards.version, "digest": cards.digest},
        "seats": {seat_key(s): {"faction": options["factions"][seat_key(s)], "deck": decks[seat_key(s)]} for s in SEATS},
        "first": first,
        "max_rounds": options.get("max_rounds", 40),
        "advanced": options.get("advanced", False),
        "round": 0,
        "marker": 1,
        "active": first,
        "to_move": first,
        "phase": "setup",
        "hands": {seat_key(s): list(range(len(decks[seat_key(s)]))) for s in SEATS},
        "discards": {seat_key(s): [] for s in SEATS},
        "sequences": {seat_key(s): [] for s in SEATS},
        "field": [],
        "destroyed": {seat_key(s): [] for s in SEATS},
        "turn": new_turn(),
        "draw_offer": None,
        "result": None,
    }
