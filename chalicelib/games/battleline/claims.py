"""Claiming a flag: the proof that the opponent cannot beat a complete side.

The opponent's possible completions come from the *unseen* troops: every troop not on a
flag (either side, claimed flags included) and not face up in a discard area. Hands, the
claimer's own included, and the decks are unseen; tactics not yet played are ignored.
Morale tactics already on a side are wildcards that take their best value.

Rather than trying every completion, :func:`reachable` builds, for each formation from
Wedge down, the highest-sum completion with that formation's pattern. Formations are tried
from the strongest and each search is exhaustive within its formation, so the first
completion found is the strongest reachable. A claim check stops as soon as a completion
beats the claimer, or once the formations left are weaker than the claimer's. The unseen
troops are a 60-bit mask, so most checks are a handful of integer operations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, permutations, product
from typing import Any, Callable, Iterable, Iterator, Sequence

from ...kernel.i18n import N_
from ..base import Words
from .cards import COLOURS, LEADERS, TROOPS, VALUES, Troop, parse_troop
from .formations import Formation, Strength, strength_of_troops

# ---------------------------------------------------------------- a side's size

SIDE_SIZE = 3  # cards a side holds and needs at a flag
MUD_SIDE_SIZE = 4  # under Mud


def side_size(flag: dict) -> int:
    """Cards a side needs (and may hold) at this flag: 3, or 4 under Mud. The one place that
    says so: the slots, the claim proof, Mud's discards and the bots all ask here."""
    return MUD_SIDE_SIZE if "MUD" in flag["environment"] else SIDE_SIZE


# ---------------------------------------------------------------- wildcards

WILD_VALUES: dict[str, tuple[int, ...]] = {
    **{leader: VALUES for leader in LEADERS},
    "COMPANION": (8,),
    "SHIELD": (1, 2, 3),
}


def is_wild(card: str) -> bool:
    return card in WILD_VALUES


# ---------------------------------------------------------------- the unseen troops as a bit mask

def bit(value: int, colour: str) -> int:
    return 1 << (COLOURS.index(colour) * 10 + value - 1)


ALL_TROOPS = (1 << 60) - 1
VALUE_MASK = {v: sum(bit(v, c) for c in COLOURS) for v in VALUES}
COLOUR_MASK = {c: sum(bit(v, c) for v in VALUES) for c in COLOURS}
CARD_BIT = {card: bit(t.value, t.colour) for card in TROOPS if (t := parse_troop(card))}
RUN_MASK = {(colour, start, size): sum(bit(v, colour) for v in range(start, start + size))
            for colour in COLOURS for size in (SIDE_SIZE, MUD_SIDE_SIZE) for start in range(1, VALUES[-1] - size + 2)}


def _troops_in(mask: int) -> list[Troop]:
    return [parse_troop(card) for card, b in CARD_BIT.items() if mask & b]  # type: ignore[misc]


def pool_mask(visible: Iterable[str]) -> int:
    """The unseen troops: every troop that is not among the visible cards."""
    mask = ALL_TROOPS
    for card in visible:
        mask &= ~CARD_BIT.get(card, 0)
    return mask


def _top_values(mask: int, count: int) -> list[Troop]:
    """The ``count`` highest-valued troops in the mask (any colours)."""
    chosen: list[Troop] = []
    for value in reversed(VALUES):
        present = mask & VALUE_MASK[value]
        for colour in COLOURS:
            if len(chosen) == count:
                return chosen
            if present & bit(value, colour):
                chosen.append(Troop(value, colour))
    return chosen


def _top_of_colour(mask: int, colour: str, count: int) -> list[Troop]:
    chosen = [Troop(v, colour) for v in reversed(VALUES) if mask & bit(v, colour)]
    return chosen[:count] if len(chosen) >= count else []


def _any_of_value(mask: int, value: int) -> Troop | None:
    present = mask & VALUE_MASK[value]
    for colour in COLOURS:
        if present & bit(value, colour):
            return Troop(value, colour)
    return None


# ---------------------------------------------------------------- completions


