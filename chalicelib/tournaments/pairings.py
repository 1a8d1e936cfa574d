"""Pairings: round robin by Berger tables, double round robin, Swiss (the Dutch system),
single elimination, and seats allocated as FIDE allocates colours.

Players are numbered 1..n by seed. A pairing is (seat 1, seat 2); ``None`` as the second is a
bye. docs/correspondence.md ("Tournaments") describes the algorithms and what is simplified.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from .matching import max_weight_matching

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


class NoLegalPairing(ValueError):
    """No pairing of the round meets FIDE's absolute criteria (C.1 no repeat, C.2 no second bye,
    C.3 no two non-topscorers who must both have the same seat): the organiser must decide."""


def swiss_round(entrants: list[Entrant], *, final: bool = False, max_score: float = 0.0) -> list[Pairing]:
    """One Swiss round by FIDE's Dutch system (C.04.3; docs/correspondence.md says how and where it
    still differs). ``entrants`` in any order: they are ranked by score, then seed (pairing number).
    Pairings come with their seats allocated (first = seat 1) by C.04.3's colour rules, boards
    ordered by score, the bye last. ``final``: this is the last round, where topscorers (a score
    above half of ``max_score``, the most points anyone could have by now) are exempt from C.3.
    Raises NoLegalPairing when no pairing meets every absolute criterion.

    The completion criterion (C.4) is the round's: everyone (but the bye) is paired. As
    FIDE-endorsed engines apply it, it looks no further: a pairing after which a later round
    cannot be paired is not passed over; that round raises NoLegalPairing, and the director
    tells the organiser (the tournament's ``stopped``)."""
    field = sorted(entrants, key=lambda e: (-e.score, e.seed))
    return _Dutch(field, final, max_score).pair()


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
                   rank: Mapping[int, int], numbers: Mapping[int, int] | None = None) -> list[Pairing]:
    """Each pairing's seats as FIDE allocates colours (C.04.3 E): grant both preferences; else the
    stronger one (two absolute ones: the wider seat difference); else alternate from the most
    recent game in which the two had different seats; else the higher-ranked player's preference;
    with no games at all, the higher-ranked player takes seat 1 with an odd ``rank`` (pairing
    number), seat 2 with an even one. ``seats_of``: each player's seats so far, oldest first (byes
    and forfeits hold none); ``rank``: lower is better; ``numbers``: pairing numbers, whose parity
    decides the last case (C.04.3 E.5; ``rank`` when not given). Returns (seat 1, seat 2) pairs."""
    placed: list[Pairing] = []
    for a, b in pairs:
        if b is None:
            placed.append((a, None))
            continue
        high, low = (a, b) if rank[a] < rank[b] else (b, a)
        seat = _seat_of_higher(seats_of.get(high, ()), seats_of.get(low, ()), (numbers or rank)[high])
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
    (oldest first), opponents met, whether they had a bye (or a win without playing: C.2), and
    their floats, one a round oldest first: -1 down, +1 up, 0 none (``floated_down``: the last
    round's was down, for callers that know no more)."""
    seed: int
    score: float = 0.0
    seats: tuple[int, ...] = ()
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    floated_down: bool = False
    floats: tuple[int, ...] = ()

    def float_back(self, rounds: int) -> int:
        """The float ``rounds`` rounds back (1: the last round)."""
        if rounds == 1 and self.floated_down:
            return -1
        return self.floats[-rounds] if len(self.floats) >= rounds else 0


BYE = 0  # the vertex that stands for the pairing-allocated bye


class _Dutch:
    """The Dutch system as a weighted matching, bracket by bracket from the top score group down
    (as FIDE-endorsed engines do it): each bracket's pairing is the maximum-weight matching of
    every player still unpaired, whose edge weights encode, most significant first, C.4 (everyone
    can still be paired), the bracket's quality criteria C.5 to C.19 in their order, then the
    Dutch order of candidates (S1 against S2, transpositions before exchanges). Only edges that
    meet the absolute criteria C.1-C.3 exist. The bracket's own pairs are kept; its players left
    unpaired in it move down to the next bracket."""

    def __init__(self, field: list[Entrant], final: bool, max_score: float) -> None:
        self.field = field
        self.by_seed = {e.seed: e for e in field}
        self.rank = {e.seed: i for i, e in enumerate(field)}
        self.rank[BYE] = len(field)
        self.preference = {e.seed: seat_preference(e.seats) for e in field}
        self.top = {e.seed for e in field if final and e.score > max_score / 2}
        self.final = final
        scores = sorted({e.score for e in field})
        self.score_rank = {s: i for i, s in enumerate(scores)}
        self.radix = len(field) + 2
        self.differences = {d: i for i, d in enumerate(sorted({abs(a - b) for a in scores for b in scores}))}
        self.bye_score = float("inf")
        self.bye_score = self._lowest_bye_score()
        # C.04.3 C.9: the bye to a player with as few unplayed games as can be: a rank for each
        # count of games played among the players with the bye's score, the most games first.
        counts = sorted({len(e.seats) for e in field if e.score == self.bye_score}, reverse=True)
        self.unplayed_rank = {c: i for i, c in enumerate(counts)}
        self.c9 = False  # whether the bracket being paired is the one the bye comes from

    def _lowest_bye_score(self) -> float:
        """The pairing-allocated bye goes to a player with the lowest score it can go to with the
        rest of the round still paired (as FIDE-endorsed engines give it: C.04.3's bye criteria
        rank above every bracket's own)."""
        if len(self.field) % 2 == 0:
            return float("inf")
        players = [e.seed for e in self.field]
        for score in sorted({e.score for e in self.field}):
            for e in self.field:
                if e.score != score or e.had_bye:
                    continue
                rest = [p for p in players if p != e.seed]
                neighbours = [[q for q in rest if q != p and self.legal(p, q)] for p in rest]
                if perfect_matching(neighbours, rest) is not None:
                    return score
        return float("inf")

    def score(self, p: int) -> float:
        return self.by_seed[p].score if p != BYE else float("-inf")

    def legal(self, a: int, b: int) -> bool:
        """C.1, C.2 and C.3: the pairs (and byes) that may be made at all, the bye only to a
        player with the lowest score it can go to."""
        if b == BYE or a == BYE:
            bye = self.by_seed[a or b]
            return not bye.had_bye and bye.score <= self.bye_score
        if b in self.by_seed[a].opponents or a == b:
            return False
        (strength_a, want_a), (strength_b, want_b) = self.preference[a], self.preference[b]
        return not (strength_a == strength_b == ABSOLUTE and want_a == want_b and not {a, b} & self.top)

    def pair(self) -> list[Pairing]:
        order = [e.seed for e in self.field]
        remaining = order + ([BYE] if len(order) % 2 else [])
        pairs: list[tuple[int, int]] = []
        bye = None
        moved: list[int] = []
        scores = sorted({e.score for e in self.field}, reverse=True)
        for i, score in enumerate(scores):
            residents = [p for p in order if self.score(p) == score and p in remaining]
            bracket = moved + residents
            following = [p for p in order if i + 1 < len(scores) and self.score(p) == scores[i + 1]]
            if i < len(scores) - 1 and not any(self.legal(a, b) for j, a in enumerate(bracket) for b in bracket[j + 1:]):
                moved = bracket  # nothing can be paired in it: all of it moves down (no matching needed)
                continue
            lower = [p for p in remaining if p != BYE and self.score(p) < score]
            self.c9 = not following or (any(self.score(p) == self.bye_score for p in bracket)
                                        and len(bracket) % 2 == 1 and perfect_matching(
                [[q for q in lower if q != p and self.legal(p, q)] for p in lower], lower) is not None)
            found = self._bracket(remaining, bracket, moved, following)
            if found is None:
                raise NoLegalPairing("no pairing of this round meets FIDE's absolute criteria")
            inside = set(bracket)
            kept = [(a, b) for a, b in found if a in inside and b in inside]
            if i == len(scores) - 1:
                kept = [(a, b) for a, b in found if b != BYE]
                bye = next((a for a, b in found if b == BYE), None)
            done = {p for pair in kept for p in pair} | ({bye, BYE} if bye is not None else set())
            pairs += kept
            moved = [p for p in bracket if p not in done]
            remaining = [p for p in remaining if p not in done]
        return self.boards(pairs, bye)

    def _bracket(self, remaining: list[int], bracket: list[int], moved: list[int],
                 following: list[int]) -> list[tuple[int, int]] | None:
        """The maximum-weight matching of ``remaining`` for this bracket, as (higher, lower) pairs;
        None when it cannot pair everyone."""
        inside, nxt, mdps = set(bracket), set(following), set(moved)
        edges = [(a, b) for i, a in enumerate(remaining) for b in remaining[i + 1:] if self.legal(a, b)]
        quality = {edge: self._quality(*edge, inside, nxt) for edge in edges}
        matched = self._match(remaining, quality)
        if matched is None:
            return None
        # The Dutch order: S1 and S2 from the number of pairs the bracket makes (and how many of
        # its moved-down players are paired in it), the first candidate in that order wins ties.
        # The remainder is the residents the moved-down players are not paired with: found from
        # one matching, it may change the next; repeated until it holds.
        residents = [p for p in bracket if p not in mdps]
        seen = []
        while True:
            in_bracket = [(a, b) for a, b in matched if a in inside and b in inside]
            taken = {p for pair in in_bracket if set(pair) & mdps for p in pair}
            remainder = [p for p in residents if p not in taken]
            pairs = sum(1 for a, b in in_bracket if a in remainder and b in remainder)
            if (remainder, pairs) in seen:
                return matched
            seen.append((remainder, pairs))
            order_weight = {edge: self._order(*edge, bracket, residents, remainder, mdps, pairs)
                            for edge in edges}
            top = max(order_weight.values(), default=0) + 1
            matched = self._match(remaining, {e: w * top + order_weight[e] for e, w in quality.items()})

    def _match(self, players: list[int], weights: dict[tuple[int, int], int]):
        index = {p: i for i, p in enumerate(players)}
        base = (max(weights.values(), default=0) + 1) * (len(players) + 1)  # C.4: a pair more beats all else
        mate = max_weight_matching(len(players), [(index[a], index[b], base + w) for (a, b), w in weights.items()])
        if any(m == -1 for m in mate):
            return None
        return [(players[i], players[m]) for i, m in enumerate(mate) if i < m]

    def _quality(self, a: int, b: int, inside: set[int], nxt: set[int]) -> int:
        """The edge's weight for C.5 to C.19, one mixed-radix digit a criterion, most significant
        first (each digit's radix exceeds its largest possible sum over a matching)."""
        pairs_max = len(self.field) // 2 + 1
        digits: list[tuple[int, int]] = []  # (value, the value's bound for one edge)
        both = a in inside and b in inside
        sa, sb = self.score(a), self.score(b)
        k = self.radix
        levels = len(self.score_rank)

        def power(score: float) -> int:
            return k ** self.score_rank[score] if score in self.score_rank else 0

        # C.5: as many pairs in the bracket as possible.
        digits.append((1 if both else 0, 1))
        # C.6: the downfloaters' scores as low as possible (the paired ones' as high as possible).
        digits.append(((power(sa) + power(sb)) if both else 0, 2 * k ** levels))
        # C.7: the score differences of the bracket's pairs as small as possible (largest first).
        spread = k ** len(self.differences)
        digits.append((spread - k ** self.differences[abs(sa - sb)] if both else 0, spread))
        # C.8 (2017: C.7): the next bracket pairs as many as possible, its downfloaters' scores low.
        ahead = b != BYE and a in inside | nxt and b in inside | nxt and not both
        digits.append((1 if ahead else 0, 1))
        digits.append(((power(sa) + power(sb)) if ahead else 0, 2 * k ** levels))
        # C.9: in the bracket the bye comes from (the last one, or an odd one with players of the
        # bye's score when the players below it pair among themselves), those with the bye's score who played fewer
        # games are paired, leaving the bye to one who played more.
        unplayed = sum(self.unplayed_rank[len(self.by_seed[p].seats)] for p in (a, b)
                       if self.score(p) == self.bye_score) if both and self.c9 else 0
        digits.append((unplayed, 2 * len(self.field)))
        seats = self._seats(a, b) if both else None
        # Topscorers (final round) and their opponents: no seat difference beyond 2, no seat three
        # times running.
        wide = thrice = 0
        if seats and {a, b} & self.top:
            for p, seat in seats:
                history = self.by_seed[p].seats + (seat,)
                wide += abs(history.count(1) - history.count(2)) > 2
                thrice += len(history) >= 3 and history[-1] == history[-2] == history[-3]
        digits.append((2 - wide if both else 0, 2))
        digits.append((2 - thrice if both else 0, 2))
        # Seat preferences: unmet ones, then unmet strong (or absolute) ones.
        unmet = unmet_strong = 0
        if seats:
            for p, seat in seats:
                strength, want = self.preference[p]
                if want and want != seat:
                    unmet += 1
                    unmet_strong += strength >= STRONG
        digits.append((2 - unmet if both else 0, 2))
        digits.append((2 - unmet_strong if both else 0, 2))
        # Floats: the same downfloat as last round, upfloat as last round, then two rounds back;
        # then, in the same order, the scores: those of the players paired here who floated down
        # then as high as can be (a repeated downfloat from as low a score as can be), those of
        # the opponents of repeated upfloaters as low as can be.
        for back in (1, 2):
            for direction in (-1, 1):
                digits.append((self._repeat(a, b, back, direction) if both else 0, 2))
        for back in (1, 2):
            down = sum(power(self.score(p)) for p in (a, b) if self.by_seed[p].float_back(back) == -1) if both else 0
            digits.append((down, 2 * k ** levels))
            up = both and sa > sb and self.by_seed[b].float_back(back) == 1
            digits.append((power(sa) if both and not up else 0, k ** levels))
        weight = 0
        for value, bound in digits:
            weight = weight * (bound * pairs_max + 1) + value
        return weight

    def _repeat(self, a: int, b: int, back: int, direction: int) -> int:
        """For a pair of the bracket: (the count of) its players who get the float they got
        ``back`` rounds ago (-1 down, +1 up) again, less the downfloats a pair avoids: a
        bracket player left unpaired floats down too."""
        sa, sb = self.score(a), self.score(b)
        ea, eb = self.by_seed[a], self.by_seed[b]
        if direction == -1:  # the pair spares a repeated downfloat to each player it keeps level
            return (ea.float_back(back) == -1 and sa == sb) + (eb.float_back(back) == -1)
        return 0 if sa > sb and eb.float_back(back) == 1 else 1

    def _order(self, a: int, b: int, bracket: list[int], residents: list[int], remainder: list[int],
               mdps: set[int], pairs: int) -> int:
        """The Dutch order of candidates (C.04.3 D) as a weight. A moved-down player prefers the
        residents from the top, the higher-ranked ones choosing first; they outweigh the
        remainder (the residents they are not paired with, ``pairs`` pairs made in it: S1 its
        first ``pairs`` players, S2 the rest). There, a pair's higher player is in S1' (the
        exchanged S1): as few exchanges as can be, then exchanges between the nearest players
        (the highers' numbers as small as can be), then the S1 players moved to S2 as low as can
        be, then the S2 players moved to S1 as high as can be; last, each S1' player, from the
        top, meets the highest S2' player it can."""
        if a not in bracket or b not in bracket:
            return 0
        size = len(bracket) + 2
        count = len(remainder)
        lex_radix = (size + 1) ** (count + 2)
        moved_radix = 2 ** (count + 2) * size
        kept_radix = 2 ** (pairs + 2) * size
        sum_radix = size * size + 1
        bound = (size + 1) * sum_radix * kept_radix * moved_radix * lex_radix
        if a in mdps or a not in remainder or b not in remainder:
            partners = residents + [p for p in bracket if p in mdps] if a in mdps else bracket[bracket.index(a) + 1:]
            position = partners.index(b) if b in partners else size - 1
            return (size - position) * (size + 1) ** (len(bracket) - bracket.index(a)) * bound
        j, i = remainder.index(a), remainder.index(b)
        weight = (j < pairs) * sum_radix + count - j
        weight = weight * kept_radix + (2 ** pairs - 2 ** j if j < pairs else 0)
        weight = weight * moved_radix + (2 ** (count - j) if j >= pairs else 0)
        return weight * lex_radix + (size - (i - j)) * (size + 1) ** (count - j)

    def _seats(self, a: int, b: int) -> list[tuple[int, int]]:
        (first, second), = allocate_seats([(a, b)], {p: self.by_seed[p].seats for p in (a, b)},
                                          {p: self.rank[p] for p in (a, b)}, numbers={a: a, b: b})
        return [(first, 1), (second, 2)]

    def boards(self, pairs: list[tuple[int, int]], bye: int | None) -> list[Pairing]:
        """Seats allocated; boards by the higher score, the score sum, then the better rank."""
        def key(pair: tuple[int, int]):
            scores = [self.by_seed[p].score for p in pair]
            return -max(scores), -sum(scores), min(self.rank[p] for p in pair)

        seats = {p: e.seats for p, e in self.by_seed.items()}
        placed = allocate_seats(sorted(pairs, key=key), seats, self.rank, numbers={p: p for p in self.by_seed})
        return placed + ([(bye, None)] if bye is not None else [])



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
