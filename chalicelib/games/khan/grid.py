"""The battlefield's geometry: an unbounded square grid, facings, around/adjacent, front
squares, ranged areas, and paths through empty squares. North is +y."""

from __future__ import annotations

from collections import deque
from typing import Iterable

Square = tuple[int, int]
FACINGS = ("N", "E", "S", "W")
FORWARD: dict[str, Square] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
RIGHT: dict[str, Square] = {"N": (1, 0), "E": (0, -1), "S": (-1, 0), "W": (0, 1)}
ORTHOGONAL: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
AROUND: tuple[Square, ...] = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))


def shift(square: Square, delta: Square) -> Square:
    return square[0] + delta[0], square[1] + delta[1]


def around(square: Square) -> list[Square]:
    """The 8 surrounding squares."""
    return [shift(square, d) for d in AROUND]


def adjacent(square: Square) -> list[Square]:
    """The 4 orthogonal neighbours."""
    return [shift(square, d) for d in ORTHOGONAL]


def is_adjacent(a: Square, b: Square) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def front(square: Square, facing: str) -> Square:
    """The square next to a unit in the direction it faces (its combat face)."""
    return shift(square, FORWARD[facing])


def in_frame(square: Square, facing: str, sideways: int, forward: int) -> Square:
    """The square ``forward`` ahead and ``sideways`` to the right of a unit facing ``facing``."""
    f, r = FORWARD[facing], RIGHT[facing]
    return square[0] + forward * f[0] + sideways * r[0], square[1] + forward * f[1] + sideways * r[1]


def area(square: Square, facing: str, offsets: Iterable[tuple[int, int]]) -> set[Square]:
    """A ranged area (``(sideways, forward)`` offsets in the unit's frame) on the grid."""
    return {in_frame(square, facing, s, f) for s, f in offsets}


def reachable(start: Square, steps: int, occupied: set[Square]) -> dict[Square, int]:
    """Every square reachable from ``start`` in at most ``steps`` orthogonal steps through empty
    squares (``start`` itself included, at 0), with the fewest steps to it."""
    found = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if found[here] == steps:
            continue
        for there in adjacent(here):
            if there not in found and there not in occupied:
                found[there] = found[here] + 1
                queue.append(there)
    return found


def path(start: Square, goal: Square, steps: int, occupied: set[Square]) -> list[Square] | None:
    """A shortest path of empty squares from ``start`` to ``goal`` (both included), or None."""
    previous: dict[Square, Square | None] = {start: None}
    queue = deque([(start, 0)])
    while queue:
        here, used = queue.popleft()
        if here == goal:
            route = [here]
            while previous[route[-1]] is not None:
                route.append(previous[route[-1]])
            return route[::-1]
        if used == steps:
            continue
        for there in adjacent(here):
            if there not in previous and there not in occupied:
                previous[there] = here
                queue.append((there, used + 1))
    return None
