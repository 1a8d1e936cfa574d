"""Pairings: round robin by Berger tables, double round robin, Swiss (the Dutch system),
single elimination, and seats allocated as FIDE allocates colours.

Players are numbered 1..n by seed. A pairing is (seat 1, seat 2); ``None`` as the second is a
bye. docs/correspondence.md ("Tournaments") describes the algorithms and what is simplified.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

Pairing = tuple[int, int | None]


def berger_round_robin(n: int) -> list[list[Pairing]]:
    """FIDE Berger tables. With an odd count, the player drawn against the dummy has a bye."""
    if n < 2:
        return []
    size = n + (n % 2)
    m = size - 1
    rounds = []
    for r in range(1, size):
        start = (r - 1) * (size // 2) % m
        row = [(start + i) % m + 1 for i in range(m)]
        last = (size, row[0]) if r % 2 == 0 else (row[0], size)
        pairs = [last] + [(row[i], row[-i]) for i in range(1, size // 2)]
        rounds.append([_bye(a, b, n) for a, b in pairs])
    return rounds


def _bye(a: int, b: int, n: int) -> Pairing:
    if a > n:
        return (b, None)
    if b > n:
        return (a, None)
    return (a, b)


def double_round_robin(n: int) -> list[list[Pairing]]:
    """Berger tables twice, the seats swapped in the second cycle. As FIDE recommends (C.05 Annex
    1), the first cycle plays its last two rounds in reverse order: otherwise, with an even count,
    two players would have one seat three times running across the two cycles."""
    tables = berger_round_robin(n)
    first = tables[:-2] + tables[-2:][::-1]
    return first + [[(b, a) if b is not None else (a, None) for a, b in rnd] for rnd in tables]


def elimination_seeds(size: int) -> list[int]:
    """Bracket order of seeds: 1 meets the lowest, and 1 and 2 can only meet in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def elimination_first_round(n: int) -> list[Pairing]:
    """Single elimination, round one: the bracket is the next power of two; top seeds get byes."""
    size = 1
    while size < n:
        size *= 2
    order = elimination_seeds(size)
    return [_bye(order[i], order[i + 1], n) for i in range(0, size, 2)]


def swiss_round(entrants: list[Entrant], rounds_left: int = 1) -> list[Pairing]:
    """One Swiss round by the Dutch system (docs/correspondence.md says what is simplified).
    ``entrants`` are ranked best first (score, then seed). Pairings come with their seats
    allocated (first = seat 1), boards ordered by score, the bye last. With an odd count the
    lowest-ranked player without a bye gets it; if the others cannot all be paired without a
    repeat, the next one up is tried (then, only then, players who had a bye). Raises ValueError
    when no pairing without a repeat exists.

    ``rounds_left`` (this one included): in a small field (at most ``LOOKAHEAD_PLAYERS``) a
    pairing after which the remaining rounds could not all be paired is passed over for the
    first one, in Dutch order of the whole field, after which they can."""
    pairs = _dutch_round(entrants)
    if rounds_left <= 1 or len(entrants) > LOOKAHEAD_PLAYERS:
        return pairs
    future = _Future(entrants)
    if future.completes(pairs, rounds_left - 1):
        return pairs
    field = _Field(entrants, strict=False)
    for candidate in future.pairings():
        if future.completes(candidate, rounds_left - 1):
            bye = [(a, b) for a, b in candidate if b is None]
            return field.boards([(a, b) for a, b in candidate if b is not None]) + bye
    return pairs  # the event cannot play every round whatever this one does: pair it by the rules


def _dutch_round(entrants: list[Entrant]) -> list[Pairing]:
    order = [e.seed for e in entrants]
    fresh = [e.seed for e in reversed(entrants) if not e.had_bye]
    again = [e.seed for e in reversed(entrants) if e.had_bye]
    for byes in ([fresh, again] if len(order) % 2 else [[None]]):
        for strict in (True, False):  # two players who must both have one seat meet only as a last resort
            field = _Field(entrants, strict)
            for bye in byes:
                rest = [p for p in order if p != bye]
                if field.matchable(frozenset(rest)):
                    return field.boards(field.dutch(rest)) + ([(bye, None)] if bye is not None else [])
    raise ValueError("no Swiss pairing without a repeat exists for this round")


LOOKAHEAD_PLAYERS = 12  # larger fields rarely play more rounds than half their size, which always complete
LOOKAHEAD_BUDGET = 20000  # pairings looked at before a round is taken as completable


