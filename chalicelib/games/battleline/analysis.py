"""``analyzeBattleLine``: every flag's claim check for a seat, on a position given as data."""

from __future__ import annotations

from collections import Counter
from .cards import LEADERS, is_troop
from .claims import WILD_VALUES, check_claim, pool_mask, side_size, visible_cards
from .positions import AnalyzePosition, AnalyzeRequest
from ...i18n import _


class InvalidPosition(ValueError):
    pass


def _flags(position: AnalyzePosition, seat: int) -> list[dict]:
    numbers = [f.flag if f.flag is not None else i for i, f in enumerate(position.flags, start=1)]
    if sorted(numbers) != list(range(1, 10)):
        raise InvalidPosition(_("flags: each flag from 1 to 9 once"))
    flags = []
    for given, number in sorted(zip(position.flags, numbers), key=lambda pair: pair[1]):
        flag = {"flag": number, "seats": [1, 2], "cards": [list(side) for side in given.cards],
                "environment": list(given.environment), "claimed_by": given.claimed_by, "completed": [None, None]}
        if len(set(flag["environment"])) != len(flag["environment"]):
            raise InvalidPosition(_("flag {number}: an environment card lies there once").format(number=number))
        size = side_size(flag)
        for side, cards in enumerate(flag["cards"]):
            for card in cards:
                if not is_troop(card) and card not in WILD_VALUES:
                    raise InvalidPosition(_("flag {number}, seat {seat}: {card} cannot lie in a slot").format(
                                            number=number, seat=side + 1, card=card))
            if len(cards) > size:
                raise InvalidPosition(_("flag {number}, seat {seat}: {count} cards, at most {size} here").format(
                                        number=number, seat=side + 1, count=len(cards), size=size))
        complete = [side for side in (0, 1) if len(flag["cards"][side]) == size]
        if len(complete) == 2:
            first = given.first_complete or (2 if seat == 1 else 1)
            flag["completed"] = [1, 2] if first == 1 else [2, 1]
        elif complete:
            flag["completed"][complete[0]] = 1
        flags.append(flag)
    return flags


def _check_cards(flags: list[dict], discards: list[str]) -> None:
    placed = visible_cards(flags, discards) + [card for flag in flags for card in flag["environment"]]
    twice = sorted(card for card, count in Counter(placed).items() if count > 1)
    if twice:
        raise InvalidPosition(_("{card} appears more than once in the position").format(card=twice[0]))
    for side in (0, 1):
        leaders = [card for flag in flags for card in flag["cards"][side] if card in LEADERS]
        if len(leaders) > 1:
            raise InvalidPosition(_("seat {seat} has two Leaders on the table; each player plays only one").format(
                                    seat=side + 1))


def analyze(request: AnalyzeRequest) -> dict:
    """Raises InvalidPosition with a reason naming the faulty entry."""
    flags = _flags(request.position, request.seat)
    _check_cards(flags, request.position.discards)
    pool = pool_mask(visible_cards(flags, request.position.discards))
    results = []
    for flag in flags:
        check = check_claim(flag, request.seat, pool)
        results.append({"flag": flag["flag"], "claimable": check.claimable, "reason": check.reason,
                        "counterexample": check.counterexample})
    return {"flags": results}
