"""Random full two-player games, engine only: Battle Line with all tactics, and Khan & General on
its default card set.

Each decision picks uniformly among the seat's legal_steps (resigning left out), so the
figure includes listing every legal step and every claim proof, as a bot would need.

Run: make bench (or python -m benchmarks.games [--games N] [--rounds R])
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from chalicelib.games.battleline.engine import ENGINE
from chalicelib.games.khan.engine import ENGINE as KHAN

ENGINES = {"battleline": ENGINE, "khan": KHAN}


def play_random_game(seed: int, game: str = "battleline") -> int:
    """One game, every decision uniform over the seat's legal steps (resigning left out); its steps."""
    engine = ENGINES[game]
    rng = random.Random(seed)
    options = engine.options_model().model_dump() if getattr(engine, "options_model", None) else {}
    state = engine.new_game(options, rng)
    steps = 0
    while engine.result(state) is None:
        seat = engine.to_move(state)
        legal = [s for s in engine.legal_steps(state, seat) if s["type"] != "resign"]
        engine.apply_step(state, seat, rng.choice(legal))
        steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200, help="Battle Line games a round")
    parser.add_argument("--khan-games", type=int, default=20, help="Khan & General games a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="also write the figures here (benchmarks.compare)")
    args = parser.parse_args()
    figures = {}
    for game, count, label in (("battleline", args.games, "Battle Line, all tactics"),
                               ("khan", args.khan_games, "Khan & General, default card set")):
        if count <= 0:
            continue
        rates, steps = [], 0
        for round_ in range(args.rounds):
            start = time.process_time()
            steps += sum(play_random_game(round_ * 100_000 + g, game) for g in range(count))
            rates.append(count / (time.process_time() - start))
        figures[f"{game}_games_per_s"] = statistics.median(rates)
        print(f"random full games ({label}), {args.rounds} rounds of {count}: "
              f"median {statistics.median(rates):.1f} games/s (rounds: {', '.join(f'{r:.1f}' for r in rates)}), "
              f"{steps / (count * args.rounds):.0f} steps a game")
    if args.json:
        Path(args.json).write_text(json.dumps(figures))


if __name__ == "__main__":
    main()