class _Future:
    """Whether the rounds after this one can all be paired without a repeat (and without a second
    bye): each a perfect matching of who has not met, the bye a vertex (0) that meets each
    player once."""

    def __init__(self, entrants: list[Entrant]) -> None:
        self.order = [e.seed for e in entrants] + ([0] if len(entrants) % 2 else [])
        self.met = {e.seed: set(e.opponents) | ({0} if e.had_bye else set()) for e in entrants}
        self.met[0] = {e.seed for e in entrants if e.had_bye}
        self.spent = 0

    def pairings(self, met: dict[int, set[int]] | None = None):
        """Every pairing of the round, top-ranked player first, each meeting the bottom half first."""
        met = met or self.met

        def extend(players: list[int]):
            if not players:
                yield []
                return
            x = players[0]
            half = len(players) // 2
            for y in players[half:] + players[1:half]:
                if y not in met[x]:
                    for rest in extend([p for p in players[1:] if p != y]):
                        yield [(x, y)] + rest

        for pairs in extend(self.order):
            yield [(b, None) if a == 0 else (a, None if b == 0 else b) for a, b in pairs]

    def completes(self, pairs: list[Pairing], rounds: int, met: dict[int, set[int]] | None = None) -> bool:
        met = {p: set(o) for p, o in (met or self.met).items()}
        for a, b in pairs:
            met[a].add(b or 0)
            met[b or 0].add(a)
        if rounds == 0:
            return True
        for later in self.pairings(met):
            self.spent += 1
            if self.spent > LOOKAHEAD_BUDGET or self.completes(later, rounds - 1, met):
                return True
        return False


# ---------------------------------------------------------------------------- seats

NO_PREFERENCE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3


def seat_preference(seats: Sequence[int]) -> tuple[int, int]:
    """FIDE's colour preference (C.04.3 A.6) for seats: (strength, the seat wanted), from the seats
    of the games played, oldest first. Absolute: one seat twice more than the other, or the same
    seat the last two games; strong: one seat once more; mild: as many of each (alternate from
    the last game); none before the first game."""
    if not seats:
        return NO_PREFERENCE, 0
    difference = seats.count(1) - seats.count(2)
    other = 3 - seats[-1]
    if difference > 1 or difference < -1:
        return ABSOLUTE, 2 if difference > 0 else 1
    if len(seats) > 1 and seats[-1] == seats[-2]:
        return ABSOLUTE, other
    if difference:
        return STRONG, 2 if difference > 0 else 1
    return MILD, other


def allocate_seats(pairs: Iterable[Pairing], seats_of: Mapping[int, Sequence[int]],
                   rank: Mapping[int, int]) -> list[Pairing]:
    """Each pairing's seats as FIDE allocates colours (C.04.3 E): grant both preferences; else the
    stronger one (two absolute ones: the wider seat difference); else alternate from the most
    recent game in which the two had different seats; else the higher-ranked player's preference;
    with no games at all, the higher-ranked player takes seat 1 with an odd ``rank`` (pairing
    number), seat 2 with an even one. ``seats_of``: each player's seats so far, oldest first (byes
    and forfeits hold none); ``rank``: lower is better. Returns (seat 1, seat 2) pairs."""
    placed: list[Pairing] = []
    for a, b in pairs:
        if b is None:
            placed.append((a, None))
            continue
        high, low = (a, b) if rank[a] < rank[b] else (b, a)
        seat = _seat_of_higher(seats_of.get(high, ()), seats_of.get(low, ()), rank[high])
        placed.append((high, low) if seat == 1 else (low, high))
    return placed


def _seat_of_higher(high: Sequence[int], low: Sequence[int], high_rank: int) -> int:
    (strength_h, want_h), (strength_l, want_l) = seat_preference(high), seat_preference(low)
    if want_h and want_l and want_h != want_l:
        return want_h
    if not want_l:
        return want_h or (1 if high_rank % 2 else 2)
    if not want_h:
        return 3 - want_l
    if strength_h != strength_l:
        return want_h if strength_h > strength_l else 3 - want_l
    if strength_h == ABSOLUTE:
        wide_h, wide_l = (abs(s.count(1) - s.count(2)) for s in (high, low))
        if wide_h != wide_l:
            return want_h if wide_h > wide_l else 3 - want_l
    for mine, theirs in zip(reversed(high), reversed(low)):
        if mine != theirs:
            return theirs  # each takes the seat the other had
    return want_h


# ---------------------------------------------------------------------------- Swiss (Dutch)

@dataclass(frozen=True)
class Entrant:
    """A Swiss player before a round: pairing number (seed), score, seats of the games played
    (oldest first), opponents met, whether they had a bye, whether they floated down last round."""
    seed: int
    score: float = 0.0
    seats: tuple[int, ...] = ()
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    floated_down: bool = False


