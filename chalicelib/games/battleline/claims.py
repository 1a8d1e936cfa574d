"""Claiming a flag: the proof that the opponent cannot beat a complete side.

The opponent's possible completions come from the *unseen* troops: every troop not on a
flag (either side, claimed flags included) and not face up in a discard area. Hands, the
claimer's own included, and the decks are unseen; tactics not yet played are ignored.
Morale tactics already on a side are wildcards that take their best value.

Rather than trying every completion, the search finds, for each formation from Wedge down,
the highest-sum completion with that formation's pattern. Formations are tried from the
strongest and each search is exhaustive within its formation, so the first completion found
is the strongest reachable. A claim check stops as soon as a completion beats the claimer,
or once the formations left are weaker than the claimer's. The unseen troops are a 60-bit
mask (each colour's values a 10-bit field); runs are found for every colour and start at
once by AND-ing shifted masks, and static tables built at import (run starts holding given
values, a colour's top k, each set of wildcards' choices) make each formation a few integer
operations. Nothing is cached per position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
from itertools import combinations, product, repeat
from operator import or_
from typing import Any, Iterable, Iterator, Sequence

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
def _troops_in(mask: int) -> list[Troop]:
    return [parse_troop(card) for card, b in CARD_BIT.items() if mask & b]  # type: ignore[misc]


def troops_mask(cards: Iterable[str]) -> int:
    """The troops among ``cards`` as one bit set (tactics cards add nothing; the loop runs in C:
    the engine and the bots' playouts ask it at every step)."""
    return reduce(or_, map(CARD_BIT.get, cards, repeat(0)), 0)


def pool_mask(visible: Iterable[str]) -> int:
    """The unseen troops: every troop that is not among the visible cards."""
    return ALL_TROOPS & ~troops_mask(visible)


# ---------------------------------------------------------------- formation tables (static, built at import)

CHUNK = (1 << 10) - 1  # one colour's ten values
REPL = sum(1 << (10 * c) for c in range(len(COLOURS)))  # x * REPL: a 10-bit value mask in every colour
COLOUR_INDEX = {colour: c for c, colour in enumerate(COLOURS)}
_INFO = {card: (b, int(card[:-1]), COLOUR_INDEX[card[-1]]) for card, b in CARD_BIT.items()}  # bit, value, colour
_VALUE_BITS = [VALUE_MASK[v] for v in VALUES]  # by value - 1
_TOP = VALUES[-1]


def _starts_holding(size: int, values: int) -> int:
    """Run starts (bit s: the run of values s+1..s+size) whose run holds every value of the
    10-bit mask ``values``."""
    lo = (values & -values).bit_length() - 1 if values else _TOP
    hi = values.bit_length() - 1
    first, last = max(0, hi - size + 1), min(lo, _TOP - size)
    return ((1 << (last - first + 1)) - 1) << first if last >= first else 0


STARTS = {size: [_starts_holding(size, values) for values in range(1 << 10)] for size in (SIDE_SIZE, MUD_SIDE_SIZE)}


def _top_tables(most: int) -> tuple[list[list[int]], list[list[int]]]:
    """TOP_SUM[k][m]: the sum of the k highest values of the 10-bit mask m (-1 when it has
    fewer than k); TOP_BITS[k][m]: those values' bits."""
    sums, bits = [[0] * (1 << 10)], [[0] * (1 << 10)]
    for _ in range(most):
        prev_sum, prev_bits = sums[-1], bits[-1]
        row_sum, row_bits = [-1] * (1 << 10), [0] * (1 << 10)
        for m in range(1, 1 << 10):
            high = 1 << (m.bit_length() - 1)
            rest = prev_sum[m ^ high]
            if rest >= 0:
                row_sum[m] = rest + m.bit_length()
                row_bits[m] = prev_bits[m ^ high] | high
        sums.append(row_sum)
        bits.append(row_bits)
    return sums, bits


TOP_SUM, TOP_BITS = _top_tables(MUD_SIDE_SIZE)


def _wild_table(wilds: tuple[str, ...]) -> tuple:
    """What a side's wildcards can do: (how many take any value, each choice of values for the
    others as (their 10-bit mask, ((card, value), ...)), the sum at their best values, the
    values all of them may take as a 10-bit mask)."""
    free = sum(1 for w in wilds if len(WILD_VALUES[w]) == len(VALUES))
    fixed = [w for w in wilds if len(WILD_VALUES[w]) != len(VALUES)]
    choices = []
    for chosen in product(*(WILD_VALUES[w] for w in fixed)):
        mask = 0
        for v in chosen:
            mask |= 1 << (v - 1)
        if mask.bit_count() == len(chosen):  # distinct values: only runs use the choices
            choices.append((mask, tuple(zip(fixed, chosen))))
    common = CHUNK
    for w in wilds:
        common &= sum(1 << (v - 1) for v in WILD_VALUES[w])
    return free, tuple(choices), sum(max(WILD_VALUES[w]) for w in wilds), common


WILD_TABLE = {key: _wild_table(key) for r in range(len(WILD_VALUES) + 1)
              for key in combinations(sorted(WILD_VALUES), r)}


def _runs(x: int, size: int, need: int) -> int:
    """Bit s set where at least ``need`` of the ``size`` bits from bit s up are set in x."""
    a, b, c = x, x >> 1, x >> 2
    if size == 3:
        if need >= 3:
            return a & b & c
        if need == 2:
            return (a & b) | (c & (a | b))
        return (a | b | c) if need == 1 else -1
    d = x >> 3
    if need >= 4:
        return a & b & c & d
    if need == 3:
        return (a & b & (c | d)) | (c & d & (a | b))
    if need == 2:
        return (a & (b | c | d)) | (b & (c | d)) | (c & d)
    return (a | b | c | d) if need == 1 else -1


def _fold(x: int) -> int:
    """The 10-bit OR of every colour's values in a 60-bit mask."""
    return (x | x >> 10 | x >> 20 | x >> 30 | x >> 40 | x >> 50) & CHUNK


def _top_overall(pool: int, count: int) -> int:
    """The sum of the ``count`` highest-valued troops of the pool, any colours."""
    total = 0
    v = _TOP
    while count:
        present = (pool & _VALUE_BITS[v - 1]).bit_count()
        if present >= count:
            return total + count * v
        total += present * v
        count -= present
        v -= 1
    return total


def _top_overall_bits(pool: int, count: int) -> int:
    taken = 0
    for v in reversed(VALUES):
        avail = pool & _VALUE_BITS[v - 1]
        while avail and count:
            low = avail & -avail
            taken |= low
            avail ^= low
            count -= 1
        if not count:
            break
    return taken


def _lowest(avail: int, count: int) -> int:
    taken = 0
    for _ in range(count):
        low = avail & -avail
        taken |= low
        avail ^= low
    return taken


# ---------------------------------------------------------------- the search, one formation at a time
#
# A side is a tuple (have, values, n, base, colour, wild, wildcards): its troops' 60-bit mask,
# their values as a 10-bit mask, how many, their sum, their one colour (-1: no troops, -2: more
# than one colour), its
# wildcards' WILD_TABLE entry, and the wildcards. Each formation's search gives the highest sum
# of a completion with that pattern, and how (for the counterexample), or None. A run is found
# for every colour at once by AND-ing shifted masks; wildcards that take any value fill its gaps
# (a window with at most that many gaps), the others (Companion, Shield) are tried at each value.


WILD_ORDER = tuple(sorted(WILD_VALUES))
_BIT = {**CARD_BIT, **{w: 1 << (60 + i) for i, w in enumerate(WILD_ORDER)}}  # wildcards above the troops
_VALUE_OF = {**{card: info[1] for card, info in _INFO.items()}, **{w: 0 for w in WILD_ORDER}}
_WILD_BY_BITS = [(WILD_TABLE[key], key) for key in
                 (tuple(w for i, w in enumerate(WILD_ORDER) if bits >> i & 1) for bits in range(1 << len(WILD_ORDER)))]
_NO_WILDS = _WILD_BY_BITS[0]


_VALUE_SUM = [sum(i + 1 for i in range(10) if m >> i & 1) for m in range(1 << 10)]


def _parse(cards: Sequence[str]) -> tuple:
    try:
        mask = sum(map(_BIT.__getitem__, cards))
    except KeyError:
        raise ValueError(f"not a troop or morale tactic in {list(cards)}") from None
    n = len(cards)
    if mask.bit_count() != n:
        raise ValueError(f"a card twice in {list(cards)}")
    if mask > ALL_TROOPS:
        wild, wilds = _WILD_BY_BITS[mask >> 60]
        have = mask & ALL_TROOPS
        n -= len(wilds)
    else:
        wild, wilds = _NO_WILDS
        have = mask
    if have:
        c = ((have & -have).bit_length() - 1) // 10
        colour = -2 if have >> (10 * c + 10) else c
    else:
        colour = -1
    values = (have | have >> 10 | have >> 20 | have >> 30 | have >> 40 | have >> 50) & CHUNK
    base = _VALUE_SUM[values] if values.bit_count() == n else sum(map(_VALUE_OF.__getitem__, cards))
    return have, values, n, base, colour, wild, wilds


_EMPTY = _parse([])


def _side_tuple(side: "Side") -> tuple:
    return _parse([*(str(t) for t in side.troops), *side.wilds])


def _wedge(side: tuple, pool: int, size: int, k: int, floor: int) -> tuple | None:
    have, values, n, _, colour, wild, _ = side
    if colour == -2 or values.bit_count() != n:
        return None
    free = wild[0]
    best = None
    for fixed, named in wild[1]:
        if fixed & values:
            continue
        allowed = STARTS[size][values | fixed]
        if not allowed:
            continue
        x = pool | have | fixed * REPL
        if free:
            starts = _runs(x, size, size - free)
        elif size == SIDE_SIZE:
            starts = x & x >> 1 & x >> 2
        else:
            starts = x & x >> 1 & x >> 2 & x >> 3
        if n:
            starts &= allowed << 10 * colour
            if not starts:
                continue
            start = starts.bit_length() - 1 - 10 * colour
        else:
            starts &= allowed * REPL
            if not starts:
                continue
            start = ((starts | starts >> 10 | starts >> 20 | starts >> 30 | starts >> 40 | starts >> 50) & CHUNK
                     ).bit_length() - 1
        if best is None or start > best[1]:
            best = (starts, start, fixed, named)
    if best is None:
        return None
    return size * (best[1] + 1) + size * (size - 1) // 2, best


def _phalanx(side: tuple, pool: int, size: int, k: int, floor: int) -> tuple | None:
    values, common = side[1], side[5][3]
    if values & (values - 1):
        return None
    for v in ((values.bit_length(),) if values else range(_TOP, 0, -1)):
        if v * size <= floor:
            return None
        if common >> (v - 1) & 1 and (pool & _VALUE_BITS[v - 1]).bit_count() >= k:
            return v * size, v
    return None


def _battalion(side: tuple, pool: int, size: int, k: int, floor: int) -> tuple | None:
    colour = side[4]
    if colour == -2:
        return None
    row = TOP_SUM[k]
    best, best_colour = -1, 0
    for c in ((colour,) if colour >= 0 else range(len(COLOURS))):
        total = row[pool >> (10 * c) & CHUNK]
        if total > best:
            best, best_colour = total, c
    if best < 0:
        return None
    return side[3] + side[5][2] + best, best_colour


def _skirmish(side: tuple, pool: int, size: int, k: int, floor: int) -> tuple | None:
    values, n, wild = side[1], side[2], side[5]
    if values.bit_count() != n:
        return None
    present = _fold(pool)
    best = None
    for fixed, named in wild[1]:
        if fixed & values:
            continue
        starts = _runs(present | values | fixed, size, size - wild[0]) & STARTS[size][values | fixed]
        if starts:
            start = starts.bit_length() - 1
            if best is None or start > best[0]:
                best = (start, fixed, named)
    if best is None:
        return None
    return size * (best[0] + 1) + size * (size - 1) // 2, best


def _host(side: tuple, pool: int, size: int, k: int, floor: int) -> tuple:
    return side[3] + side[5][2] + _top_overall(pool, k), None


SEARCHES = ((Formation.WEDGE, _wedge), (Formation.PHALANX, _phalanx), (Formation.BATTALION_ORDER, _battalion),
            (Formation.SKIRMISH_LINE, _skirmish), (Formation.HOST, _host))


_WEDGE, _PHALANX, _BATTALION, _SKIRMISH, _HOST, _SUM = (
    int(f) for f in (Formation.WEDGE, Formation.PHALANX, Formation.BATTALION_ORDER, Formation.SKIRMISH_LINE,
                     Formation.HOST, Formation.SUM_ONLY))


def _search(side: tuple, pool: int, size: int, fog: bool, formation: int = -1, total: int = -1) -> tuple | None:
    """The strongest completion of a side (troops from ``pool``) that beats (formation, total)
    strictly, as (formation, total, how), or None. Formations are searched from Wedge down, each
    for its highest sum, so the first one found is the strongest there is; formations below the
    target's are never searched."""
    have, values, n, base, colour, wild, wilds = side
    k = size - n - len(wilds)
    if k < 0:
        raise ValueError("side already has more cards than it needs")
    pool &= ~have
    if pool.bit_count() < k:
        return None
    if fog:
        if formation > _SUM:
            return None
        found = base + wild[2] + _top_overall(pool, k)
        return (_SUM, found, None) if formation < _SUM or found > total else None
    distinct = values.bit_count() == n
    if colour != -2 and distinct:
        found = _wedge(side, pool, size, k, -1)
        if found is not None:
            return (_WEDGE, *found) if formation < _WEDGE or found[0] > total else None
    if formation > _PHALANX:
        return None
    if not values & (values - 1):
        found = _phalanx(side, pool, size, k, total if formation == _PHALANX else -1)
        if found is not None:
            return (_PHALANX, *found) if formation < _PHALANX or found[0] > total else None
    if formation > _BATTALION:
        return None
    if colour != -2:
        found = _battalion(side, pool, size, k, -1)
        if found is not None:
            return (_BATTALION, *found) if formation < _BATTALION or found[0] > total else None
    if formation > _SKIRMISH:
        return None
    if distinct:
        found = _skirmish(side, pool, size, k, -1)
        if found is not None:
            return (_SKIRMISH, *found) if formation < _SKIRMISH or found[0] > total else None
    if formation > _HOST:
        return None
    found = base + wild[2] + _top_overall(pool, k)
    return (_HOST, found, None) if formation < _HOST or found > total else None


def _every(side: tuple, pool: int, size: int, fog: bool, floor: int) -> list[tuple]:
    """Each formation's best completion from Wedge down to ``floor`` (formations that have one)."""
    k = size - side[2] - len(side[6])
    if k < 0:
        raise ValueError("side already has more cards than it needs")
    pool &= ~side[0]
    if pool.bit_count() < k:
        return []
    if fog:
        return [(_SUM, side[3] + side[5][2] + _top_overall(pool, k), None)]
    found = []
    for f, search in SEARCHES:
        if f >= floor and (result := search(side, pool, size, k, -1)) is not None:
            found.append((int(f), *result))
    return found


def _complete(cards: Sequence[str], fog: bool) -> tuple[int, int]:
    """The (formation, total) of a complete side, its wildcards at their best values. Nothing
    is left to draw, so a run only needs a start whose run holds every troop's value and every
    fixed wildcard's, the wildcards that take any value filling the rest."""
    _, values, n, base, colour, wild, wilds = _parse(cards)
    size = len(cards)
    if fog:
        return _SUM, base + wild[2]
    if not size:
        return _SKIRMISH, 0  # no cards: what the rules' formation test says of nothing
    start = -1
    if values.bit_count() == n:
        if wilds:
            for fixed, _ in wild[1]:
                if not fixed & values and (starts := STARTS[size][values | fixed]):
                    start = max(start, starts.bit_length() - 1)
        elif values >> ((values & -values).bit_length() - 1) == (1 << n) - 1:
            start = 0  # troops alone: a run of them; its total is their sum
    if start >= 0 and colour != -2:
        return _WEDGE, base + wild[2] if not wilds else size * (start + 1) + size * (size - 1) // 2
    if not values & (values - 1):
        v = values.bit_length() if values else wild[3].bit_length()
        if v and wild[3] >> (v - 1) & 1:
            return _PHALANX, v * size
    if colour != -2:
        return _BATTALION, base + wild[2]
    if start >= 0:
        return _SKIRMISH, base if not wilds else size * (start + 1) + size * (size - 1) // 2
    return _HOST, base + wild[2]


def _completion(side: tuple, pool: int, size: int, found: tuple) -> "Completion":
    """The cards of a completion the search found: the troops added, the wildcards' values."""
    have, values, n, _, _, _, wilds = side
    formation, total, how = found
    pool &= ~have
    k = size - n - len(wilds)
    free = sorted(w for w in wilds if len(WILD_VALUES[w]) == len(VALUES))
    wild_as: list[tuple[str, Troop]] = []
    if formation in (Formation.WEDGE, Formation.SKIRMISH_LINE):
        if formation == Formation.WEDGE:
            starts, start, fixed, named = how
            colour = next(c for c in range(len(COLOURS)) if starts >> (10 * c + start) & 1)
            present = pool >> (10 * colour) & CHUNK
        else:
            colour = 0
            start, fixed, named = how
            present = _fold(pool)
        need = (((1 << size) - 1) << start) & ~values & ~fixed
        gaps = need & ~present
        spare = need & present
        while gaps.bit_count() < len(free):  # wildcards not needed for a gap take a value the pool has
            low = spare & -spare
            gaps |= low
            spare ^= low
        for w, b in zip(free, (i for i in range(10) if gaps >> i & 1)):
            wild_as.append((w, Troop(b + 1, COLOURS[colour])))
        wild_as.extend((w, Troop(v, COLOURS[colour])) for w, v in named)
        if formation == Formation.WEDGE:
            added = spare << (10 * colour)
        else:
            added = 0
            for i in range(10):
                if spare >> i & 1:
                    avail = pool & _VALUE_BITS[i]
                    added |= avail & -avail
    elif formation == Formation.PHALANX:
        added = _lowest(pool & _VALUE_BITS[how - 1], k)
        wild_as = [(w, Troop(how, COLOURS[0])) for w in wilds]
    elif formation == Formation.BATTALION_ORDER:
        added = TOP_BITS[k][pool >> (10 * how) & CHUNK] << (10 * how)
        wild_as = [(w, Troop(max(WILD_VALUES[w]), COLOURS[how])) for w in wilds]
    else:
        added = _top_overall_bits(pool, k)
        wild_as = [(w, Troop(max(WILD_VALUES[w]), COLOURS[0])) for w in wilds]
    return Completion(added, tuple(wild_as), Strength(Formation(formation), total))


# ---------------------------------------------------------------- completions


@dataclass(frozen=True, slots=True)
class Completion:
    """One way to complete a side: troops added, values given to its wildcards, strength."""

    added_mask: int
    wild_as: tuple[tuple[str, Troop], ...]
    strength: Strength

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


def reachable(side: Side, pool: int, size: int, *, fog: bool = False,
              floor: Formation = Formation.SUM_ONLY) -> Iterator[Completion]:
    """For each formation from Wedge down to ``floor``, the highest-sum completion of ``side``
    (troops from ``pool``, wildcards at their best) that has the formation's pattern."""
    parsed = _side_tuple(side)
    for found in _every(parsed, pool, size, fog, floor):
        yield _completion(parsed, pool, size, found)


def best_completion(side: Side, pool: int, size: int, *, fog: bool = False) -> Completion | None:
    """The strongest completion of a side, or None when it cannot complete."""
    parsed = _side_tuple(side)
    found = _search(parsed, pool, size, fog)
    return None if found is None else _completion(parsed, pool, size, found)


def best_strength(cards: Sequence[str], *, fog: bool = False) -> Strength:
    """The strength of a complete side, its wildcards at their best values."""
    formation, total = _complete(cards, fog)
    return Strength(Formation(formation), total)


def beating_completion(side: Side, pool: int, size: int, target: Strength, *, fog: bool = False) -> Completion | None:
    """A completion of ``side`` that beats ``target`` strictly, if there is one (the strongest).

    Formations weaker than the target's are never searched."""
    parsed = _side_tuple(side)
    found = _search(parsed, pool, size, fog, target.formation, target.total)
    return None if found is None else _completion(parsed, pool, size, found)


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
    environment = flag["environment"]
    size = MUD_SIDE_SIZE if "MUD" in environment else SIDE_SIZE  # side_size(flag), inline: this runs often
    mine = flag["cards"][side]
    if len(mine) < size:
        return False, "incomplete", size
    fog = "FOG" in environment
    theirs = flag["cards"][1 - side]
    my_strength = _complete(mine, fog)
    if len(theirs) >= size:
        their_strength = _complete(theirs, fog)
        wins = my_strength > their_strength or (my_strength == their_strength and completed_earlier(flag, side))
        return wins, "direct", (my_strength, their_strength)
    if pool.bit_count() < size - len(theirs):
        return True, "cannot_complete", None
    their_side = _parse(theirs) if theirs else _EMPTY
    beating = _search(their_side, pool, size, fog, *my_strength)
    return beating is None, "completion", (my_strength, (their_side, pool, size, beating))


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
        my_strength, their_strength = Strength(Formation(details[0][0]), details[0][1]), Strength(
            Formation(details[1][0]), details[1][1])
        if ok:
            return ClaimCheck(True, Words(N_("your {mine} beats {theirs}"), mine=describe(my_strength),
                                          theirs=describe(their_strength)))
        fog = "FOG" in flag["environment"]
        their = best_completion(Side.of(theirs), 0, len(theirs), fog=fog)
        reason = (N_("the opponent's {theirs} at flag {flag} ties and was completed first")
                  if my_strength == their_strength else N_("the opponent's {theirs} at flag {flag} is stronger"))
        return ClaimCheck(False, Words(reason, theirs=describe(their_strength), flag=number),
                          their.as_json(theirs) if their else None)
    (formation, total), (their_side, pool, size, found) = details
    my_strength = Strength(Formation(formation), total)
    if ok:
        return ClaimCheck(True, Words(N_("no completion of the opponent's side can beat your {mine}"),
                                      mine=describe(my_strength)))
    beating = _completion(their_side, pool, size, found)
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
    """Forget what the claim proof remembered (the benchmarks time it from cold). It keeps
    nothing per position any more: a proof is a few table look-ups and mask operations, cheaper
    than a cache's key. Its tables (STARTS, TOP_SUM, TOP_BITS, WILD_TABLE) are static, built at
    import from the rules alone."""
