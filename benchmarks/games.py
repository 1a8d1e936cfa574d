"""Random full two-player Battle Line games with all tactics, engine only.

Each decision picks uniformly among the seat's legal_steps (resigning left out), so the
figure includes listing every legal step and every claim proof, as a bot would need.

Run: make bench (or python -m benchmarks.games [--games N] [--rounds R])
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from chalicelib.games.battleline.engine import ENGINE


def play_random_game(seed: int) -> int:
    rng = random.Random(seed)
    state = ENGINE.new_game({}, rng)
    steps = 0
    while ENGINE.result(state) is None:
        seat = ENGINE.to_move(state)
        legal = [s for s in ENGINE.legal_steps(state, seat) if s["type"] != "resign"]
        ENGINE.apply_step(state, seat, rng.choice(legal))
        steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rates, steps = [], 0
    for round_ in range(args.rounds):
        start = time.process_time()
        steps += sum(play_random_game(round_ * 100_000 + g) for g in range(args.games))
        rates.append(args.games / (time.process_time() - start))
    print(f"random full games (2 players, all tactics), {args.rounds} rounds of {args.games}: "
          f"median {statistics.median(rates):.0f} games/s (rounds: {', '.join(f'{r:.0f}' for r in rates)}), "
          f"{steps / (args.games * args.rounds):.0f} steps a game")


if __name__ == "__main__":
    main()
