"""Standings and tie-breaks from finished pairings.

A result gives each side its points for the pairing: Battle Line match points (5 to a
game's winner, the flags held to its loser, summed over the match), or Khan's 1 / ½ / 0.
Tie-breaks: Sonneborn-Berger (round robin) weighs each opponent's total by the share of the
pairing's points one took from them; Buchholz (Swiss) sums the opponents' totals. A bye
scores ``bye_points`` and adds nothing to either tie-break.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    first: int
    second: int | None  # None: a bye
    first_points: float
    second_points: float = 0.0


@dataclass(frozen=True)
class Standing:
    player: int
    points: float
    tie_break: float


def totals(players: list[int], results: list[Result], bye_points: float) -> dict[int, float]:
    score = {p: 0.0 for p in players}
    for r in results:
        if r.second is None:
            score[r.first] += bye_points
        else:
            score[r.first] += r.first_points
            score[r.second] += r.second_points
    return score


def _meetings(results: list[Result]):
    for r in results:
        if r.second is not None:
            total = r.first_points + r.second_points
            yield r.first, r.second, (r.first_points / total if total else 0.5)
            yield r.second, r.first, (r.second_points / total if total else 0.5)


def sonneborn_berger(players: list[int], results: list[Result], bye_points: float = 0.0) -> dict[int, float]:
    score = totals(players, results, bye_points)
    sb = {p: 0.0 for p in players}
    for me, opponent, share in _meetings(results):
        sb[me] += share * score[opponent]
    return sb


def buchholz(players: list[int], results: list[Result], bye_points: float = 0.0) -> dict[int, float]:
    score = totals(players, results, bye_points)
    bh = {p: 0.0 for p in players}
    for me, opponent, _ in _meetings(results):
        bh[me] += score[opponent]
    return bh


def standings(players: list[int], results: list[Result], *, tie_break: str, bye_points: float = 0.0) -> list[Standing]:
    """Best first: points, then the tie-break, then the seed."""
    score = totals(players, results, bye_points)
    breaker = (sonneborn_berger if tie_break == "sonneborn_berger" else buchholz)(players, results, bye_points)
    ranked = sorted(players, key=lambda p: (-score[p], -breaker[p], p))
    return [Standing(p, score[p], breaker[p]) for p in ranked]
