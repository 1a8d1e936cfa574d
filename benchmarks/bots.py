"""How strong the bots are: many games between two bots, the seats alternating, each decision
taken from the mover's own view exactly as the server's bot runner takes it.

Targets (docs/bots.md): greedy beats random in at least 80 % of the games (both games);
mcts beats greedy in at least 60 % at no more than 1 s a move (Battle Line).

Run: python -m benchmarks.bots [--games 200] [--only battleline:mcts:greedy]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from chalicelib.bots import bot
from chalicelib.bots.runner import seat_view
from chalicelib.games import ENGINES
from khan_lab.figures import wilson

MATCHES = [("battleline", "greedy", "random", 0.80), ("battleline", "mcts", "greedy", 0.60),
           ("khan", "greedy", "random", 0.80)]


def play(job: tuple[str, str, str, int]) -> tuple[str | None, list[float]]:
    """One game; the winner's name (None: a draw) and the first bot's seconds per decision."""
    game, first, second, number = job
    engine = ENGINES[game]
    rng = random.Random(number)
    names = {1: first, 2: second} if number % 2 == 0 else {1: second, 2: first}
    players = {seat: bot(game, name) for seat, name in names.items()}
    options = engine.options_model.model_validate({}).model_dump(mode="json")
    state = engine.new_game(options, rng)
    timings: list[float] = []
    while engine.result(state) is None:
        seat = engine.to_move(state)
        view = seat_view(engine, state, seat, options)
        started = time.perf_counter()
        step = players[seat].choose(view, rng)
        if names[seat] == first:
            timings.append(time.perf_counter() - started)
        engine.apply_step(state, seat, step)
    winner = engine.result(state)["winner"]
    return (names[winner] if winner else None), timings


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", help="game:first:second")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    matches = [m for m in MATCHES if not args.only or ":".join(m[:3]) == args.only]
    print("| game | match | games | first's wins | draws | win rate (95 % interval) | target | first's time per "
          "decision (mean / max) |")
    print("|---|---|---|---|---|---|---|---|")
    for game, first, second, target in matches:
        jobs = [(game, first, second, number) for number in range(args.games)]
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(play, jobs, chunksize=1))
        wins = sum(1 for winner, _ in results if winner == first)
        draws = sum(1 for winner, _ in results if winner is None)
        low, high = wilson(wins, len(results))
        timings = [t for _, ts in results for t in ts]
        rate = wins / len(results)
        print(f"| {game} | {first} v {second} | {len(results)} | {wins} | {draws} | {rate:.1%} ({low:.1%}-{high:.1%}) "
              f"| ≥ {target:.0%} {'met' if rate >= target else 'MISSED'} | {statistics.mean(timings) * 1000:.0f} ms / "
              f"{max(timings) * 1000:.0f} ms |", flush=True)


if __name__ == "__main__":
    main()