@dataclass(frozen=True)
class _Level:
    """How much a bracket's pairing may give up, least first (FIDE's quality criteria, coarsely):
    a player floating down twice running, then two players wanting the same seat when one of them
    wants it mildly, strongly, absolutely."""
    float_again: bool
    clash: int  # the strongest shared seat preference allowed in a pair


LEVELS = (_Level(False, NO_PREFERENCE), _Level(True, NO_PREFERENCE), _Level(True, MILD), _Level(True, STRONG),
          _Level(True, ABSOLUTE))
BUDGET = 1000  # search steps a bracket may take at one level before the next is tried
BRACKET_BUDGET = 6000  # and in all, before it takes any pairing that leaves the rest pairable


class _OverBudget(Exception):
    pass


class _Field:
    def __init__(self, entrants: list[Entrant], strict: bool) -> None:
        self.by_seed = {e.seed: e for e in entrants}
        self.rank = {e.seed: i for i, e in enumerate(entrants, start=1)}
        self.preference = {e.seed: seat_preference(e.seats) for e in entrants}
        must = {p: want for p, (strength, want) in self.preference.items() if strength == ABSOLUTE}
        # Who may not meet whom: a repeat never; with ``strict``, nor two players who both must have
        # the same seat (FIDE's absolute criterion C.3).
        self.barred = {e.seed: e.opponents | {e.seed} for e in entrants}
        if strict:
            for p, want in must.items():
                self.barred[p] = self.barred[p] | {q for q, other in must.items() if other == want}
        self._matchable: dict[frozenset[int], bool] = {}

    def matchable(self, players: frozenset[int]) -> bool:
        """Whether ``players`` can all be paired (no repeat; with ``strict``, no two players who must
        have the same seat): a maximum matching (Edmonds), so a failing check costs no more than a
        passing one."""
        if len(players) % 2:
            return False
        known = self._matchable.get(players)
        if known is None:
            known = self.matching(sorted(players)) is not None
            self._matchable[players] = known
        return known

    def matching(self, players: list[int]) -> list[tuple[int, int]] | None:
        return perfect_matching([[q for q in players if q not in self.barred[p]] for p in players], players)

    def dutch(self, players: list[int]) -> list[tuple[int, int]]:
        """Score groups from the top; a group's players who cannot be paired in it float down into
        the next one, ahead of its own players."""
        groups: list[list[int]] = []
        for p in players:
            if groups and self.by_seed[groups[-1][0]].score == self.by_seed[p].score:
                groups[-1].append(p)
            else:
                groups.append([p])
        pairs: list[tuple[int, int]] = []
        floaters: list[int] = []
        for i, group in enumerate(groups):
            lower = [p for g in groups[i + 1:] for p in g]
            found, floaters = self._bracket(floaters, group, lower)
            pairs += found
        return pairs

    def _bracket(self, floaters: list[int], residents: list[int], lower: list[int]):
        """The bracket's pairs and the players it floats down: as many pairs as possible, then the
        first pairing in Dutch order at the least lenient level that has one."""
        bracket = floaters + residents
        inside, below = set(bracket), set(lower)
        pairable = sum(1 for p in bracket if inside - self.barred[p])  # players with a possible opponent here
        stranded = sum(1 for p in lower if not below - self.barred[p])  # players below who need a floater
        pairable = min(pairable, len(bracket) - stranded)

        spent = [0]  # search steps over the whole bracket

        def search(pairs: int | None, level: _Level, prune: bool = False):
            budget = min(BUDGET, BRACKET_BUDGET - spent[0])
            try:
                return self._search(bracket, set(floaters), pairs, level, lower, budget, spent, prune)
            except _OverBudget:
                return _OverBudget

        # How many pairs: the first pairing found at the most lenient level (pairing before floating),
        # then more while there is a pairing with one more pair.
        found = search(None, LEVELS[-1], prune=True)
        if found in (None, _OverBudget):
            return self._any_completion(bracket, lower)
        pairs = len(found[0])
        while pairs < pairable // 2:
            more = search(pairs + 1, LEVELS[-1])
            if more in (None, _OverBudget):
                break
            found, pairs = more, pairs + 1
        for level in LEVELS[:-1]:  # the first pairing in Dutch order at the least lenient level
            better = search(pairs, level)
            if better not in (None, _OverBudget):
                return better
        last = search(pairs, LEVELS[-1])
        return last if last not in (None, _OverBudget) else found

    def _any_completion(self, bracket: list[int], lower: list[int]):
        """When the search gives up (rare: a bracket whose Dutch order keeps running into dead ends),
        a maximum matching of the bracket and everyone below, which exists since the bracket above
        left a pairable remainder: its pairs inside the bracket stand, its players matched below float."""
        pairs = self.matching(bracket + lower)
        assert pairs is not None, "the remainder was left pairable"
        inside = set(bracket)
        kept = [(a, b) for a, b in pairs if a in inside and b in inside]
        down = [p for p in bracket if not any(p in pair for pair in kept)]
        return kept, down

    def _search(self, bracket: list[int], floaters: set[int], pairs: int | None, level: _Level, lower: list[int],
                budget: int, spent: list[int], prune: bool):
        """The first pairing of the bracket in Dutch order at ``level`` with ``pairs`` pairs (None: any
        number, pairing before floating) that leaves a pairable remainder; ``prune``: check at each
        step that the remainder can still be paired."""
        may_float = len(bracket) if pairs is None else len(bracket) - 2 * pairs
        if not lower:
            may_float = 0  # the last bracket floats nobody
        steps = [0]

        def extend(unpaired: list[int], made: list[tuple[int, int]], down: list[int]):
            steps[0] += 1
            spent[0] += 1
            if steps[0] > budget:
                raise _OverBudget
            if prune and not self.matchable(frozenset(unpaired + down + lower)):
                return None
            if not unpaired:
                return (made, down) if self.matchable(frozenset(down + lower)) else None
            x, rest = unpaired[0], unpaired[1:]
            for y in self._partners(x, rest, floaters):
                if self._compatible(x, y, level):
                    found = extend([p for p in rest if p != y], made + [(x, y)], down)
                    if found:
                        return found
            if len(down) < may_float and (level.float_again or not self.by_seed[x].floated_down):
                return extend(rest, made, down + [x])
            return None

        return extend(bracket, [], [])

    @staticmethod
    def _partners(x: int, rest: list[int], floaters: set[int]) -> list[int]:
        """Dutch order: a floater meets the group's players from the top; the group's top half
        meets its bottom half in order (S1 against S2, transpositions of S2 as the search goes
        on), then the rest of the top half (an exchange)."""
        residents = [p for p in rest if p not in floaters]
        if x in floaters:
            return residents + [p for p in rest if p in floaters]
        group = [x] + residents
        half = len(group) // 2
        return group[half:] + group[1:half]

    def _compatible(self, x: int, y: int, level: _Level) -> bool:
        if y in self.barred[x]:
            return False
        (strength_x, want_x), (strength_y, want_y) = self.preference[x], self.preference[y]
        return not (want_x and want_x == want_y and min(strength_x, strength_y) > level.clash)

    def boards(self, pairs: list[tuple[int, int]]) -> list[Pairing]:
        """Seats allocated; boards by the higher score, the score sum, then the better rank."""
        def key(pair: tuple[int, int]):
            scores = [self.by_seed[p].score for p in pair]
            return -max(scores), -sum(scores), min(self.rank[p] for p in pair)

        seats = {p: e.seats for p, e in self.by_seed.items()}
        return allocate_seats(sorted(pairs, key=key), seats, self.rank)


