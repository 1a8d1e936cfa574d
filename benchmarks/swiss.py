"""How long the Dutch system takes to pair a round of a 100-player Swiss (docs/correspondence.md):
a Khan & General event of 9 rounds with random wins, draws and losses, each round timed.

Run: python -m benchmarks.swiss [PLAYERS] [ROUNDS]
"""

from __future__ import annotations

import random
import sys
import time

from chalicelib.tournaments import director


def main(players: int = 100, rounds: int = 9) -> None:
    t = director.new_tournament("t_bench", "Bench", "khan", "swiss", {}, organiser="p", created_at="2026-01-01",
                                seed=1, rounds=rounds, forfeit_points=1.0)
    for i in range(1, players + 1):
        director.join(t, f"p{i}", f"P{i}")
    chance = random.Random(1)
    started = time.perf_counter()
    director.start(t, {})
    times = [time.perf_counter() - started]
    while t["status"] == "running" and t["round"] < rounds:
        for p in director.current_pairings(t):
            if p["points"] is None:
                p["points"] = chance.choice([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
        started = time.perf_counter()
        director.next_round(t)
        times.append(time.perf_counter() - started)
    print(f"{players} players, {len(times)} rounds: " + ", ".join(f"{s:.2f}" for s in times)
          + f" s a round; most {max(times):.2f} s, mean {sum(times) / len(times):.2f} s")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
