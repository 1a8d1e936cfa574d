"""The greedy Battle Line bot: claims every flag it can prove, then plays the card that best
improves a flag, judged one step ahead from its own view.

A flag is judged by the best formation each side can still reach: the bot's side from the
troops it holds or has not seen, the opponent's from the troops the bot has not seen
(``claims.reachable``, the claim proof's own search). Playing a card is worth what it adds to
its flag's standing, plus a little for progress; tactics other than the morale ones are
played only when nothing else may be.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import lru_cache

from ..games.battleline.cards import is_troop, parse_troop
from ..games.battleline.claims import CARD_BIT, Side, best_completion, side_size, troops_mask
from ..games.battleline.formations import Strength
from ..games.battleline.turns import unseen_pool
from . import playing

PROGRESS = 12  # points a card on a side is worth for bringing it nearer completion
FLAG = 150  # a flag won, in the same points
WILD_PENALTY = 25  # a wildcard is kept for when it completes something strong


def strength_key(strength: Strength | None) -> int:
    return -1 if strength is None else int(strength.formation) * 100 + strength.total


KNOWN_POOLS = 16  # completions remembered per side (for ``potential``'s shortcut)
_known: dict[tuple[tuple[str, ...], int, bool], list[tuple[int, int, int]]] = {}


@lru_cache(maxsize=65536)
def potential(cards: tuple[str, ...], pool: int, size: int, fog: bool) -> int:
    """The strongest formation the side can still reach, as one number (formation, then sum).

    A pool only loses cards as a game goes on, and a search's playouts only take cards from the
    pool they started with, so most pools asked about are smaller than one already searched. If
    the best completion found in a larger pool uses only cards this pool still has, it is the
    best here too (a smaller pool reaches nothing stronger), and no search is needed."""
    if len(cards) > size:
        return -1
    side = (cards, size, fog)
    known = _known.get(side)
    if known is not None:
        for wider, added, value in known:
            if not pool & ~wider and not added & ~pool:
                return value
    else:
        if len(_known) >= 65536:
            _known.clear()
        known = _known[side] = []
    completion = best_completion(Side.of(cards), pool, size, fog=fog)
    value = strength_key(completion.strength if completion else None)
    known.insert(0, (pool, completion.added_mask if completion else 0, value))
    del known[KNOWN_POOLS:]
    return value


def clear_caches() -> None:
    """Forget every potential worked out (``potential``'s cache and its remembered completions)."""
    potential.cache_clear()
    _known.clear()


class Table:
    """The bot's reading of the table: the troops it may still get, and those its opponent may.
    ``table`` has the flags, the discards and the bot's ``hand`` (a seat's view has them).
    ``held_by_others``: troops known to be in the other hands (a dealt state's, where a search
    knows them), which the bot cannot get; a seat's view knows none."""

    def __init__(self, table: dict, seat: int, held_by_others: Iterable[str] = ()) -> None:
        self.state = table
        self.seat = seat
        self._standings: dict[int, float] = {}  # flag -> standing as it is (many plays share it)
        self._parts: dict[int, tuple | None] = {}  # flag -> what ``standing`` reads of it (every play at it shares it)
        self.by_number = {f["flag"]: f for f in table["flags"]}
        unseen = unseen_pool(table)
        self.mine = unseen & ~troops_mask(held_by_others)  # its own hand included
        self.theirs = unseen & ~troops_mask(table["hand"])

    @classmethod
    def of_view(cls, view: dict) -> "Table":
        return cls(view["state"], view["you"])

    def score(self) -> float:
        """The bot's standing over the whole table: flags won, and how it stands at the others."""
        won = sum(1 if f["claimed_by"] == self.seat else -1 if f["claimed_by"] else 0 for f in self.state["flags"])
        return FLAG * won + sum(self.standing(f) for f in self.state["flags"] if f["claimed_by"] is None)

    def standing(self, flag: dict, extra: str | None = None) -> float:
        """How well the bot stands at a flag (with ``extra`` added to its side)."""
        parts = self.parts(flag)
        if parts is None:
            return 0.0
        cards, size, fog, other = parts
        mine = tuple(sorted([*cards, extra] if extra else cards))
        pool = self.mine & ~CARD_BIT.get(extra, 0) if extra else self.mine
        return potential(mine, pool, size, fog) - other + PROGRESS * len(mine)

    def parts(self, flag: dict) -> tuple | None:
        """What ``standing`` reads of a flag, worked out once (a playout asks it of every card at
        every flag): the bot's cards there, the side's size, Fog, and the opponent's potential;
        None where the bot does not stand (a claimed flag, or one it has no side at)."""
        number = flag["flag"]
        if number not in self._parts:
            if flag["claimed_by"] is not None or self.seat not in flag["seats"]:
                self._parts[number] = None
            else:
                side = flag["seats"].index(self.seat)
                size, fog = side_size(flag), "FOG" in flag["environment"]
                other = potential(tuple(sorted(flag["cards"][1 - side])), self.theirs, size, fog)
                self._parts[number] = (flag["cards"][side], size, fog, other)
        return self._parts[number]

    def standing_now(self, flag: dict) -> float:
        """``standing(flag)`` as the flag is, worked out once (the plays at one flag share it)."""
        if flag["flag"] not in self._standings:
            self._standings[flag["flag"]] = self.standing(flag)
        return self._standings[flag["flag"]]


def play_score(table: Table, step: dict) -> float:
    card = step["card"]
    flag = table.by_number.get(step.get("flag"))
    if flag is None or "target" in step or card in ("FOG", "MUD", "SCOUT"):
        return -1000.0  # guile and environment tactics: only when nothing else may be played
    gain = table.standing(flag, card) - table.standing_now(flag)
    return gain - (0 if is_troop(card) else WILD_PENALTY)


def card_value(card: str) -> int:
    troop = parse_troop(card)
    return troop.value if troop else 11  # tactics are worth keeping


def decide(steps: list[dict], table: Table | None, rng: random.Random) -> dict:
    """The greedy choice among legal steps (``table`` is only read for plays: None builds nothing)."""
    steps = playing(steps)
    kinds = {s["type"] for s in steps}
    if "claim" in kinds:  # the first claim step claims every provable flag
        return max((s for s in steps if s["type"] == "claim"), key=lambda s: len(s["flags"]))
    if kinds & {"draw", "scout_draw"}:
        return next((s for s in steps if s.get("deck") == "troop"), steps[0])
    if "scout_return" in kinds:
        return min(steps, key=lambda s: sum(card_value(c) for c in s["cards"]))
    if "mud_discard" in kinds:
        return min(steps, key=lambda s: card_value(s["card"]))
    plays = [s for s in steps if s["type"] == "play"]
    if not plays or table is None:
        return steps[0]
    best_score, _, best = max(((play_score(table, s), rng.random(), s) for s in plays), key=lambda x: (x[0], x[1]))
    if best_score <= -1000.0 and any(s["type"] == "pass" for s in steps):
        return next(s for s in steps if s["type"] == "pass")  # rather than a tactics card that does no good
    return best


class Greedy:
    name = "greedy"

    def choose(self, view: dict, rng: random.Random) -> dict:
        return decide(view["legal_steps"], Table.of_view(view), rng)
