"""Hand-built Battle Line positions for rule tests."""

from __future__ import annotations

import random

from chalicelib.games.battleline.engine import ENGINE
from chalicelib.games.battleline.cards import TACTICS, TROOPS
from chalicelib.games.battleline.claims import side_size
from chalicelib.games.battleline.table import restamp


def build(
    *,
    flags: dict[int, tuple[list[str], list[str]]] | None = None,
    hands: dict[int, list[str]] | None = None,
    to_move: int = 1,
    phase: str = "play",
    claimed: dict[int, int] | None = None,
    environment: dict[int, list[str] | dict[str, int]] | None = None,
    deck: list[str] | None = None,
    **options,
) -> dict:
    """A game state with the given cards placed; every other troop goes to the troop deck, and
    the tactics cards not placed go to the tactics deck (when the game has tactics).

    Sides are completed in the order given: flag by flag, seat 1's side before seat 2's.
    Environment cards are seat 1's unless given as ``{"MUD": 2}``.
    """
    state = ENGINE.new_game({"first_seat": to_move, **options}, random.Random(0))
    flags = flags or {}
    hands = {1: [], 2: [], **(hands or {})}
    placed = [c for one, two in flags.values() for c in one + two] + [c for h in hands.values() for c in h]
    assert len(placed) == len(set(placed)), "a card placed twice"
    state["hands"] = {str(seat): list(cards) for seat, cards in hands.items()}
    for number, env in (environment or {}).items():
        owners = env if isinstance(env, dict) else {card: 1 for card in env}
        state["flags"][number - 1]["environment"] = list(owners)
        state["flags"][number - 1]["environment_seats"] = dict(owners)
        placed += list(owners)
    for number, (one, two) in sorted(flags.items()):
        flag = state["flags"][number - 1]
        flag["cards"] = [list(one), list(two)]
        restamp(state, flag, acting=2)
    for number, seat in (claimed or {}).items():
        state["flags"][number - 1]["claimed_by"] = seat
    rest = [c for c in TROOPS if c not in placed]
    state["decks"]["troop"] = list(deck) if deck is not None else rest
    if state["tactics"]:
        state["decks"]["tactics"] = [c for c in TACTICS if c not in placed]
    state["phase"] = phase
    state["turn_seat"] = state["to_move"] = to_move
    return state


def play(state: dict, seat: int, *steps: dict) -> list[dict]:
    events = []
    for step in steps:
        events += ENGINE.apply_step(state, seat, step)
    return events


def all_cards(state: dict) -> list[str]:
    """Every card in the game, wherever it lies."""
    cards = [c for deck in state["decks"].values() for c in deck]
    cards += [c for hand in state["hands"].values() for c in hand]
    cards += [c for flag in state["flags"] for side in flag["cards"] for c in side]
    cards += [c for flag in state["flags"] for c in flag["environment"]]
    cards += [c for pile in state["discards"].values() for c in pile]
    return cards


__all__ = ["build", "play", "all_cards", "side_size"]
