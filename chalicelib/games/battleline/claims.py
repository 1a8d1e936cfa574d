"""Claiming a flag: the proof that the opponent cannot beat a complete side.

The opponent's possible completions are drawn from the *unseen* troops: every troop not on
a flag (either side, claimed flags included) and not face up in a discard area. Hands,
the claimer's own included, and the decks are unseen. Rather than trying every completion,
:func:`best_completion` builds the strongest formation the opponent can still reach, one
formation at a time from Wedge down, so a check costs a few dozen set look-ups.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Sequence

from .cards import COLOURS, TROOPS, VALUES, Troop, parse_troop
from .formations import Formation, Strength, formation_of, is_consecutive, strength_of_troops


@dataclass(frozen=True, slots=True)
class Completion:
    """One way to complete a side: the cards added to it and the strength it then has."""

    added: tuple[Troop, ...]
    strength: Strength


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    claimable: bool
    reason: str
    counterexample: dict | None = None

    def as_json(self, flag: int) -> dict:
        return {"flag": flag, "claimable": self.claimable, "reason": self.reason,
                "counterexample": self.counterexample}


def unseen_troops(visible: Iterable[str]) -> list[Troop]:
    """Troops that are not face up anywhere: the pool an opponent may still complete from."""
    seen = set(visible)
    return [parse_troop(card) for card in TROOPS if card not in seen]  # type: ignore[misc]


def _completions_by_formation(
    existing: Sequence[Troop], pool: Sequence[Troop], size: int
) -> Iterable[Completion]:
    """For each formation from Wedge down, the highest-sum completion that has its pattern."""
    needed = size - len(existing)
    values = [t.value for t in existing]
    colours = {t.colour for t in existing}
    available = set(pool)

    def done(added: Iterable[Troop]) -> Completion:
        added = tuple(added)
        return Completion(added, strength_of_troops([*existing, *added]))

    distinct = len(set(values)) == len(values)
    # Wedge: one colour, consecutive values.
    if len(colours) <= 1 and distinct:
        for start in range(VALUES[-1] - size + 1, 0, -1):
            run = set(range(start, start + size))
            if not run.issuperset(values):
                continue
            for colour in colours or COLOURS:
                missing = [Troop(v, colour) for v in sorted(run - set(values))]
                if all(t in available for t in missing):
                    yield done(missing)
                    break
            else:
                continue
            break
    # Phalanx: one value.
    if len(set(values)) <= 1:
        for value in [values[0]] if values else reversed(VALUES):
            same = [t for t in pool if t.value == value]
            if len(same) >= needed:
                yield done(same[:needed])
                break
    # Battalion Order: one colour, the highest values of it.
    if len(colours) <= 1:
        best: Completion | None = None
        for colour in colours or COLOURS:
            same = sorted((t for t in pool if t.colour == colour), key=lambda t: -t.value)
            if len(same) >= needed:
                candidate = done(same[:needed])
                if best is None or candidate.strength.total > best.strength.total:
                    best = candidate
        if best is not None:
            yield best
    # Skirmish Line: consecutive values, any colours.
    if distinct:
        by_value: dict[int, Troop] = {}
        for t in pool:
            by_value.setdefault(t.value, t)
        for start in range(VALUES[-1] - size + 1, 0, -1):
            run = set(range(start, start + size))
            if not run.issuperset(values):
                continue
            missing = sorted(run - set(values))
            if all(v in by_value for v in missing):
                yield done(by_value[v] for v in missing)
                break
    # Host: anything, the highest values.
    if len(pool) >= needed:
        yield done(sorted(pool, key=lambda t: -t.value)[:needed])


def best_completion(
    existing: Sequence[Troop], pool: Sequence[Troop], size: int, *, fog: bool = False
) -> Completion | None:
    """The strongest completion of a side from the pool, or None when it cannot complete."""
    needed = size - len(existing)
    if needed < 0:
        raise ValueError("side already has more cards than it needs")
    if len(pool) < needed:
        return None
    if fog:
        added = sorted(pool, key=lambda t: -t.value)[:needed]
        return Completion(tuple(added), strength_of_troops([*existing, *added], fog=True))
    # Formations are tried from the strongest and every search within one is exhaustive, so
    # the first completion found has the strongest reachable formation (a completion that
    # reached a stronger one would have been found by that formation's search first) and,
    # within it, the highest sum.
    return next(iter(_completions_by_formation(existing, pool, size)), None)


def brute_force_best(
    existing: Sequence[Troop], pool: Sequence[Troop], size: int, *, fog: bool = False
) -> Strength | None:
    """Reference: try every completion. Slow; the tests check best_completion against it."""
    needed = size - len(existing)
    best: Strength | None = None
    for added in combinations(pool, needed):
        s = strength_of_troops([*existing, *added], fog=fog)
        if best is None or s > best:
            best = s
    return best


def describe(strength: Strength) -> str:
    if strength.formation == Formation.SUM_ONLY:
        return f"sum {strength.total}"
    return f"{strength.formation.name.lower().replace('_', ' ')} of {strength.total}"


def formation_name(strength: Strength) -> str:
    return "sum" if strength.formation == Formation.SUM_ONLY else strength.formation.name.lower()


__all__ = [
    "ClaimCheck", "Completion", "best_completion", "brute_force_best", "describe",
    "formation_name", "unseen_troops", "formation_of", "is_consecutive",
]


def side_size(flag: dict) -> int:
    """Cards a side needs at this flag: 3, or 4 under Mud."""
    return 4 if "MUD" in flag["environment"] else 3


def visible_cards(flags: list[dict], discards: dict[str, list[str]] | list[str]) -> list[str]:
    """Every card face up on the table: on any flag (claimed ones too) and in discard areas."""
    seen = [card for flag in flags for side in flag["cards"] for card in side]
    piles = discards.values() if isinstance(discards, dict) else [discards]
    return seen + [card for pile in piles for card in pile]


def _counterexample(cards: list[str], strength: Strength, added: list[str]) -> dict:
    return {"cards": cards, "added": added, "formation": formation_name(strength),
            "total": strength.total}


def check_claim(flag: dict, seat: int, pool: Sequence[Troop]) -> ClaimCheck:
    """May ``seat`` claim ``flag``, with ``pool`` the unseen troops?"""
    number = flag["flag"]
    if flag["claimed_by"] is not None:
        return ClaimCheck(False, f"flag {number} is already claimed")
    if seat not in flag["seats"]:
        return ClaimCheck(False, f"seat {seat} does not face flag {number}")
    side = flag["seats"].index(seat)
    size = side_size(flag)
    fog = "FOG" in flag["environment"]
    mine, theirs = flag["cards"][side], flag["cards"][1 - side]
    if len(mine) < size:
        return ClaimCheck(False, f"your side of flag {number} has {len(mine)} of the {size} cards it needs")
    my_strength = _strength_of(mine, fog)
    if len(theirs) >= size:
        their_strength = _strength_of(theirs, fog)
        mine_first = _completed_earlier(flag, side)
        if my_strength > their_strength or (my_strength == their_strength and mine_first):
            return ClaimCheck(True, f"your {describe(my_strength)} beats {describe(their_strength)}")
        why = "completed earlier and ties" if my_strength == their_strength else "is stronger"
        return ClaimCheck(
            False,
            f"the opponent's {describe(their_strength)} at flag {number} {why}",
            _counterexample(list(theirs), their_strength, []),
        )
    existing = [parse_troop(card) for card in theirs]
    completion = best_completion(existing, pool, size, fog=fog)  # type: ignore[arg-type]
    if completion is None:
        return ClaimCheck(True, f"the opponent cannot complete flag {number} from the unseen troops")
    if completion.strength <= my_strength:
        return ClaimCheck(
            True,
            f"the opponent's best completion, {describe(completion.strength)}, cannot beat your "
            f"{describe(my_strength)}",
        )
    added = [str(t) for t in completion.added]
    return ClaimCheck(
        False,
        f"the opponent could still complete flag {number} with {' '.join(added)} for a "
        f"{describe(completion.strength)}, beating your {describe(my_strength)}",
        _counterexample([*theirs, *added], completion.strength, added),
    )


def _strength_of(cards: list[str], fog: bool) -> Strength:
    return strength_of_troops([parse_troop(card) for card in cards], fog=fog)  # type: ignore[misc]


def _completed_earlier(flag: dict, side: int) -> bool:
    mine, theirs = flag["completed"][side], flag["completed"][1 - side]
    return theirs is None or (mine is not None and mine < theirs)
