"""Pairings: round robin by Berger tables, double round robin, Swiss, single elimination.

Players are numbered 1..n by seed. A pairing is (first seat, second seat); ``None`` as the
second is a bye.
"""

from __future__ import annotations

from typing import Iterable

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
    """Berger tables twice, the seats swapped in the second cycle."""
    first = berger_round_robin(n)
    return first + [[(b, a) if b is not None else (a, None) for a, b in rnd] for rnd in first]


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


def swiss_round(ranking: list[int], played: set[frozenset[int]], had_bye: Iterable[int]) -> list[Pairing]:
    """One Swiss round: ``ranking`` best first (by score, then seed). No pairing repeats; with an
    odd count the lowest-ranked player without a bye so far gets it. Raises ValueError when no
    pairing without repeats exists."""
    players = list(ranking)
    pairings: list[Pairing] = []
    if len(players) % 2:
        byes = set(had_bye)
        candidates = [p for p in reversed(players) if p not in byes] or list(reversed(players))
        bye = candidates[0]
        players.remove(bye)
    else:
        bye = None
    found = _pair(players, played)
    if found is None:
        raise ValueError("no Swiss pairing without a repeat exists for this round")
    pairings += found
    if bye is not None:
        pairings.append((bye, None))
    return pairings


def _pair(players: list[int], played: set[frozenset[int]]) -> list[Pairing] | None:
    """Top-down: the best unpaired player meets the next best it has not played; backtrack."""
    if not players:
        return []
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in played:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], played)
        if tail is not None:
            return [(first, other)] + tail
    return None
