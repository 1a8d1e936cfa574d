"""The table: hands, flags and their sides, moving cards, and completion order."""

from __future__ import annotations

from typing import Any

from ...kernel.i18n import N_
from ..base import IllegalStep, State, seat_key
from .claims import side_size


def hand(state: State, seat: int) -> list[str]:
    return state["hands"][seat_key(seat)]


def seats(state: State) -> list[int]:
    return list(range(1, state["players"] + 1))


def active_seats(state: State) -> list[int]:
    """Seats still playing (a resigned seat of a three-player game is out)."""
    return [seat for seat in seats(state) if seat not in state["resigned"]]


def opponents(state: State, seat: int) -> list[int]:
    return [other for other in seats(state) if other != seat]


def flag_at(state: State, number: Any) -> dict:
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(state["flags"]):
        raise IllegalStep(N_('there is no flag {number}; flags are numbered 1 to {count}'), number=repr(number), count=len(state['flags']))
    return state["flags"][number - 1]


def side_cards(flag: dict, seat: int) -> list[str]:
    return flag["cards"][flag["seats"].index(seat)]


def faces(flag: dict, seat: int) -> bool:
    return seat in flag["seats"]


def is_open(flag: dict) -> bool:
    return flag["claimed_by"] is None


def has_free_slot(flag: dict, seat: int) -> bool:
    seats_here = flag["seats"]
    if flag["claimed_by"] is not None or seat not in seats_here:
        return False
    return len(flag["cards"][seats_here.index(seat)]) < side_size(flag)


def open_flags(state: State, seat: int) -> list[dict]:
    """Unclaimed flags with a free slot on the seat's side."""
    return [flag for flag in state["flags"] if has_free_slot(flag, seat)]


def flags_held(state: State, seat: int) -> list[int]:
    return [flag["flag"] for flag in state["flags"] if flag["claimed_by"] == seat]


def discard(state: State, owner: int, card: str) -> None:
    state["discards"][seat_key(owner)].append(card)


# ---------------------------------------------------------------- completion order

def restamp(state: State, flag: dict, acting: int) -> None:
    """Re-track completion after cards or Mud moved. A side below its size loses its stamp; a
    side at its size without one gets a new, later stamp. When both sides complete through
    the same step, the acting seat's side counts as completed last."""
    size = side_size(flag)
    for side in ((1, 0) if flag["seats"][0] == acting else (0, 1)):
        count = len(flag["cards"][side])
        if count < size:
            flag["completed"][side] = None
        elif flag["completed"][side] is None:
            state["completions"] += 1
            flag["completed"][side] = state["completions"]


def queue_mud_discards(state: State, flag: dict, acting: int) -> None:
    """Decision: when Mud leaves a flag, a side left with 4 cards is cut to 3 by its owner,
    the acting seat first."""
    for side in sorted(range(2), key=lambda side: flag["seats"][side] != acting):
        if len(flag["cards"][side]) > side_size(flag):
            state["pending"].append({"type": "mud_discard", "seat": flag["seats"][side], "flag": flag["flag"]})


def place(state: State, flag: dict, seat: int, card: str) -> None:
    side_cards(flag, seat).append(card)
    restamp(state, flag, seat)


def take(state: State, flag: dict, seat: int, card: str, acting: int) -> None:
    """Take a card off ``seat``'s side (a slot card or one of its environment cards)."""
    if card in flag["environment"] and flag["environment_seats"].get(card) == seat:
        flag["environment"].remove(card)
        del flag["environment_seats"][card]
        restamp(state, flag, acting)
        if card == "MUD":
            queue_mud_discards(state, flag, acting)
        return
    side_cards(flag, seat).remove(card)
    restamp(state, flag, acting)


def set_environment(state: State, flag: dict, seat: int, card: str) -> None:
    flag["environment"].append(card)
    flag["environment_seats"][card] = seat
    restamp(state, flag, seat)


def owns_on_flag(flag: dict, seat: int, card: str) -> bool:
    """Is ``card`` on ``seat``'s side of the flag, as a slot card or as its environment card?"""
    if card in flag["environment"]:
        return flag["environment_seats"].get(card) == seat
    return faces(flag, seat) and card in side_cards(flag, seat)
