"""Long-polls: a read that, when it finds nothing new, looks again a few times until something is
there or ``wait`` seconds have passed (docs/bots.md). Each look is one cheap read (docs/storage.md,
"Long-polls"); the looks come closer together at first and then once a second, so a move made
while someone waits is answered within about a second."""

from __future__ import annotations

from datetime import timedelta
from typing import Callable, TypeVar

from ..kernel.clock import Clock

T = TypeVar("T")

MAX_WAIT_SECONDS = 20  # deployed and under make serve: well inside API Gateway's 29 s
FIRST_GAP = 0.25  # seconds before the first look again
LONGEST_GAP = 1.0  # the gap doubles up to this


def gaps(seconds: float) -> list[float]:
    """The pauses between looks during a wait of ``seconds`` with nothing found (the last one
    shortened to end the wait): what a waiting client costs is one look a gap."""
    found: list[float] = []
    gap, left = FIRST_GAP, seconds
    while left > 0:
        found.append(min(gap, left))
        left -= found[-1]
        gap = min(gap * 2, LONGEST_GAP)
    return found


class Waiter:
    """Waits by looking again: ``clock`` tells the time and ``sleep`` pauses (the tests give a
    fake clock and a sleep that moves it on). ``max_seconds`` caps every wait: a longer one asked
    for is cut to it. ``longest_gap`` caps the gap between looks (:data:`LONGEST_GAP` unless given;
    a test of whole games played by long-polls looks more often, to end sooner)."""

    def __init__(self, clock: Clock, sleep: Callable[[float], None], max_seconds: float = MAX_WAIT_SECONDS,
                 longest_gap: float = LONGEST_GAP) -> None:
        self.clock = clock
        self.sleep = sleep
        self.max_seconds = max_seconds
        self.longest_gap = longest_gap

    def until(self, wait: float, look: Callable[[], T | None]) -> T | None:
        """What ``look`` first returns other than None, looking again after each gap for at most
        ``wait`` seconds (capped); None if nothing came."""
        seconds = min(max(wait, 0), self.max_seconds)
        end = self.clock.now() + timedelta(seconds=seconds)
        gap = min(FIRST_GAP, self.longest_gap)
        while True:
            left = (end - self.clock.now()).total_seconds()
            if left <= 0:
                return None
            self.sleep(min(gap, left))
            found = look()
            if found is not None:
                return found
            gap = min(gap * 2, self.longest_gap)