@dataclass(frozen=True, slots=True)
class Completion:
    """One way to complete a side: troops added, values given to its wildcards, strength."""

    added_mask: int
    wild_as: tuple[tuple[str, Troop], ...]
    strength: Strength

    @classmethod
    def of_mask(cls, added: int, strength: Strength) -> "Completion":
        return cls(added, (), strength)

    @property
    def added(self) -> tuple[Troop, ...]:
        return tuple(_troops_in(self.added_mask))

    def as_json(self, side: Sequence[str]) -> dict:
        added = [str(t) for t in self.added]
        return {
            "cards": [*side, *added],
            "added": added,
            "wildcards": {card: str(troop) for card, troop in self.wild_as},
            "formation": formation_name(self.strength),
            "total": self.strength.total,
        }


@dataclass
class Side:
    """The cards on one side of a flag, split into troops and wildcards."""

    troops: list[Troop]
    wilds: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, names: Sequence[str]) -> "Side":
        troops = [parse_troop(name) for name in names if not is_wild(name)]
        if any(t is None for t in troops):
            raise ValueError(f"not a troop or morale tactic in {list(names)}")
        return cls(troops, [name for name in names if is_wild(name)])  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self.troops) + len(self.wilds)


def _assign(missing: list[int], wilds: list[str], available: Callable[[int], Troop | None], colour: str | None
            ) -> tuple[list[Troop], list[tuple[str, Troop]]] | None:
    """Give each wildcard a distinct missing value it may take; fill the rest from the pool."""
    for chosen in permutations(missing, len(wilds)):
        if not all(value in WILD_VALUES[w] for w, value in zip(wilds, chosen)):
            continue
        rest = [value for value in missing if value not in chosen]
        filled = [available(value) for value in rest]
        if all(filled):
            wild_colour = colour or COLOURS[0]
            return filled, [(w, Troop(v, wild_colour)) for w, v in zip(wilds, chosen)]  # type: ignore[misc]
    return None


def _best_wild(card: str, colour: str) -> Troop:
    return Troop(max(WILD_VALUES[card]), colour)


def reachable(side: Side, pool: int, size: int, *, fog: bool = False,
              floor: Formation = Formation.SUM_ONLY) -> Iterator[Completion]:
    """For each formation from Wedge down to ``floor``, the highest-sum completion of ``side``
    (troops from ``pool``, wildcards at their best) that has the formation's pattern."""
    needed = size - len(side)
    if needed < 0:
        raise ValueError("side already has more cards than it needs")
    if pool.bit_count() < needed:
        return

    if not side.wilds:
        yield from _reachable_plain(side.troops, pool, size, needed, fog, floor)
        return

    def done(added: list[Troop], wild_as: list[tuple[str, Troop]]) -> Completion:
        cards = [*side.troops, *added, *(troop for _, troop in wild_as)]
        mask = 0
        for troop in added:
            mask |= bit(troop.value, troop.colour)
        return Completion(mask, tuple(wild_as), strength_of_troops(cards, fog=fog))

    if fog:  # only the sum counts: the highest values
        yield done(_top_values(pool, needed), [(w, _best_wild(w, COLOURS[0])) for w in side.wilds])
        return
    values = [t.value for t in side.troops]
    colours = {t.colour for t in side.troops}
    distinct = len(set(values)) == len(values)
    top_start = VALUES[-1] - size + 1

    # Wedge: one colour, consecutive values.
    if len(colours) <= 1 and distinct:
        found = None
        for start in range(top_start, 0, -1):
            run = range(start, start + size)
            if not set(values) <= set(run):
                continue
            missing = [v for v in run if v not in values]
            for colour in sorted(colours) or COLOURS:
                found = _assign(missing, side.wilds,
                                lambda v, c=colour: Troop(v, c) if pool & bit(v, c) else None, colour)
                if found:
                    yield done(*found)
                    break
            if found:
                break
    if floor > Formation.PHALANX:
        return
    # Phalanx: one value.
    if len(set(values)) <= 1:
        for value in [values[0]] if values else reversed(VALUES):
            if not all(value in WILD_VALUES[w] for w in side.wilds):
                continue
            same = [Troop(value, c) for c in COLOURS if pool & bit(value, c)]
            if len(same) >= needed:
                yield done(same[:needed], [(w, Troop(value, COLOURS[0])) for w in side.wilds])
                break
    if floor > Formation.BATTALION_ORDER:
        return
    # Battalion Order: one colour, its highest values; wildcards at their highest.
    if len(colours) <= 1:
        best: Completion | None = None
        for colour in sorted(colours) or COLOURS:
            top = _top_of_colour(pool, colour, needed)
            if len(top) < needed:
                continue
            candidate = done(top, [(w, _best_wild(w, colour)) for w in side.wilds])
            if best is None or candidate.strength.total > best.strength.total:
                best = candidate
        if best is not None:
            yield best
    if floor > Formation.SKIRMISH_LINE:
        return
    # Skirmish Line: consecutive values, any colours.
    if distinct:
        for start in range(top_start, 0, -1):
            run = range(start, start + size)
            if not set(values) <= set(run):
                continue
            found = _assign([v for v in run if v not in values], side.wilds,
                            lambda v: _any_of_value(pool, v), None)
            if found:
                yield done(*found)
                break
    if floor > Formation.HOST:
        return
    # Host: anything, the highest values.
    yield done(_top_values(pool, needed), [(w, _best_wild(w, COLOURS[0])) for w in side.wilds])