def perfect_matching(neighbours: list[list[int]], names: list[int]) -> list[tuple[int, int]] | None:
    """Edmonds' blossom algorithm: a matching of every vertex, or None if there is none.
    ``neighbours[i]`` names the vertices (as in ``names``) vertex i may be matched with. O(V³)."""
    n = len(names)
    index = {name: i for i, name in enumerate(names)}
    graph = [[index[q] for q in row] for row in neighbours]
    match = [-1] * n
    for v in range(n):  # a greedy start leaves few augmenting paths to find
        if match[v] == -1:
            u = next((u for u in graph[v] if match[u] == -1), -1)
            if u != -1:
                match[u], match[v] = v, u
    for root in range(n):
        if match[root] != -1:
            continue
        end, parent = _augmenting_path(graph, match, root)
        if end == -1:
            return None  # a vertex left unmatched by a maximum matching
        while end != -1:
            before = parent[end]
            after = match[before]
            match[end], match[before] = before, end
            end = after
    return [(names[v], names[match[v]]) for v in range(n) if v < match[v]]


def _augmenting_path(graph: list[list[int]], match: list[int], root: int) -> tuple[int, list[int]]:
    n = len(graph)
    used, parent, base = [False] * n, [-1] * n, list(range(n))
    used[root] = True
    queue = [root]

    def common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in graph[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                shared = common_base(v, to)
                blossom = [False] * n
                mark(v, shared, to, blossom)
                mark(to, shared, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = shared
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    return to, parent
                used[match[to]] = True
                queue.append(match[to])
    return -1, parent
