"""Standings and tie-breaks from finished pairings.

A result gives each side its points for the pairing: Battle Line match points (5 to a
game's winner, the flags held to its loser, summed over the match), or Khan's 1 / ½ / 0.
A bye scores ``bye_points`` and adds nothing to any tie-break but ``wins`` (a Swiss bye is a
won forfeit).

The tie-breaks, each a number per player, larger is better (FIDE Handbook C.07, the tie-break
regulations, names them the same; docs/correspondence.md says why each format takes its order):

* ``direct_encounter``: the points a player took from the others tied on points with them,
  counted only once every two of that group have met (else 0 for the whole group);
* ``wins``: pairings won, by more points than the opponent, with or without play (a bye that
  scores counts: FIDE's WIN);
* ``sonneborn_berger``: each opponent's total weighed by the share of the pairing's points one
  took from them (1, ½ or 0 in Khan; Battle Line's match points in proportion);
* ``buchholz``: the opponents' totals; ``buchholz_cut_1`` the same without the lowest (a round
  without an opponent counts 0, so it is the one cut);
* ``flags_won`` (Battle Line): the flags a player held at the end of each game, over all games.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The tie-break order of each format (``tie_break_order``): C.07's recommendations for an
# individual round robin and an individual Swiss without ratings.
ORDERS = {
    "round_robin": ("direct_encounter", "wins", "sonneborn_berger"),
    "double_round_robin": ("direct_encounter", "wins", "sonneborn_berger"),
    "swiss": ("buchholz_cut_1", "buchholz", "sonneborn_berger", "wins"),
    "single_elimination": ("round_reached",),
}
# What a game adds after its format's order: the one number its own result tells beyond the points.
GAME_TIE_BREAKS = {"battleline": ("flags_won",)}


def tie_break_order(fmt: str, game: str) -> list[str]:
    """The tie-breaks of a tournament, first to last (elimination ranks by the round reached alone)."""
    if fmt == "single_elimination":
        return list(ORDERS[fmt])
    return [*ORDERS[fmt], *GAME_TIE_BREAKS.get(game, ())]


@dataclass(frozen=True)
class Result:
    first: int
    second: int | None  # None: a bye
    first_points: float
    second_points: float = 0.0
    flags: tuple[int, int] | None = None  # Battle Line: the flags each side won in the pairing's games


@dataclass(frozen=True)
class Standing:
    player: int
    points: float
    tie_breaks: dict[str, float] = field(default_factory=dict)

    @property
    def tie_break(self) -> float:
        """The first tie-break's value."""
        return next(iter(self.tie_breaks.values()), 0.0)


def totals(players: list[int], results: list[Result], bye_points: float) -> dict[int, float]:
    score = {p: 0.0 for p in players}
    for r in results:
        if r.second is None:
            score[r.first] += bye_points
        else:
            score[r.first] += r.first_points
            score[r.second] += r.second_points
    return score


def _sides(results: list[Result]):
    """Each pairing with an opponent, from both sides: (me, opponent, my points, theirs)."""
    for r in results:
        if r.second is not None:
            yield r.first, r.second, r.first_points, r.second_points
            yield r.second, r.first, r.second_points, r.first_points


def _meetings(results: list[Result]):
    for me, opponent, mine, theirs in _sides(results):
        total = mine + theirs
        yield me, opponent, (mine / total if total else 0.5)


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


def buchholz_cut_1(players: list[int], results: list[Result], bye_points: float = 0.0) -> dict[int, float]:
    score = totals(players, results, bye_points)
    faced: dict[int, list[float]] = {p: [] for p in players}
    for me, opponent, _ in _meetings(results):
        faced[me].append(score[opponent])
    for r in results:
        if r.second is None:
            faced[r.first].append(0.0)  # a round without an opponent: the one cut
    return {p: sum(scores) - min(scores) if scores else 0.0 for p, scores in faced.items()}


def wins(players: list[int], results: list[Result], bye_points: float = 0.0) -> dict[int, float]:
    won = {p: 0.0 for p in players}
    for me, _opponent, mine, theirs in _sides(results):
        won[me] += mine > theirs
    for r in results:
        if r.second is None and bye_points > 0:
            won[r.first] += 1
    return won


def flags_won(players: list[int], results: list[Result], bye_points: float = 0.0) -> dict[int, float]:
    flags = {p: 0.0 for p in players}
    for r in results:
        if r.second is not None and r.flags is not None:
            flags[r.first] += r.flags[0]
            flags[r.second] += r.flags[1]
    return flags


def direct_encounter(players: list[int], results: list[Result], bye_points: float = 0.0) -> dict[int, float]:
    """Points taken from the players tied on points, once all of the tied group have met."""
    score = totals(players, results, bye_points)
    met = {frozenset((me, opponent)) for me, opponent, _, _ in _sides(results)}
    groups: dict[float, list[int]] = {}
    for p in players:
        groups.setdefault(score[p], []).append(p)
    de = {p: 0.0 for p in players}
    for group in groups.values():
        if len(group) < 2 or any(frozenset((a, b)) not in met for a in group for b in group if a < b):
            continue
        tied = set(group)
        for me, opponent, mine, _ in _sides(results):
            if me in tied and opponent in tied:
                de[me] += mine
    return de


TIE_BREAKS = {f.__name__: f for f in (direct_encounter, wins, sonneborn_berger, buchholz, buchholz_cut_1, flags_won)}


def standings(players: list[int], results: list[Result], *, order: list[str] | tuple[str, ...] = ("sonneborn_berger",),
              bye_points: float = 0.0) -> list[Standing]:
    """Best first: points, then each tie-break of ``order`` in turn, then the seed."""
    score = totals(players, results, bye_points)
    values = {name: TIE_BREAKS[name](players, results, bye_points) for name in order}
    ranked = sorted(players, key=lambda p: (-score[p], *(-values[name][p] for name in order), p))
    return [Standing(p, score[p], {name: values[name][p] for name in order}) for p in ranked]