def _value_of_bit(b: int) -> int:
    return b % 10 + 1


def _highest(avail: int, count: int) -> tuple[int, int]:
    """The ``count`` highest bits of a one-colour mask: (their mask, the sum of their values)."""
    taken = total = 0
    for _ in range(count):
        b = avail.bit_length() - 1
        taken |= 1 << b
        avail ^= 1 << b
        total += _value_of_bit(b)
    return taken, total


def _top_overall(pool: int, count: int) -> tuple[int, int]:
    """The ``count`` highest-valued troops of the pool, any colours: (mask, sum)."""
    taken = total = 0
    for value in reversed(VALUES):
        avail = pool & VALUE_MASK[value]
        while avail and count:
            low = avail & -avail
            taken |= low
            avail ^= low
            total += value
            count -= 1
        if not count:
            break
    return taken, total


def _starts(values: list[int], size: int) -> range:
    """Run starts (highest first) whose run of ``size`` values contains every given value."""
    top = VALUES[-1] - size + 1
    if not values:
        return range(top, 0, -1)
    return range(min(top, min(values)), max(1, max(values) - size + 1) - 1, -1)


def _reachable_plain(troops: list[Troop], pool: int, size: int, needed: int, fog: bool,
                     floor: Formation) -> Iterator[Completion]:
    """reachable() for a side without wildcards, on bit masks. Each completion's strength is
    its pattern's formation and sum, which is exact for the first one yielded (the only one
    that best_completion and beating_completion use)."""
    base = sum(t.value for t in troops)
    if fog:
        taken, total = _top_overall(pool, needed)
        yield Completion.of_mask(taken, Strength(Formation.SUM_ONLY, base + total))
        return
    values = [t.value for t in troops]
    colours = {t.colour for t in troops}
    have = 0
    for t in troops:
        have |= bit(t.value, t.colour)
    distinct = len(set(values)) == len(values)
    one_colour = sorted(colours) if colours else COLOURS
    if len(colours) <= 1 and distinct:
        done = False
        for start in _starts(values, size):
            for colour in one_colour:
                missing = RUN_MASK[colour, start, size] & ~have
                if pool & missing == missing:
                    yield Completion.of_mask(missing, Strength(Formation.WEDGE, sum(range(start, start + size))))
                    done = True
                    break
            if done:
                break
    if floor > Formation.PHALANX:
        return
    if len(set(values)) <= 1:
        for value in [values[0]] if values else reversed(VALUES):
            avail = pool & VALUE_MASK[value]
            if avail.bit_count() >= needed:
                taken = 0
                for _ in range(needed):
                    low = avail & -avail
                    taken |= low
                    avail ^= low
                yield Completion.of_mask(taken, Strength(Formation.PHALANX, value * size))
                break
    if floor > Formation.BATTALION_ORDER:
        return
    if len(colours) <= 1:
        best: tuple[int, int] | None = None
        for colour in one_colour:
            avail = pool & COLOUR_MASK[colour]
            if avail.bit_count() >= needed:
                taken, total = _highest(avail, needed)
                if best is None or total > best[1]:
                    best = (taken, total)
        if best is not None:
            yield Completion.of_mask(best[0], Strength(Formation.BATTALION_ORDER, base + best[1]))
    if floor > Formation.SKIRMISH_LINE:
        return
    if distinct:
        for start in _starts(values, size):
            taken = 0
            for value in range(start, start + size):
                if value in values:
                    continue
                avail = pool & VALUE_MASK[value]
                if not avail:
                    break
                taken |= avail & -avail
            else:
                yield Completion.of_mask(taken, Strength(Formation.SKIRMISH_LINE, sum(range(start, start + size))))
                break
    if floor > Formation.HOST:
        return
    taken, total = _top_overall(pool, needed)
    yield Completion.of_mask(taken, Strength(Formation.HOST, base + total))


def best_completion(side: Side, pool: int, size: int, *, fog: bool = False) -> Completion | None:
    """The strongest completion of a side, or None when it cannot complete."""
    return next(reachable(side, pool, size, fog=fog), None)


def best_strength(cards: Sequence[str], *, fog: bool = False) -> Strength:
    """The strength of a complete side, its wildcards at their best values."""
    return _best_strength(tuple(sorted(cards)), fog)


@lru_cache(maxsize=4096)
def _best_strength(cards: tuple[str, ...], fog: bool) -> Strength:
    completion = best_completion(Side.of(cards), 0, len(cards), fog=fog)
    assert completion is not None
    return completion.strength


def beating_completion(side: Side, pool: int, size: int, target: Strength, *, fog: bool = False) -> Completion | None:
    """A completion of ``side`` that beats ``target`` strictly, if there is one.

    Formations weaker than the target's are never searched: the first completion found at
    or above the target's formation is the strongest there is."""
    best = next(reachable(side, pool, size, fog=fog, floor=target.formation), None)
    return best if best is not None and best.strength > target else None


# ---------------------------------------------------------------- the brute-force reference

def brute_force_best(side: Side, pool: int, size: int, *, fog: bool = False) -> Strength | None:
    """Reference: every completion, every wildcard value and colour. Slow; used by tests and
    the benchmark to check :func:`reachable`."""
    troops = [parse_troop(card) for card in TROOPS if pool & CARD_BIT[card]]
    needed = size - len(side)
    wild_choices = [[Troop(v, c) for v in WILD_VALUES[w] for c in COLOURS] for w in side.wilds]
    best: Strength | None = None
    for added in combinations(troops, needed):
        for wild in product(*wild_choices):
            s = strength_of_troops([*side.troops, *added, *wild], fog=fog)  # type: ignore[list-item]
            if best is None or s > best:
                best = s
    return best


def brute_force_beats(side: Side, pool: int, size: int, target: Strength, *, fog: bool = False) -> bool:
    best = brute_force_best(side, pool, size, fog=fog)
    return best is not None and best > target


# ---------------------------------------------------------------- a claim


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    claimable: bool
    reason: str
    counterexample: dict | None = None


# A formation and its total, as a claim's reason says it (the rule books' names of the formations).
FORMATION_OF = {
    Formation.SUM_ONLY: N_("sum of {total}"), Formation.HOST: N_("host of {total}"),
    Formation.SKIRMISH_LINE: N_("skirmish line of {total}"), Formation.BATTALION_ORDER: N_("battalion order of {total}"),
    Formation.PHALANX: N_("phalanx of {total}"), Formation.WEDGE: N_("wedge of {total}"),
}


def describe(strength: Strength) -> Words:
    return Words(FORMATION_OF[strength.formation], total=strength.total)


def formation_name(strength: Strength) -> str:
    return "sum" if strength.formation == Formation.SUM_ONLY else strength.formation.name.lower()


def visible_cards(flags: list[dict], discards: dict[str, list[str]] | list[str]) -> list[str]:
    """Every card face up on the table: on any flag (claimed ones too) and in discard areas."""
    seen = [card for flag in flags for side in flag["cards"] for card in side]
    piles = discards.values() if isinstance(discards, dict) else [discards]
    return seen + [card for pile in piles for card in pile]


def completed_earlier(flag: dict, side: int) -> bool:
    """Was this side completed before the other one (which may not be complete)?"""
    mine, theirs = flag["completed"][side], flag["completed"][1 - side]
    return theirs is None or (mine is not None and mine < theirs)


def _verdict(flag: dict, seat: int, pool: int) -> tuple[bool, str, Any]:
    """The claim decision without its wording: (claimable, why, details). Runs at every claim
    step for every flag, so it formats nothing."""
    if flag["claimed_by"] is not None:
        return False, "claimed", None
    if seat not in flag["seats"]:
        return False, "not_facing", None
    side = flag["seats"].index(seat)
    size = side_size(flag)
    mine = flag["cards"][side]
    if len(mine) < size:
        return False, "incomplete", size
    fog = "FOG" in flag["environment"]
    theirs = flag["cards"][1 - side]
    my_strength = best_strength(mine, fog=fog)
    if len(theirs) >= size:
        their_strength = best_strength(theirs, fog=fog)
        wins = my_strength > their_strength or (my_strength == their_strength and completed_earlier(flag, side))
        return wins, "direct", (my_strength, their_strength)
    if pool.bit_count() < size - len(theirs):
        return True, "cannot_complete", None
    beating = _beating(tuple(sorted(theirs)), pool, size, my_strength, fog)
    return beating is None, "completion", (my_strength, beating)


@lru_cache(maxsize=16384)
def _beating(theirs: tuple[str, ...], pool: int, size: int, target: Strength, fog: bool) -> Completion | None:
    # Cached: the same flag is judged again at every claim step until something there or in
    # the unseen pool changes.
    return beating_completion(Side.of(theirs), pool, size, target, fog=fog)


def claimable(flag: dict, seat: int, pool: int) -> bool:
    return _verdict(flag, seat, pool)[0]


def check_claim(flag: dict, seat: int, pool: int) -> ClaimCheck:
    """May ``seat`` claim ``flag``, with ``pool`` the mask of unseen troops? With the reason,
    and a counterexample when it may not."""
    ok, why, details = _verdict(flag, seat, pool)
    number = flag["flag"]
    side = flag["seats"].index(seat) if seat in flag["seats"] else 0
    mine, theirs = flag["cards"][side], flag["cards"][1 - side]
    if why == "claimed":
        return ClaimCheck(False, Words(N_("flag {flag} is already claimed"), flag=number))
    if why == "not_facing":
        return ClaimCheck(False, Words(N_("seat {seat} does not face flag {flag}"), seat=seat, flag=number))
    if why == "incomplete":
        return ClaimCheck(False, Words(N_("your side of flag {flag} has {count} of the {needed} cards it needs"),
                                       flag=number, count=len(mine), needed=details))
    if why == "cannot_complete":
        return ClaimCheck(True, Words(N_("the opponent cannot complete flag {flag} from the unseen troops"), flag=number))
    if why == "direct":
        my_strength, their_strength = details
        if ok:
            return ClaimCheck(True, Words(N_("your {mine} beats {theirs}"), mine=describe(my_strength),
                                          theirs=describe(their_strength)))
        fog = "FOG" in flag["environment"]
        their = best_completion(Side.of(theirs), 0, len(theirs), fog=fog)
        reason = (N_("the opponent's {theirs} at flag {flag} ties and was completed first")
                  if my_strength == their_strength else N_("the opponent's {theirs} at flag {flag} is stronger"))
        return ClaimCheck(False, Words(reason, theirs=describe(their_strength), flag=number),
                          their.as_json(theirs) if their else None)
    my_strength, beating = details
    if ok:
        return ClaimCheck(True, Words(N_("no completion of the opponent's side can beat your {mine}"),
                                      mine=describe(my_strength)))
    example = beating.as_json(theirs)
    if example["added"]:
        reason = Words(N_("the opponent could still complete flag {flag} with {cards} for a {theirs}, beating your "
                          "{mine}"), flag=number, cards=" ".join(example["added"]), theirs=describe(beating.strength),
                       mine=describe(my_strength))
    else:
        reason = Words(N_("the opponent's cards at flag {flag} already make a {theirs}, beating your {mine}"),
                       flag=number, theirs=describe(beating.strength), mine=describe(my_strength))
    return ClaimCheck(False, reason, example)


def clear_caches() -> None:
    """Forget what the claim proof remembered (the benchmarks time it from cold)."""
    _beating.cache_clear()
    _best_strength.cache_clear()
